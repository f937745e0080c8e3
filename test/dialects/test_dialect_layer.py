"""The dialects are the bottom layer: what they need to define their ops is theirs.

The compiler's names for dialect definitions are imports of them (that no module
under ``dialects/`` imports the compiler or the passes is test/test_import_graph.py's);
``operand_groups`` gives the groups the accessors give, whether or not the
op's layout is understood.
"""

from __future__ import annotations

from mini_iree.dialects.flow import TensorEncodeOp
from mini_iree.dialects.linalg import packed_shape
from mini_iree.dialects.support import operand_groups
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import DenseArrayBase, TensorType, f32, i32
from xdsl.irdl import OptionalDef, VariadicDef


def test_the_compiler_imports_the_dialect_definitions():
    # One copy: the layout algebra's names are the dialects' objects.
    from mini_iree.compiler.layout import encoding_info_checks, xla_shape
    from mini_iree.compiler.layout.shapes import packed_shape as layout_packed_shape
    from mini_iree.dialects import encoding_info_checks as dialect_checks
    from mini_iree.dialects import xla_shape as dialect_xla_shape

    assert encoding_info_checks.verify_encoding_info is dialect_checks.verify_encoding_info
    assert xla_shape.parse_layout is dialect_xla_shape.parse_layout
    assert layout_packed_shape is packed_shape


def _encode_op() -> TensorEncodeOp:
    source = xdsl_test.TestOp(result_types=[TensorType(f32, [-1])]).res[0]
    dim = xdsl_test.TestOp(result_types=[source.type.get_element_type()]).res[0]
    return TensorEncodeOp(source, TensorType(f32, [-1]), [dim], [dim])


def _accessor_groups(op) -> list[tuple]:
    groups = []
    for name, definition in op.get_irdl_definition().operands:
        value = getattr(op, name)
        if isinstance(definition, OptionalDef):
            groups.append(() if value is None else (value,))
        elif isinstance(definition, VariadicDef):
            groups.append(tuple(value))
        else:
            groups.append((value,))
    return groups


def test_operand_groups_are_the_accessors():
    op = _encode_op()
    assert [len(g) for g in operand_groups(op)] == [1, 1, 1]
    assert [tuple(g) for g in operand_groups(op)] == _accessor_groups(op)


def test_operand_groups_of_sizes_that_do_not_add_up_ask_the_accessors():
    op = _encode_op()
    # Sizes the groups cannot follow (three operands, sizes for five): the accessors
    # decide, as they would without operand_groups.
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 2, 2])
    try:
        expected = _accessor_groups(op)
    except Exception as err:  # noqa: BLE001 - whatever the accessors raise, operand_groups raises
        error = type(err)
    else:
        assert [tuple(g) for g in operand_groups(op)] == expected
        return
    try:
        operand_groups(op)
    except error:
        return
    raise AssertionError(f"operand_groups did not raise {error.__name__} as the accessors do")
