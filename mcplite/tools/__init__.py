"""The tools layer: the one annotation reader, input schemas and argument binding built from it,
the request context a tool receives, and the tool registry. It imports protocol and payload."""
