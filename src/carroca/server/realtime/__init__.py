"""The WebSocket seam: client messages parsed at the edge, server frames encoded once,
and the fan-out channels that carry them to sockets."""
