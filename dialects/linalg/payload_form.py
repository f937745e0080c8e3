"""The short `{ payload.op {attrs} }` form that `linalg.map` and `linalg.reduce` share.

MLIR prints a map or reduce whose body is one op applied to the block's
arguments and yielded as that op's name alone (`findPayloadOp`, then
`printShortForm`), and parses it back into such a body
(`addBodyWithPayloadOp`):

```mlir
%0 = linalg.map { arith.addf } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>)
%1 = linalg.reduce { arith.addf } ins(%x : tensor<16x4xf32>) outs(%acc : tensor<4xf32>) dimensions = [0]
```

The two differ only in which block arguments the payload takes: a map's
payload takes the inputs' scalars (the init's block argument, last, is
unused); a reduce's takes the init's first, then the inputs'
(`initFirst`), so that `{ arith.subf }` computes `init - in`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.lexer import Position

from mini_iree.dialects.linalg.basic_ops import YieldOp
from mini_iree.dialects.linalg.bodies import named_block
from mini_iree.dialects.linalg.syntax import element_type_or_self


def _payload_arguments(args: Sequence[BlockArgument], *, init_first: bool) -> list[BlockArgument]:
    """The block arguments the payload op takes, in order (the init's argument is the last block argument)."""
    return [args[-1], *args[:-1]] if init_first else list(args[:-1])


def default_properties(op_type: type[Operation]) -> dict[str, Attribute]:
    """The properties an op gets when none is given (left out when its short form is printed)."""
    if not issubclass(op_type, IRDLOperation):
        return {}
    return {
        name: prop.default_value
        for name, prop in op_type.get_irdl_definition().properties.items()
        if prop.default_value is not None
    }


def find_payload_op(block: Block | None, *, init_first: bool) -> Operation | None:
    """The payload op when the body is that op on the block's arguments, yielded; else None (`findPayloadOp`)."""
    if block is None or len(block.ops) != 2 or not block.args:
        return None
    payload = block.first_op
    terminator = block.last_op
    assert payload is not None
    expected = _payload_arguments(block.args, init_first=init_first)
    if not payload.operands or list(payload.operands) != expected:
        return None
    if not isinstance(terminator, YieldOp) or tuple(terminator.operands) != tuple(payload.results):
        return None
    return payload


def parse_optional_payload(parser: Parser) -> tuple[str, dict[str, Attribute]] | None:
    """`{ payload.op {attrs} }` when the op is written in the short form, else None."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    name = parser.parse_identifier()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return name, attrs


def payload_body(
    parser: Parser,
    name: str,
    payload_attrs: dict[str, Attribute],
    operands: Sequence[SSAValue],
    *,
    init_first: bool,
    pos: Position,
) -> Region:
    """The body the short form stands for: one block argument per operand (the init last), `name` on them, yielded."""
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"unregistered operation {name}", pos)
    if not operands:
        parser.raise_error("the short form needs the payload's operands: expected `ins` and `outs`", pos)
    block = named_block(
        [element_type_or_self(v.type) for v in operands],
        ["in"] * (len(operands) - 1) + ["init"],
    )
    # The attribute dictionary holds both: those the op defines as properties go there.
    properties_defs = op_type.get_irdl_definition().properties if issubclass(op_type, IRDLOperation) else {}
    properties = {k: v for k, v in payload_attrs.items() if k in properties_defs}
    attributes = {k: v for k, v in payload_attrs.items() if k not in properties_defs}
    payload = op_type.create(
        operands=_payload_arguments(block.args, init_first=init_first),
        result_types=[element_type_or_self(operands[-1].type)],
        properties={**default_properties(op_type), **properties},
        attributes=attributes,
    )
    block.add_ops([payload, YieldOp(payload.results[0])])
    return Region(block)


def print_payload(printer: Printer, payload: Operation) -> None:
    """` { payload.op {attrs} }`: the attributes and the properties that differ from their defaults."""
    defaults = default_properties(type(payload))
    shown = {
        **{k: v for k, v in payload.properties.items() if defaults.get(k) != v},
        **payload.attributes,
    }
    printer.print_string(f" {{ {payload.name}")
    printer.print_op_attributes(shown)
    printer.print_string(" }")
