"""Which picture a vault file is: its name's suffix and its first bytes must agree, so a note
cannot make the window load a page, a script or an SVG (which can hold one) as an "image"."""

from __future__ import annotations

import os

IMAGE_TYPES = {
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
    ".webp": "image/webp", ".avif": "image/avif", ".bmp": "image/bmp",
}


def sniffed(head: bytes) -> str | None:
    """The image type the first bytes of a file announce, if any we serve."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[4:8] == b"ftyp" and head[8:12] in (b"avif", b"avis"):
        return "image/avif"
    if head[:2] == b"BM":
        return "image/bmp"
    return None


def image_type(path: str) -> str | None:
    """``path``'s media type when its suffix names an image and its bytes are that image."""
    named = IMAGE_TYPES.get(os.path.splitext(path)[1].lower())
    if named is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        head = os.read(fd, 16)
    except OSError:
        return None
    finally:
        os.close(fd)
    return named if sniffed(head) == named else None
