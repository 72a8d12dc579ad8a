"""The ``mcplite`` command: serve an MCP server on stdio, or over Streamable HTTP.

.. code-block:: text

    mcplite serve app.py             the McpServer defined in app.py
    mcplite serve app.py:server      a named attribute: an McpServer, or a function returning one
    mcplite serve mypackage.tools    an importable module (the current directory is searched first)
    mcplite serve app.py --http      over HTTP at http://127.0.0.1:8000/mcp (--host H, --port P)
    mcplite serve app.py --http --token-env MCP_TOKEN --allowed-host mcp.example.com
                                     with a bearer token read from $MCP_TOKEN, behind a proxy
    mcplite demo                     the demo server (also: plain `mcplite` and `python -m mcplite`)
    mcplite --version

Without ``:ATTR`` the server is the module's one McpServer instance, else its attribute ``server``,
``mcp`` or ``app``. On stdio, stdout belongs to the protocol: messages go to stderr, and a target
that cannot be loaded exits with status 2.

>>> split_target("app.py:make_server")
('app.py', 'make_server')
>>> split_target("mypackage.tools")
('mypackage.tools', None)
"""

from __future__ import annotations

import argparse
import contextlib
import hmac
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from types import ModuleType
from typing import Any

import rvalues
from mcplite import McpServer
from mcplite.transports.http.guards import Authenticate

#: Attribute names tried, in order, when a module does not hold exactly one McpServer.
FALLBACK_NAMES = ("server", "mcp", "app")


class LoadError(Exception):
    """A server could not be loaded; the message says why and what to do."""


def package_version() -> str:
    """The installed version of rvalues-mcplite (the source tree's version when not installed)."""
    try:
        return version("rvalues-mcplite")
    except PackageNotFoundError:
        return rvalues.__version__


# -- finding the server ---------------------------------------------------------------------------


def split_target(target: str) -> tuple[str, str | None]:
    """Split ``PATH_OR_MODULE[:ATTR]``; ATTR is a (dotted) name, so ``C:\\app.py`` is not split."""
    head, colon, tail = target.rpartition(":")
    if not colon:
        return target, None
    if not tail:
        raise LoadError(f"{target!r}: nothing after ':'; write PATH_OR_MODULE:ATTR or leave out the ':'")
    if head and all(part.isidentifier() for part in tail.split(".")):
        return head, tail
    return target, None


def _looks_like_path(spec: str) -> bool:
    separators = [os.sep] + ([os.altsep] if os.altsep else []) + ["/"]
    return spec.endswith(".py") or any(s in spec for s in separators) or Path(spec).is_file()


def load_module(spec: str) -> ModuleType:
    """Import a ``.py`` file (by path) or a module (by name), with stdout sent to stderr meanwhile."""
    with contextlib.redirect_stdout(sys.stderr):
        return _import_file(Path(spec)) if _looks_like_path(spec) else _import_name(spec)


def _import_file(path: Path) -> ModuleType:
    if not path.exists():
        raise LoadError(f"no such file: {str(path)!r}")
    if path.is_dir() or path.suffix != ".py":
        raise LoadError(f"{str(path)!r} is not a Python file; give a .py file or an importable module name")
    path = path.resolve()
    name = path.stem if path.stem.isidentifier() and path.stem not in sys.modules else "__mcplite_target__"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise LoadError(f"cannot import {str(path)!r}")
    module = importlib.util.module_from_spec(module_spec)
    sys.path.insert(0, str(path.parent))  # sibling imports work, as under `python app.py`
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException as err:
        sys.modules.pop(name, None)
        raise _failure(f"importing {path}", err) from err
    return module


def _import_name(name: str) -> ModuleType:
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is not None and (name == err.name or name.startswith(err.name + ".")):
            raise LoadError(
                f"no module named {name!r} (searched {os.getcwd()} and sys.path); "
                "give a .py file path or an importable module name"
            ) from None
        raise _failure(f"importing {name}", err) from err
    except BaseException as err:
        raise _failure(f"importing {name}", err) from err


