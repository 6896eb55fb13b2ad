"""The sandbox's PNG reader: every filter type, colour statistics, and broken input."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image
from studyhall.adapters.sandbox.png import colour_stats


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


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
    colours = {pixels[i:i + channels] for i in range(0, len(pixels), channels)}
    # Every filter decoded right: the size, and each distinct pixel counted once.
    assert colour_stats(encode(width, height, pixels, channels))[:3] == (width, height,
                                                                        min(len(colours), 256))


def test_a_flat_picture_has_one_colour_and_no_ink() -> None:
    assert colour_stats(encode(4, 4, b"\xff\xff\xff" * 16)) == (4, 4, 1, 0.0)


def test_ink_is_the_share_off_the_most_common_colour() -> None:
    pixels = b"\xff\xff\xff" * 12 + b"\x00\x00\x00" * 4
    assert colour_stats(encode(4, 4, pixels)) == (4, 4, 2, 0.25)


@pytest.mark.parametrize("data", [b"GIF89a", b"\x89PNG\r\n\x1a\n", b""])
def test_broken_input_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        colour_stats(data)


def test_a_truncated_image_is_refused() -> None:
    good = encode(4, 4, b"\x10" * 48)
    header = struct.pack(">IIBBBBB", 4, 5, 8, 2, 0, 0, 0)  # claims one more row than it has
    bad = good[:8] + _chunk(b"IHDR", header) + good[8 + 25:]
    with pytest.raises(ValueError, match="truncated"):
        colour_stats(bad)


def test_a_truncated_interlaced_image_is_refused() -> None:
    # Adam7 rows are shorter than the image's: the size the header promises counts each pass.
    width, height = 9, 7
    image = Image.frombytes("L", (width, height), bytes(range(width * height)))
    raw = bytearray()
    for x0, y0, dx, dy in ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
                           (1, 0, 2, 2), (0, 1, 1, 2)):
        for y in range(y0, height, dy):
            row = bytes(image.getpixel((x, y)) for x in range(x0, width, dx))
            if row:
                raw += b"\x00" + row
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 1)

    def png(pixels: bytes) -> bytes:
        return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) +
                _chunk(b"IDAT", zlib.compress(pixels)) + _chunk(b"IEND", b""))

    assert colour_stats(png(bytes(raw)))[:3] == (width, height, len(image.getcolors(width * height)))
    with pytest.raises(ValueError, match="truncated"):
        colour_stats(png(bytes(raw[:-1])))


def test_a_palette_picture_is_counted_by_its_colours() -> None:
    image = Image.new("P", (10, 10), 0)
    image.putpalette([255, 255, 255, 200, 0, 0, 255, 255, 255])  # entries 0 and 2: both white
    for x in range(5):
        image.putpixel((x, 0), 1)
    image.putpixel((9, 9), 2)
    out = io.BytesIO()
    image.save(out, format="PNG")
    assert colour_stats(out.getvalue()) == (10, 10, 2, 0.05)
