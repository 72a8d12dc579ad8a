"""The transports: stdio and Streamable HTTP. Each is handed an engine and makes a
:class:`~mcplite.engine.connection.Connection` per client; none knows the ``McpServer`` facade."""
