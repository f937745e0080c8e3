"""A palette PNG from a numpy array of colour indices, with zlib alone (no imaging library).

Large layout pictures (a 128x128 GPU tile) are one pixel per element, scaled up
by the browser: a few kilobytes where one SVG rectangle per element would take
a megabyte.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def palette_png(indices: np.ndarray, palette: list[tuple[int, int, int]]) -> bytes:
    """``indices`` (2-D, values < len(palette) <= 256) as an 8-bit palette PNG."""
    rows, cols = indices.shape
    # Each scanline starts with filter type 0 (none).
    raw = np.zeros((rows, cols + 1), dtype=np.uint8)
    raw[:, 1:] = indices
    header = struct.pack(">IIBBBBB", cols, rows, 8, 3, 0, 0, 0)
    plte = bytes(component for colour in palette for component in colour)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", plte)
        + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )
