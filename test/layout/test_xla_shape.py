"""HLO shape/layout text: XLA's grammar, canonical printing and validation errors."""

from __future__ import annotations

import pytest

from mini_iree.compiler import layout as L


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}"),
        ("F32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}"),  # the document's typography
        ("f32[3,5]{1, 0 : T(2, 2) (2,1)}", "f32[3,5]{1,0:T(2,2)(2,1)}"),
        ("f32[3,5]{1,0:}", "f32[3,5]{1,0}"),
        ("f32[3,5]", "f32[3,5]"),
        ("u32[]{:T(128)}", "u32[]{:T(128)}"),
        ("u32[]", "u32[]"),
        ("f32[3,5]{1,0:D(D,D)T(2,2)}", "f32[3,5]{1,0:T(2,2)}"),  # sparse dim types are dropped
        ("f32[3,5]{1,0:T(2,2)L(1)E(0)S(0)M(0)}", "f32[3,5]{1,0:T(2,2)}"),  # defaults are not printed
        ("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}", "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}"),
        ("s4[64,128]{1,0:T(64,128)(8,1)L(4)E(4)S(2)M(8)}", "s4[64,128]{1,0:T(64,128)(8,1)L(4)E(4)S(2)M(8)}"),
        ("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"),
        ("f32[10,4]{1,0:SC(0:3,7)}", "f32[10,4]{1,0:SC(0:3,7)}"),
        ("f32[3,5]{1,0:S(-1)}", "f32[3,5]{1,0:S(-1)}"),  # XLA accepts a negative memory space
    ],
)
def test_canonical_printing(text, expected):
    assert L.canonical(text) == expected
    assert L.canonical(expected) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Parser errors.
        ("f32[3,5]{1,0:E(4)T(2,2)}", "expects layout to end with kRbrace"),
        ("f32[3,5]{1,0:T(2,2)T(2,2)}", "expects layout to end with kRbrace"),
        ("f32[3,5]{1,0:t(2,2)}", "expects layout to end with kRbrace"),
        ("f32[3,5]{1,0:T(2,2),E(4)}", "expects layout to end with kRbrace"),
        ("f32[3,5]{1,0,2}", "Dimensions size is 2, but minor to major size is 3."),
        ("f32[3,5]{1,0:T(2.0,2)}", "expects integer"),
        ("f32[3,5]{1,0:T(2,2}", "expects a list to end with kRparen"),
        ("f32[3,5]{1,0:P(f32[3,5])}", "Layout has physical shape, but is not for a sparse array"),
        # ValidateShape errors.
        ("f32[3,5]{1,0:T}", "INVALID_ARGUMENT: layout has invalid tiles: f32[3,5]"),
        ("f32[3,5]{1,0:T(0,2)}", "INVALID_ARGUMENT: layout has invalid tiles: f32[3,5]"),
        ("f32[3,5]{0,0}", "INVALID_ARGUMENT: layout minor_to_major field has duplicate values: {0, 0}; shape: f32[3,5]"),
        ("f32[3,5]{2,0}", "INVALID_ARGUMENT: layout minor_to_major field has out-of-bounds value: {2, 0}; shape: f32[3,5]"),
        ("f32[3,5]{1,0:E(-1)}", "INVALID_ARGUMENT: layout element_size_in_bits field is negative: -1"),
        ("f32[3,5]{1,0:#(u32)}", "INVALID_ARGUMENT: layout has a index_primitive_type, but is not a sparse array: f32[3,5]"),
        ("f32[3,5]{1,0:*(u32)}", "INVALID_ARGUMENT: layout has a pointer_primitive_type, but is not a sparse array: f32[3,5]"),
        # Where XLA aborts the process, or accepts nonsense, we report an error.
        ("f32[3,5]{1,0:T(-1,2)}", "Tile dimension size needs to be minimum int64_t value if it's negative. Value is -1"),
        ("f32[3,5]{1,0:L(0)}", "layout tail_padding_alignment_in_elements field is <= 0: {0}"),
        ("f32[3,5]{1,0:T(2,*)}", "'*' in the most-minor tile position has no dimension to combine with"),
        # Not a shape at all.
        ("tuple[3]", "expects a shape with an array element type"),
        ("f32[?,5]", "dynamic dimensions are not supported"),
        ("f32[3,5]{1,0} junk", "unexpected 'junk' after the shape"),
    ],
)
def test_errors(text, message):
    with pytest.raises(L.XlaLayoutError) as err:
        L.parse_shape(text)
    assert message in str(err.value)


def test_parse_fields():
    shape = L.parse_shape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}")
    assert shape.element_type == "bf16"
    assert shape.dimensions == (8, 1, 1280, 16384)
    assert shape.layout is not None
    assert shape.layout.minor_to_major == (3, 2, 0, 1)
    assert shape.layout.tiles == ((8, 128), (2, 1))
    combine = L.parse_shape("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").layout
    assert combine is not None and combine.tiles[0][0] == L.COMBINE_DIMENSION


def test_layout_alone():
    assert str(L.parse_layout("{1, 0 : T(8, 128)}")) == "{1,0:T(8,128)}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f32[<=3,5]{1,0:T(2,2)}", "f32[<=3,5]{1,0:T(2,2)}"),
        ("F32[ <=3 , 5 ]", "f32[<=3,5]"),
        ("s8[2,<=0,<=7]{0,1,2}", "s8[2,<=0,<=7]{0,1,2}"),
    ],
)
def test_bounded_dynamic_dimensions_print_as_xla(text, expected):
    assert L.canonical(text) == expected
    assert L.canonical(expected) == expected


def test_bounded_dynamic_dimension_is_laid_out_for_its_bound():
    # XLA's Shape keeps the bound as the dimension size and marks it dynamic;
    # storage (and every offset) is that of the bound.
    bounded = L.parse_shape("f32[<=3,5]{1,0:T(2,2)}")
    static = L.parse_shape("f32[3,5]{1,0:T(2,2)}")
    assert bounded.dimensions == (3, 5)
    assert bounded.is_dynamic_dimension(0) and not bounded.is_dynamic_dimension(1)
    assert bounded != static
    assert L.padded_bytes(bounded) == L.padded_bytes(static)
    assert L.xla_relayout(bounded).linear_index([[2], [3]]) == L.xla_relayout(static).linear_index([[2], [3]])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f32[<3,5]", "expects '<=' before a dimension bound"),
        ("f32[< =3,5]", "expects '<=' before a dimension bound"),
        ("f32[<=,5]", "expects integer"),
        ("f32[<=-1,5]", "invalid dimension size -1"),
        ("f32[<=3,5]{0,0}", "duplicate values: {0, 0}; shape: f32[<=3,5]"),
    ],
)
def test_bounded_dynamic_dimension_errors(text, message):
    with pytest.raises(L.XlaLayoutError) as err:
        L.parse_shape(text)
    assert message in str(err.value)
