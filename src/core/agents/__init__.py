"""The agents, written only against ports: the agent loop and every model role (prober, teacher,
extractor, auditor, labeler, answerer, reranker, rewriter, researcher, demo and visual makers,
quiz and review-question writers), with their prompts and tools.
"""
