"""Embedding adapters: the bundled MiniLM on ONNX Runtime (exported once, in a child process) or
torch, a provider's embeddings through litellm, and the choice between them.
"""
