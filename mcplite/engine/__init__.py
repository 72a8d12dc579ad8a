"""The engine: request handling with one handler table keyed by method, the eras, ``tools/call``,
cancellation and workers. It imports protocol, payload and tools; transports import it."""
