"""Request guardrails (pure): the PII scrubber and its restorer, the intent router, imported
material wrapped as data, and the ``ChatModel`` decorator that applies them to every call."""
