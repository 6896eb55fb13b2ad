"""The server: composition root, HTTP routes and runtime."""
