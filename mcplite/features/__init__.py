"""Resources, resource templates, prompts and completions: what a server offers besides tools.

Each registry here holds the functions a server registered and turns them into listings and
results per protocol version; the engine's handlers (:mod:`mcplite.engine.features`) serve them.
"""
