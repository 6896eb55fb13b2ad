"""``studyhall privacy scrub FILE|- [--json]``: what the PII scrubber would send a provider.

Prints the scrubbed text (each e-mail, phone number, card, IBAN, SSN, IP address, street
address and person name replaced by a stable placeholder such as ``<EMAIL_1>``), or with
``--json`` ``{"text", "findings": [{"type", "start", "end", "placeholder"}]}`` where ``start``
and ``end`` are character (code point) offsets into the input. Needs no model, no key and no
data dir. Input that is not UTF-8, or cannot be read: one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

MAX_BYTES = 20 * 1024 * 1024  # a whole book fits; a disk image does not


def register(subparsers: Any) -> None:
    privacy = subparsers.add_parser("privacy", help="see what personal data is kept from models")
    actions = privacy.add_subparsers(dest="privacy_command", metavar="ACTION", required=True)
    scrub = actions.add_parser(
        "scrub",
        help="print a text with its personal data replaced by placeholders",
        description="Replace e-mail addresses, phone numbers, payment cards, IBANs, SSNs, IP "
        "addresses, street addresses and person names by placeholders (<EMAIL_1>, ...), "
        "exactly as Studyhall does before a prompt reaches a hosted model.",
    )
    scrub.add_argument("file", metavar="FILE", help="the text file, or - to read stdin")
    scrub.add_argument("--json", action="store_true",
                       help='print {"text", "findings": [{"type", "start", "end", "placeholder"}]}')
    scrub.set_defaults(func=run_scrub)


def _read(name: str) -> str:
    if name == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    else:
        with Path(name).open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"it is larger than the {MAX_BYTES // (1024 * 1024)} MiB limit")
    return data.decode("utf-8")


def run_scrub(args: argparse.Namespace) -> int:
    from studyhall.core.guardrails.scrubber import scrub

    source = "stdin" if args.file == "-" else args.file
    try:
        text = _read(args.file)
    except UnicodeDecodeError as e:
        print(f"studyhall privacy scrub: cannot read {source}: it is not UTF-8 text "
              f"(byte {e.start}); convert it to UTF-8 first", file=sys.stderr)
        return 1
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(f"studyhall privacy scrub: cannot read {source}: {reason}", file=sys.stderr)
        return 1
    result = scrub(text)
    if args.json:
        findings = [{"type": f.type, "start": f.start, "end": f.end, "placeholder": f.placeholder}
                    for f in result.findings]
        out = json.dumps({"text": result.text, "findings": findings}, ensure_ascii=False)
    else:
        out = result.text
    try:
        sys.stdout.buffer.write(out.encode("utf-8") + (b"\n" if args.json else b""))
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        pass
    return 0
