"""The GPU padding resolver (`#iree_gpu.gpu_padding_resolver`) against IREE's rule.

IREE's GPUPadLayoutResolverAttr pads the innermost dim of a `padding<[0, ..., ?]>`
tensor to the next cache line when a row spans at least a cache-set span, plus one
line when the padded row is a multiple of the span; the expected pads below are
worked out by hand from that rule for gfx942 (128-byte lines, 4 sets).
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f16, f32, i8

from mini_iree.compiler.resolvers.gpu import rocm_target
from mini_iree.compiler.resolvers.padding import configured_padding_resolver, get_padding_layout
from mini_iree.dialects.iree_encoding import EncodingAttr, PaddingAttr
from mini_iree.dialects.iree_gpu import GPUPaddingResolverAttr

Q = DYNAMIC_INDEX
GFX942 = GPUPaddingResolverAttr(128, 4)


def _pad(shape, element, padding=(0, Q)) -> list[int] | None:
    layout = get_padding_layout(GFX942, TensorType(element, shape, PaddingAttr(list(padding))))
    return None if layout is None else layout.get_padding()


@pytest.mark.parametrize(
    ("shape", "element", "expected"),
    [
        ((Q, 2048), f16, [0, 64]),  # 4096 bytes: a whole number of set spans, one more line
        ((Q, 16), f16, [0, 0]),  # 32 bytes: shorter than the 512-byte span
        ((8, 1000), f32, [0, 56]),  # 4000 -> 4096 (+96 bytes), a span multiple, +128: 224 bytes
        ((8, 300), f32, [0, 20]),  # 1200 -> 1280 (+80 bytes), not a span multiple
        ((8, 256), i8, [0, 0]),  # 256 bytes < 512
        ((8, 640), i8, [0, 0]),  # 640 bytes: whole lines, not a span multiple
        ((8, 1024), i8, [0, 128]),  # 1024 bytes: two spans, one more line
    ],
)
def test_pad_amounts(shape, element, expected):
    assert _pad(shape, element) == expected


def test_what_is_not_resolved():
    assert _pad((8, Q), f32) is None  # dynamic innermost dim
    assert _pad((Q, 2048), f16, (64, Q)) is None  # a pad on another dim
    assert _pad((8, 4, 2048), f16) is None  # padding rank differs from the tensor's
    assert _pad((Q, 2048), f16, (64, 64)) == [64, 64]  # already static: kept


def test_other_encodings_have_no_padding_layout():
    """A data-tiling encoding has no padding layout on a target with a known cache (IREE returns null)."""
    from xdsl.parser import Parser

    from mini_iree.compiler.resolvers.gpu import _context

    text = "#iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>"
    encoding = Parser(_context(), text).parse_attribute()
    assert isinstance(encoding, EncodingAttr)
    assert get_padding_layout(GFX942, TensorType(f32, (8, 1000), encoding)) is None
    assert get_padding_layout(GPUPaddingResolverAttr(), TensorType(f32, (8, 1000), encoding)) == PaddingAttr([0, 0])


def test_configured_from_the_target():
    """gfx90a/gfx942 have a known L1 cache; gfx950 does not, so nothing is padded there."""
    assert configured_padding_resolver(rocm_target("gfx942", "pad")) == GPUPaddingResolverAttr(128, 4)
    assert configured_padding_resolver(rocm_target("gfx90a", "pad")) == GPUPaddingResolverAttr(128, 4)
    no_cache = configured_padding_resolver(rocm_target("gfx950", "pad"))
    assert no_cache == GPUPaddingResolverAttr()
    layout = get_padding_layout(no_cache, TensorType(f16, (Q, 2048), PaddingAttr([0, Q])))
    assert layout == PaddingAttr([0, 0])
