"""Model adapters: litellm for every provider (chat, structured output, transcription, the audit
row per call), the scripted models the tests and STUDYHALL_SCRIPT use, and their shared error
wording.
"""
