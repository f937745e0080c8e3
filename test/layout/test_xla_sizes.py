"""Sizes: the document's padded size and XLA's own ArraySize / ByteSizeOf.

Expected values are those pinned by XLA's tests or computed by hand from the
formulas in the docstrings (noted per case).
"""

from __future__ import annotations

import pytest

from mini_iree.compiler import layout as L


@pytest.mark.parametrize(
    ("text", "padded", "padded_bytes", "array_size", "byte_size_of"),
    [
        # 4x6 tiles of 2x2 hold the 3x5 array.
        ("f32[3,5]{1,0:T(2,2)}", 24, 96, 96, 60),
        # L is ignored by ArraySize without tiles; the document pads 15 -> 16.
        ("f32[3,5]{1,0:L(16)}", 16, 64, 60, 60),
        # (8,8) then (3,1): the within-tile 8 rows pad to 9 -> 72 elements; ArraySize sees only (8,8).
        ("f32[8,8]{1,0:T(8,8)(3,1)}", 72, 288, 256, 256),
        # XLA's shape_util_test Int4ShapeSize.
        ("s4[64,128]{1,0:E(4)}", 8192, 4096, 4096, 4096),
        ("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}", 9216 * 6144, 28311552, 28311552, 28311552),
        # Without E(4) an s4 takes a byte.
        ("s4[4,4]", 16, 16, 16, 16),
        # ArraySize rounds 5x3 to one 8x128 tile: 4096 bytes.
        ("f32[5,3]{1,0:T(8,128)}", 1024, 4096, 4096, 60),
        ("s4[0,64,128]{2,1,0:E(4)}", 0, 0, 0, 0),
        # Combined dims: 112x110 tiled by (2,3) -> 112x111.
        ("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", 12432, 49728, 0, 49280),
        # A tile longer than the shape: [1,3,5] tiled by (2,2,2) -> 2x4x6.
        ("f32[3,5]{1,0:T(2,2,2)}", 48, 192, 192, 60),
        # Rank 0 with a tile of 128.
        ("u32[]{:T(128)}", 128, 512, 512, 4),
        # Split configs replace a dim by its largest piece for ArraySize: 10 cut at 3,7 -> 4.
        ("f32[10,4]{1,0:T(2,4)SC(0:3,7)}", 40, 160, 64, 160),
    ],
)
def test_sizes(text, padded, padded_bytes, array_size, byte_size_of):
    shape = L.parse_shape(text)
    assert L.padded_elements(shape) == padded
    assert L.padded_bytes(shape) == padded_bytes
    assert L.array_size(shape) == array_size
    assert L.byte_size_of(shape) == byte_size_of


def test_sub_byte_offsets():
    shape = L.parse_shape("s4[4,8]{1,0:T(2,4)E(4)}")
    index = int(L.xla_relayout(shape).linear_index([3, 5]))
    # Tile (1,1) of a 2x2 grid, within-tile (1,1): (1*2+1)*8 + 1*4+1 = 29 -> bit 116, byte 14 high nibble.
    assert index == 29
    assert L.bit_offset(shape, index) == 116
