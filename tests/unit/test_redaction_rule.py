"""One list of key shapes masks secrets wherever the app writes text down: the log redactor and
the model-error messages mask the same things."""

from __future__ import annotations

import pytest
from studyhall.adapters.llm.litellm_errors import redact as redact_model_error
from studyhall.core.redaction import MASK, mask_key_shapes
from studyhall.server.redaction import Redactor

SECRETS = {
    "sk-proj-AbCdEfGh12345678": "key sk-proj-AbCdEfGh12345678 was refused",
    "eyJhbGciOiJIUzI1NiJ9": "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
    "abcDEF123456": "GET /?token=abcDEF123456 HTTP/1.1",
    "AIzaSyA1234567890abcdefghij": "google AIzaSyA1234567890abcdefghij",
    "rk_live_0123456789": "restricted key rk_live_0123456789 is not allowed",
    "pk-test-abcdefgh12": "public key pk-test-abcdefgh12 used as a secret",
    "gsk_abcdefghijklmnop1234": "groq gsk_abcdefghijklmnop1234",
}


@pytest.mark.parametrize("secret", sorted(SECRETS))
def test_logs_and_model_errors_mask_the_same_key_shapes(secret: str) -> None:
    text = SECRETS[secret]
    for masked in (Redactor().redact(text), redact_model_error(text), mask_key_shapes(text)):
        assert secret not in masked and MASK in masked


def test_ordinary_words_are_left_alone() -> None:
    text = "the key to the api is in the settings; token budget 4000"
    assert mask_key_shapes(text) == text
