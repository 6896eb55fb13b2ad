"""The only helpers a test may import: fakes (``chat_model``, ``chat_script``, ``embedder``),
builders of records and transcripts, scripted lessons, and real app/server harnesses."""
