"""Regular expressions that say, in an OpenAPI schema, what the server decides with Python's
string methods: whitespace is exactly what ``str.isspace()`` calls whitespace (``\\s`` means
less in some regex engines, and more or less in others' generators)."""

from __future__ import annotations

from pydantic.json_schema import JsonDict

# Every character for which str.isspace() is true (Python 3.11, Unicode 14).
WHITESPACE = (
    r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
)
SPACE = f"[{WHITESPACE}]"
NOT_SPACE = f"[^{WHITESPACE}]"
# Text with something in it besides whitespace (what ``text.strip()`` leaves non-empty).
NOT_BLANK: JsonDict = {"pattern": NOT_SPACE}
