"""The hidden bodies of named ops: built once per signature, and their scalar computations."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mini_iree.dialects.linalg.basic_ops import YieldOp
from mini_iree.dialects.linalg.syntax import element_type_or_self, quoted_type
from mini_iree.dialects.utils import operand_segment_sizes

# ---------------------------------------------------------------------------------------
# Hidden bodies of named ops, built once per signature
# ---------------------------------------------------------------------------------------

# The hidden body of a named op depends only on the op's class and its operand
# types, and a program has thousands of `linalg.fill`/`linalg.matmul` ops but
# few signatures: each body is built once through the ops' constructors and
# copied for the others. Keys hold types (immutable), values unattached blocks
# nobody else sees.
_BODY_TEMPLATES: dict[tuple[Attribute | type, ...], Block] = {}
_BODY_TEMPLATES_LIMIT = 4096


def _copy_body(template: Block) -> Region:
    """A fresh region holding a copy of ``template``, whose ops have no regions.

    The copies get what the constructors gave the template's ops (operands,
    result types, properties, attributes, name hints), built with ``create``,
    which skips the constructors' argument processing.
    """
    block = Block(arg_types=[arg.type for arg in template.args])
    values: dict[SSAValue, SSAValue] = {}
    for old, new in zip(template.args, block.args):
        new.name_hint = old.name_hint
        values[old] = new
    ops: list[Operation] = []
    for op in template.ops:
        copy = type(op).create(
            operands=[values[v] for v in op.operands],
            result_types=[r.type for r in op.results],
            properties=op.properties,
            attributes=op.attributes,
        )
        for old, new in zip(op.results, copy.results):
            new.name_hint = old.name_hint
            values[old] = new
        ops.append(copy)
    block.add_ops(ops)
    return Region(block)


def hidden_body(key: tuple[Attribute | type, ...], build: Callable[[], Region]) -> Region:
    """The body ``build`` makes for the signature ``key``, built once and then copied."""
    template = _BODY_TEMPLATES.get(key)
    if template is None:
        region = build()
        block = region.blocks.first
        if block is None or block.next_block is not None or any(op.regions or op.successors for op in block.ops):
            return region
        if len(_BODY_TEMPLATES) >= _BODY_TEMPLATES_LIMIT:
            _BODY_TEMPLATES.clear()
        # The first one built stays the template; the caller gets a copy.
        template = _BODY_TEMPLATES[key] = block
    return _copy_body(template)


def create_named_op(
    cls: type[NamedOperation],
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    result_types: Sequence[Attribute],
    properties: Mapping[str, Attribute],
    attributes: Mapping[str, Attribute],
    body: Region,
) -> Operation:
    """The op ``cls.build(operands=[inputs, outputs], result_types=[result_types],
    properties=..., attributes=..., regions=[body])`` makes, without the IRDL
    constructor's argument processing (parsers build thousands of these)."""
    # As the IRDL constructor: the segment sizes go last, or replace one given.
    properties = {**properties, "operandSegmentSizes": operand_segment_sizes(len(inputs), len(outputs))}
    return cls.create(
        operands=[*inputs, *outputs],
        result_types=result_types,
        properties=properties,
        attributes=attributes,
        regions=[body],
    )


# ---------------------------------------------------------------------------------------
# Hidden regions: scalar casts and multiply-accumulate
# ---------------------------------------------------------------------------------------


def build_scalar_cast(value: SSAValue, to_type: Attribute) -> tuple[list[Operation], SSAValue]:
    """Convert a scalar to `to_type` like MLIR's `cast_signed` type function.

    Integers are sign-extended or truncated, floats extended or truncated,
    and integer/float conversions are signed. Returns the ops to insert and
    the converted value (the value itself when no cast is needed).
    """
    from_type = value.type
    if from_type == to_type:
        return [], value
    if isinstance(to_type, IntegerType):
        if isinstance(from_type, AnyFloat):
            op = arith.FPToSIOp(value, to_type)
            return [op], op.result
        if isinstance(from_type, IndexType):
            op = arith.IndexCastOp(value, to_type)
            return [op], op.result
        if isinstance(from_type, IntegerType):
            if to_type.bitwidth > from_type.bitwidth:
                op = arith.ExtSIOp(value, to_type)
                return [op], op.result
            if to_type.bitwidth < from_type.bitwidth:
                op = arith.TruncIOp(value, to_type)
                return [op], op.result
            return [], value
    if isinstance(to_type, AnyFloat):
        if isinstance(from_type, IntegerType):
            op = arith.SIToFPOp(value, to_type)
            return [op], op.result
        if isinstance(from_type, AnyFloat):
            # Equal widths (bf16 and f16) have no conversion, as in MLIR.
            if to_type.bitwidth > from_type.bitwidth:
                op = arith.ExtFOp(value, to_type)
                return [op], op.result
            if to_type.bitwidth < from_type.bitwidth:
                op = arith.TruncFOp(value, to_type)
                return [op], op.result
            return [], value
    raise ValueError(f"could not cast operand of type {quoted_type(from_type)} to {quoted_type(to_type)}")


def _multiply_add(lhs: SSAValue, rhs: SSAValue, acc: SSAValue) -> list[Operation]:
    """`acc + lhs * rhs` in the accumulator's type; `i1` uses and/or like MLIR."""
    ty = acc.type
    if isinstance(ty, AnyFloat):
        mul: Operation = arith.MulfOp(lhs, rhs)
        add: Operation = arith.AddfOp(acc, mul.results[0])
    elif ty == IntegerType(1):
        mul = arith.AndIOp(lhs, rhs)
        add = arith.OrIOp(acc, mul.results[0])
    elif isinstance(ty, IntegerType | IndexType):
        mul = arith.MuliOp(lhs, rhs)
        add = arith.AddiOp(acc, mul.results[0])
    else:
        raise ValueError(f"unsupported accumulator type {quoted_type(ty)}")
    return [mul, add]


def named_block(types: Sequence[Attribute], names: Sequence[str]) -> Block:
    block = Block(arg_types=types)
    for arg, name in zip(block.args, names, strict=True):
        arg.name_hint = name
    return block


def build_multiply_accumulate_region(operand_types: Sequence[Attribute]) -> Region:
    """The body of every contraction: `out += cast(lhs) * cast(rhs)`.

    Both inputs are first cast to the accumulator's element type (`arith.extsi`
    for `i8 -> i32`, `arith.extf` for `f16 -> f32`...), then multiplied and
    added to the accumulator, in the order MLIR's region builder emits them.
    """
    if len(operand_types) != 3:
        raise ValueError(
            f"[parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got {len(operand_types)}"
        )
    block = named_block([element_type_or_self(t) for t in operand_types], ["in", "in", "out"])
    lhs, rhs, acc = block.args
    lhs_ops, lhs_value = build_scalar_cast(lhs, acc.type)
    rhs_ops, rhs_value = build_scalar_cast(rhs, acc.type)
    body = [*lhs_ops, *rhs_ops, *_multiply_add(lhs_value, rhs_value, acc)]
    block.add_ops([*body, YieldOp(body[-1].results[0])])
    return Region(block)


def build_identity_region(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    """A body yielding its first argument, as `linalg.transpose`/`broadcast` use."""
    block = named_block(
        [element_type_or_self(v.type) for v in (*inputs, *outputs)],
        ["in"] * len(inputs) + ["init"] * len(outputs),
    )
    if block.args:
        block.add_op(YieldOp(block.args[0]))
    return Region(block)


