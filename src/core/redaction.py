"""Key-shaped text: the one list of patterns that masks API keys, bearer tokens and
``key=value`` secrets in text the app writes down — log lines and model-error messages alike.

Known secret values are masked by their owners before these run (the log redactor knows every
stored key; a model adapter knows the key it sent); the patterns catch what nobody registered.
"""

from __future__ import annotations

import re

MASK = "[redacted]"

KEY_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{6,}"), rf"\1 {MASK}"),
    (re.compile(r"(?i)\b(token|api[_-]?key|apikey|secret|password)=([^&\s\"']+)"), rf"\1={MASK}"),
    (
        re.compile(
            r"(?i)([\"']?(?:api[_-]?key|authorization|x-api-key|token|secret)[\"']?\s*[:=]\s*[\"']?)"
            r"([^\s\"',}]{6,})"
        ),
        rf"\1{MASK}",
    ),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"), MASK),  # OpenAI, Anthropic (sk-ant-), OpenRouter
    (re.compile(r"\b(?:gsk|xai|hf|pplx|ghp|github_pat)_[A-Za-z0-9_]{10,}"), MASK),
    (re.compile(r"\bxai-[A-Za-z0-9]{10,}"), MASK),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{20,}"), MASK),  # Google
    # Other prefixed keys a provider may echo back in an error (sk_, rk-, pk_, key-, api_...).
    (re.compile(r"(?i)\b(?:sk|rk|pk|api|key)[-_][A-Za-z0-9_-]{8,}"), MASK),
)


def mask_key_shapes(text: str) -> str:
    """``text`` with everything that looks like a key or a token masked."""
    for pattern, replacement in KEY_SHAPES:
        text = pattern.sub(replacement, text)
    return text
