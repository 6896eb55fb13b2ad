"""Desktop shell and CLI entry point: launches the server, owns no logic."""
