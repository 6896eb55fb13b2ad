"""The sandbox's PNG reader: every filter type, colour statistics, and broken input."""

from __future__ import annotations

import struct
import zlib

import pytest
from studyhall.adapters.sandbox.png import _paeth, colour_stats, decode_png


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _filter(kind: int, row: bytes, prev: bytes, bpp: int) -> bytes:
    out = bytearray()
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        predictor = {0: 0, 1: a, 2: b, 3: (a + b) // 2, 4: _paeth(a, b, c)}[kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def encode(width: int, height: int, pixels: bytes, channels: int = 3) -> bytes:
    """A PNG whose rows cycle through filters 0-4 (so the reader must undo each)."""
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    stride = width * channels
    raw, prev = bytearray(), bytes(stride)
    for y in range(height):
        row = pixels[y * stride: (y + 1) * stride]
        kind = y % 5
        raw += bytes([kind]) + _filter(kind, row, prev, channels)
        prev = row
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) +
            _chunk(b"IDAT", zlib.compress(bytes(raw))) + _chunk(b"IEND", b""))


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_every_filter_round_trips(channels: int) -> None:
    width, height = 7, 11
    pixels = bytes((x * 37 + y * 11 + c * 5) % 256 for y in range(height)
                   for x in range(width) for c in range(channels))
    assert decode_png(encode(width, height, pixels, channels)) == (width, height, channels, pixels)


def test_a_flat_picture_has_one_colour_and_no_ink() -> None:
    assert colour_stats(encode(4, 4, b"\xff\xff\xff" * 16)) == (4, 4, 1, 0.0)


def test_ink_is_the_share_off_the_most_common_colour() -> None:
    pixels = b"\xff\xff\xff" * 12 + b"\x00\x00\x00" * 4
    assert colour_stats(encode(4, 4, pixels)) == (4, 4, 2, 0.25)


@pytest.mark.parametrize("data", [b"GIF89a", b"\x89PNG\r\n\x1a\n", b""])
def test_broken_input_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_png(data)


def test_a_truncated_image_is_refused() -> None:
    good = encode(4, 4, b"\x10" * 48)
    header = struct.pack(">IIBBBBB", 4, 5, 8, 2, 0, 0, 0)  # claims one more row than it has
    bad = good[:8] + _chunk(b"IHDR", header) + good[8 + 25:]
    with pytest.raises(ValueError, match="truncated"):
        decode_png(bad)
