"""Search adapters: the BM25 + vector index of imported passages on disk, its tokenizer and
spelling suggestions, and the late-interaction reranker.
"""
