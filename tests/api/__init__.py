"""The doors over HTTP and websockets: a real server on a real port."""