def _failure(action: str, err: BaseException) -> LoadError:
    """A LoadError for user code that raised, with its traceback (Ctrl-C is not a failure)."""
    if isinstance(err, KeyboardInterrupt):
        raise err
    details = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    return LoadError(f"{action} failed: {type(err).__name__}: {err}\n{details.rstrip()}")


def find_server(module: ModuleType, attr: str | None = None, where: str | None = None) -> McpServer:
    """The server a module offers: ``attr`` if given, else its one McpServer, else a fallback name."""
    where = where or module.__name__
    if attr is not None:
        return _as_server(_get_attribute(module, attr, where), f"{where}:{attr}")
    instances = _instances(module)
    if len(instances) == 1:
        return next(iter(instances.values()))
    for name in FALLBACK_NAMES:
        if hasattr(module, name):
            return _as_server(getattr(module, name), f"{where}:{name}")
    if instances:
        names = ", ".join(instances)
        raise LoadError(
            f"{where} holds {len(instances)} McpServer instances ({names}); choose one: {where}:NAME"
        )
    raise LoadError(
        f"no McpServer found in {where}: create one there (server = McpServer(...)) "
        f"or name one, or a function returning one, as {where}:NAME"
    )


def _instances(module: ModuleType) -> dict[str, McpServer]:
    """The module's McpServer instances by their first name (an instance bound twice counts once)."""
    seen: dict[int, tuple[str, McpServer]] = {}
    for name, value in vars(module).items():
        if isinstance(value, McpServer) and id(value) not in seen:
            seen[id(value)] = (name, value)
    return dict(seen.values())


def _get_attribute(module: ModuleType, attr: str, where: str) -> Any:
    value: Any = module
    for part in attr.split("."):
        if not hasattr(value, part):
            known = ", ".join(_instances(module)) or "none"
            raise LoadError(f"{where} has no attribute {attr!r} (McpServer instances there: {known})")
        value = getattr(value, part)
    return value


