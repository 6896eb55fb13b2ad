"""Helpers shared by tests: authenticated test clients and real child servers."""
