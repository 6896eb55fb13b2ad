"""Extraction: coverage fingerprints, batches, extractor/auditor findings and the merger (the only graph writer)."""