def _as_server(value: Any, where: str) -> McpServer:
    """An McpServer as is, or what a zero-argument function returns."""
    if isinstance(value, McpServer):
        return value
    if not callable(value):
        raise LoadError(
            f"{where} is of type {type(value).__name__}, not an McpServer or a function returning one"
        )
    required = [
        p.name
        for p in _parameters(value)
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if required:
        raise LoadError(f"{where} needs arguments ({', '.join(required)}); a factory must take none")
    try:
        with contextlib.redirect_stdout(sys.stderr):
            made = value()
    except Exception as err:
        raise _failure(f"calling {where}()", err) from err
    if not isinstance(made, McpServer):
        raise LoadError(f"{where}() returned a value of type {type(made).__name__}, not an McpServer")
    return made


def _parameters(function: Any) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # no signature (some builtins): just call it
        return []


def load_server(target: str) -> McpServer:
    """The server named by ``PATH_OR_MODULE[:ATTR]``; a ``LoadError`` says what is wrong.

    >>> load_server("mcplite.demo.server:build_server").name
    'penguins'
    """
    spec, attr = split_target(target)
    return find_server(load_module(spec), attr, where=spec)


# -- the command ----------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mcplite`` command."""
    parser = argparse.ArgumentParser(
        prog="mcplite",
        description="Serve an MCP server on stdio (stdout carries only the protocol) or over HTTP.",
    )
    parser.add_argument("--version", action="version", version=f"mcplite {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve = commands.add_parser("serve", help="serve a server from a .py file or a module")
    serve.add_argument(
        "target",
        metavar="PATH_OR_MODULE[:ATTR]",
        help="a .py file or module name; ATTR names an McpServer or a zero-argument function returning one",
    )
    demo = commands.add_parser(
        "demo", help="serve the demo server over the Palmer penguins data (the default)"
    )
    for command in (serve, demo):
        _add_http_options(command)
    return parser


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return int(text)


def _add_http_options(command: argparse.ArgumentParser) -> None:
    http = command.add_argument_group("Streamable HTTP (needs the http extra: uvicorn)")
    http.add_argument(
        "--http", action="store_true", help="serve over HTTP at http://HOST:PORT/mcp, not stdio"
    )
    http.add_argument("--host", help="the interface to listen on (default 127.0.0.1: this machine only)")
    http.add_argument("--port", type=_port, help="the port to listen on (default 8000)")
    http.add_argument(
        "--allowed-host",
        action="append",
        metavar="HOST",
        help="a Host name requests arriving on loopback may carry, as behind a proxy that forwards "
        "the public name (repeatable; '*' for any)",
    )
    http.add_argument(
        "--allowed-origin",
        action="append",
        metavar="ORIGIN",
        help="a browser origin to let in besides loopback ones, such as https://app.example.com "
        "(repeatable; '*' for any)",
    )
    http.add_argument(
        "--token-env",
        metavar="NAME",
        help="require 'Authorization: Bearer TOKEN', TOKEN being the value of environment variable "
        "NAME: a token written on the command line would show in the process list and shell history",
    )


#: The HTTP flags and the keyword arguments of ``McpServer.run`` they give.
_HTTP_FLAGS = {"host": "--host", "port": "--port", "allowed_host": "--allowed-host"}
_HTTP_FLAGS |= {"allowed_origin": "--allowed-origin", "token_env": "--token-env"}


def shared_token(name: str) -> Authenticate:
    """A check accepting one bearer token: the value of environment variable ``name``, read now.

    >>> os.environ["DOC_TOKEN"] = "s3cret"
    >>> check = shared_token("DOC_TOKEN")
    >>> del os.environ["DOC_TOKEN"]  # read once: the check keeps the token
    >>> check("s3cret"), check("guess")
    (True, False)
    """
    secret = os.environ.get(name)
    if secret is None:
        raise LoadError(f"--token-env: environment variable {name} is not set; export {name}=<token> first")
    if not secret:
        raise LoadError(f"--token-env: environment variable {name} is empty; a token cannot be empty")
    expected = secret.encode()

    def check(token: str) -> bool:
        return hmac.compare_digest(token.encode(), expected)  # in constant time: no guessing by timing

    return check


def http_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The HTTP app's settings the flags give (only those given: the rest keep their defaults)."""
    settings: dict[str, Any] = {}
    if args.allowed_host:
        settings["allowed_hosts"] = list(args.allowed_host)
    if args.allowed_origin:
        settings["allowed_origins"] = list(args.allowed_origin)
    if args.token_env is not None:
        settings["authenticate"] = shared_token(args.token_env)
    return settings


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mcplite`` command; the exit status is returned (2 for a target that cannot be loaded)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit:  # --help, --version, or a usage error argparse has reported
        return exit.code if isinstance(exit.code, int) else 2
    http = getattr(args, "http", False)
    given = [flag for name, flag in _HTTP_FLAGS.items() if getattr(args, name, None) is not None]
    if not http and given:
        print(
            "mcplite: error: --host and --port go with --http, as do --allowed-host, --allowed-origin "
            f"and --token-env (given: {', '.join(given)})",
            file=sys.stderr,
        )
        return 2
    host, port = getattr(args, "host", None), getattr(args, "port", None)
    if http and importlib.util.find_spec("uvicorn") is None:
        print("mcplite: error: --http needs uvicorn: pip install 'rvalues-mcplite[http]'", file=sys.stderr)
        return 2
    try:
        settings = http_settings(args) if http else {}
        server = _demo_server() if args.command in (None, "demo") else load_server(args.target)
    except LoadError as err:
        print(f"mcplite: error: {err}", file=sys.stderr)
        return 2
    try:
        if http:
            server.run("http", host=host or "127.0.0.1", port=8000 if port is None else port, **settings)
        else:
            server.run()
    except KeyboardInterrupt:
        return 130
    return 0


def _demo_server() -> McpServer:
    # the demo's data and pandas load only when the demo is served
    from mcplite.demo.server import build_server

    return build_server()
