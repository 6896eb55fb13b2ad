"""A small PNG reader (8-bit, non-interlaced, any colour type but palette) and pixel statistics.

Enough for the screenshots Chromium writes; it lets the sandbox look at a rendered picture
without an imaging library. ``colour_stats`` answers "is this one flat colour?".
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # grey, RGB, grey+alpha, RGBA


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(data: bytes) -> tuple[int, int, int, bytes]:
    """``(width, height, channels, pixels)``: pixels row-major, one byte per channel."""
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a PNG image")
    pos, header, idat = len(_SIGNATURE), None, bytearray()
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos: pos + 4])
        kind = data[pos + 4: pos + 8]
        chunk = data[pos + 8: pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("the PNG has no header")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace != 0:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, "
                         f"interlace {interlace})")
    channels = _CHANNELS[colour]
    stride = width * channels
    raw = zlib.decompress(bytes(idat))
    if len(raw) != (stride + 1) * height:
        raise ValueError("the PNG's pixel data is truncated")
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1: (y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(channels, stride):
                row[i] = (row[i] + row[i - channels]) & 0xFF
        elif kind == 2:
            row = bytearray((r + p) & 0xFF for r, p in zip(row, prev))
        elif kind == 3:
            for i in range(stride):
                left = row[i - channels] if i >= channels else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = row[i - channels] if i >= channels else 0
                up_left = prev[i - channels] if i >= channels else 0
                row[i] = (row[i] + _paeth(left, prev[i], up_left)) & 0xFF
        elif kind != 0:
            raise ValueError(f"unknown PNG filter {kind}")
        out[y * stride: (y + 1) * stride] = row
        prev = row
    return width, height, channels, bytes(out)


def colour_stats(data: bytes, cap: int = 256) -> tuple[int, int, int, float]:
    """``(width, height, colours, ink)``: distinct colours (up to ``cap``) and the share of
    pixels that differ from the most common one."""
    width, height, channels, pixels = decode_png(data)
    total = width * height
    if total == 0:
        return width, height, 0, 0.0
    counts = Counter(pixels[i: i + channels] for i in range(0, len(pixels), channels))
    colours = min(len(counts), cap)
    background = counts.most_common(1)[0][1]
    return width, height, colours, round((total - background) / total, 6)
