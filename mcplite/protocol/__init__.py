"""The protocol layer: MCP's types and checks, JSON-RPC framing (which knows nothing of MCP),
protocol versions and ``_meta`` keys, projection to each version, and the wire form both ways.

It imports nothing else of mcplite.
"""
