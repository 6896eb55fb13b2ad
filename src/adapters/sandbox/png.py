"""PNG pixels and colour statistics for the sandbox, decoded by Pillow.

``colour_stats`` answers "is this rendered picture one flat colour?" for the screenshots
Chromium writes. Pillow unfilters and counts in C; one check stays here because Pillow does not
make it: a picture whose pixel data stops short (its zlib stream ends early) is refused, where
Pillow would fill the missing rows with black.
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}  # Pillow modes read as they are
_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # samples per pixel by PNG colour type
# Adam7 passes: first column, first row, column step, row step.
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
          (0, 1, 1, 2))


def _raw_size(width: int, height: int, bits: int, interlaced: bool) -> int:
    """Bytes of filtered pixel data the header promises: a filter byte per row, per pass."""
    passes = _ADAM7 if interlaced else ((0, 0, 1, 1),)
    total = 0
    for x0, y0, dx, dy in passes:
        w, h = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if w > 0 and h > 0:
            total += h * (1 + (w * bits + 7) // 8)
    return total


def _check_complete(data: bytes) -> None:
    """Refuse a PNG whose header or pixel data is missing or shorter than its header says."""
    pos, header, idat = len(_SIGNATURE), None, bytearray()
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[pos + 8 : pos + 21])
        elif kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise ValueError("the PNG has no header")
    width, height, depth, colour, _, _, interlace = header
    try:
        raw = len(zlib.decompress(bytes(idat)))
    except zlib.error as e:
        raise ValueError(f"the PNG's pixel data is damaged or truncated ({e})") from e
    if raw < _raw_size(width, height, depth * _SAMPLES.get(colour, 4), interlace == 1):
        raise ValueError("the PNG's pixel data is truncated")


def _open(data: bytes) -> Image.Image:
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a PNG image")
    _check_complete(data)
    from PIL import Image  # on first use: only the sandbox's picture checks need it

    try:
        image: Image.Image = Image.open(io.BytesIO(data), formats=["PNG"])
        image.load()
        if image.mode not in _CHANNELS:  # palette, 1-bit, 16-bit: compared as RGBA colours
            image = image.convert("RGBA")
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise ValueError(f"the PNG could not be decoded ({e})") from e
    return image


def colour_stats(data: bytes, cap: int = 256) -> tuple[int, int, int, float]:
    """``(width, height, colours, ink)``: distinct colours (up to ``cap``) and the share of
    pixels that differ from the most common one."""
    image = _open(data)
    width, height = image.size
    total = width * height
    if total == 0:
        return width, height, 0, 0.0
    counts = image.getcolors(maxcolors=total) or []  # every colour: never more than pixels
    background = max(count for count, _ in counts)
    return width, height, min(len(counts), cap), round((total - background) / total, 6)
