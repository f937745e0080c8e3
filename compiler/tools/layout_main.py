"""`mini-iree-layout`: indices, sizes, explanations and pictures of a layout.

    mini-iree-layout index 'f32[3,5]{1,0:T(2,2)}' 2,3        -> 17
    mini-iree-layout grid 'bf16[4,8]{1,0:T(2,4)(2,1)}'
    mini-iree-layout size 'f32[3,5]{1,0:T(2,2)}' --json
    mini-iree-layout canonical 'F32[3, 5]{1, 0 : T(2, 2)}'
    mini-iree-layout explain 'f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}'
    mini-iree-layout draw 'f32[3,5]{1,0:T(2,2)}' -o fig1.svg
    mini-iree-layout resolve --target gfx942 --types f32,f32,f32 --sizes ?,?,? [--json]

A CuTe layout (`(4,8):(8,1)`, `((2,2),8):((1,16),2)`) is accepted where an XLA
shape is; `cute` runs CuTe's layout algebra and `convert` moves a layout
between CuTe, XLA and IREE, checked on every element:

    mini-iree-layout cute composition '(6,2):(8,2)' '(4,3):(3,1)'   -> ((2,2),3):((24,2),8)
    mini-iree-layout convert --to cute 'bf16[4,8]{1,0:T(2,4)(2,1)}'  -> ((2,2),8):((1,16),2)

`resolve` asks a target's encoding resolver which layout each operand of a
plain matmul gets. Every other subcommand also takes an IREE encoding instead of an XLA shape:

    mini-iree-layout index --encoding-info '{innerDimsPos = [0, 1], innerTileSizes = [8, 1],
        outerDimsPerm = [0, 1]}' --shape 10x7xf32 9,6

Bad input prints `error: ...` on stderr and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

import numpy as np

from mini_iree.compiler import layout as L
from mini_iree.compiler.layout.materialization import format_ops
from mini_iree.compiler.tools.output_file import OutputError, write_output

if TYPE_CHECKING:
    from xdsl.ir import Attribute

    from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
    from mini_iree.dialects.iree_encoding import EncodingAttr

_MLIR_TYPE = re.compile(r"^(?:(bf16)|f(\d+)|(?:s|u)?i(\d+))$")


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse with the project's error convention (`error: ...`, status 1)."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


@dataclass
class Subject:
    """What the command talks about: a layout, how to name it, its element size."""

    relayout: L.Relayout
    title: str
    element_bits: int
    tile_elements: int
    xla: L.XlaShape | None = None
    info: MaterializeEncodingInfo | None = None
    element_type: str = "f32"


def _mlir_shape(text: str) -> tuple[tuple[int | None, ...], str, int]:
    """`10x7xf32` -> ((10, 7), "f32", 32); `?` dims allowed, rank 0 is `f32`."""
    *dims, element_type = text.strip().split("x")
    match = _MLIR_TYPE.match(element_type)
    if not match:
        raise ValueError(f"--shape must look like 10x7xf32, got '{text}'")
    bits = 16 if match.group(1) else int(match.group(2) or match.group(3))
    sizes: list[int | None] = []
    for dim in dims:
        if dim == "?":
            sizes.append(None)
        elif dim.isdigit():
            sizes.append(int(dim))
        else:
            raise ValueError(f"--shape must look like 10x7xf32, got '{text}'")
    return tuple(sizes), element_type, bits


def _xla_element_type(mlir_type: str) -> str:
    """The XLA spelling of an MLIR element type (i32 -> s32, i1 -> pred)."""
    name = L.xla_element_type(mlir_type)
    if name is None:
        raise ValueError(f"XLA has no element type for {mlir_type}")
    return name


def _subject(args: argparse.Namespace) -> Subject:
    if args.encoding_info is not None:
        if args.shape is None:
            raise ValueError("--encoding-info needs --shape (e.g. --shape 10x7xf32)")
        shape, element_type, bits = _mlir_shape(args.shape)
        info = _parse_encoding_info(args.encoding_info)
        relayout = L.encoding_relayout(info, shape)
        tile = 1
        for t in L.inner_tiles(info):
            tile *= t or 1
        title = f"{args.shape} encoding_info = {L.format_encoding_info(info)}"
        return Subject(relayout, title, bits, tile, None, info, element_type)
    if args.subject is None:
        raise ValueError("expected an XLA shape such as 'f32[3,5]{1,0:T(2,2)}' or --encoding-info with --shape")
    if args.shape is not None:
        raise ValueError("--shape goes with --encoding-info")
    xla = L.parse_shape(args.subject)
    layout = xla.with_default_layout().layout
    assert layout is not None
    tile = 1
    for t in layout.tiles[0] if layout.tiles else ():
        tile *= 1 if t == L.COMBINE_DIMENSION else t
    return Subject(L.xla_relayout(xla), str(xla), xla.element_bits, tile, xla)


def _parse_encoding_info(text: str) -> MaterializeEncodingInfo:
    from xdsl.utils.exceptions import DiagnosticException

    import mini_iree.compiler.ir.parsing  # noqa: F401 - its linear-time string lexer (xDSL's backtracks for minutes)

    for width in re.findall(r"\b[su]?i(\d+)\b", text):
        if int(width) > 16777215:
            raise ValueError("cannot parse encoding_info: integer bitwidth is limited to 16777215 bits")
    try:
        return L.parse_encoding_info(text)
    except DiagnosticException as err:
        # Attribute verifiers run while the dictionary is parsed (an i16 out of range).
        lines = str(err).strip().splitlines()
        raise ValueError(f"cannot parse encoding_info: {lines[0] if lines else type(err).__name__}") from None


def _xla_equivalent(subject: Subject) -> str:
    """`xla: <shape>` for an encoding, or why there is none."""
    try:
        layout = L.iree_to_xla_layout(subject.info, subject.relayout.rank)  # type: ignore[arg-type]
    except L.NotExpressible as why:
        return f"xla: none ({why})"
    element_type = L.xla_element_type(subject.element_type)
    if element_type is None:
        return f"xla: none (XLA has no element type for {subject.element_type})"
    dims = ",".join("?" if d is None else str(d) for d in subject.relayout.logical_shape)
    return f"xla: {element_type}[{dims}]{layout}"


def _index_tuple(text: str, rank: int) -> list[int]:
    parts = [p for p in text.split(",")] if text.strip() else []
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"index '{text}' must be comma-separated integers") from None
    if len(values) != rank:
        raise ValueError(f"index '{text}' has {len(values)} components, the shape has rank {rank}")
    return values


def cmd_index(subject: Subject, args: argparse.Namespace) -> None:
    if not args.indices:
        raise ValueError("give at least one index, e.g. 2,3")
    rows = [_index_tuple(text, subject.relayout.rank) for text in args.indices]
    columns = [list(column) for column in zip(*rows)] if subject.relayout.rank else []
    if subject.relayout.rank:
        offsets = subject.relayout.linear_index(columns)
    else:
        offsets = [int(subject.relayout.linear_index([]))] * len(rows)
    for offset in offsets:
        print(int(offset))


GRID_MAX_ELEMENTS = 1 << 20
"""`grid` prints every element: beyond this many, it would only flood the terminal."""


def cmd_grid(subject: Subject, args: argparse.Namespace) -> None:
    if subject.relayout.rank != 2:
        raise ValueError(f"grid needs a rank-2 shape, this one has rank {subject.relayout.rank}")
    elements = subject.relayout.elements()
    if elements is not None and elements > GRID_MAX_ELEMENTS:
        raise ValueError(f"grid prints at most {GRID_MAX_ELEMENTS} elements, this shape has {elements}")
    grid = subject.relayout.index_grid()
    width = len(str(int(grid.max()))) if grid.size else 1
    for row in grid:
        print(" ".join(str(int(v)).rjust(width) for v in row))


def _bytes(elements: int, bits: int) -> int:
    return -(-elements * bits // 8)


def cmd_size(subject: Subject, args: argparse.Namespace) -> None:
    elements = subject.relayout.elements()
    padded = subject.relayout.padded_elements()
    if elements is None or padded is None:
        raise ValueError("size needs a static shape")
    if subject.xla is not None:
        nbytes = L.array_size(subject.xla) if args.xla else L.padded_bytes(subject.xla)
    elif args.xla:
        layout = L.iree_to_xla_layout(subject.info, subject.relayout.rank)  # type: ignore[arg-type]
        dims = tuple(int(d) for d in subject.relayout.logical_shape)  # type: ignore[arg-type]
        nbytes = L.array_size(L.XlaShape(_xla_element_type(subject.element_type), dims, layout))
    else:
        nbytes = _bytes(padded, subject.element_bits)
    if args.json:
        print(json.dumps({"elements": elements, "padded_elements": padded, "bytes": nbytes}))
    else:
        print(f"elements: {elements}")
        print(f"padded_elements: {padded}")
        print(f"bytes: {nbytes}{'  (XLA ArraySize)' if args.xla else ''}")


def cmd_canonical(subject: Subject, args: argparse.Namespace) -> None:
    if subject.info is None:
        print(subject.title)
        return
    print(f"encoding_info = {L.format_encoding_info(subject.info)}")
    print(_xla_equivalent(subject))


def cmd_explain(subject: Subject, args: argparse.Namespace) -> None:
    print(subject.title)
    for line in subject.relayout.explain():
        print("  " + line)
    padded = subject.relayout.padded_elements()
    if padded is not None:
        print(f"  {padded} padded elements, {_bytes(padded, subject.element_bits)} bytes")
    if subject.info is not None:
        shape = subject.relayout.logical_shape
        print("materialization (set_encoding):")
        for line in format_ops(L.materialization_ops(subject.info, shape), shape, subject.element_type):
            print("  " + line)
        physical = subject.relayout.physical_shape
        print("inverse (unset_encoding):")
        ops = L.unmaterialization_ops(subject.info, shape)
        for line in format_ops(ops, physical, subject.element_type):
            print("  " + line)
        print(_xla_equivalent(subject))


def cmd_draw(subject: Subject, args: argparse.Namespace) -> None:
    from mini_iree.compiler.layout import drawing

    picture = drawing.layout_picture(subject.relayout, subject.title, subject.tile_elements)
    if args.output.endswith(".svg"):
        write_output(args.output, drawing.to_svg(picture))
    elif args.output.endswith(".png"):
        drawing.save_png(picture, args.output)
    else:
        raise ValueError("-o must name a .svg or .png file")


# ===----------------------------------------------------------------------=== #
# resolve: the layouts a target's encoding resolver gives a matmul
# ===----------------------------------------------------------------------=== #

RESOLVE_OPERANDS = ("lhs", "rhs", "result")
# The eras of compiler/resolvers/gpu.py (GPU_ERAS), spelled here so that building
# the parser does not import the dialects.
_GPU_ERAS = ("walkthrough", "3.13")


def _parse_element_types(text: str) -> list[Attribute]:
    """`f32,f32,f32` -> the (LHS, RHS, OUT) element types."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import AnyFloat, Builtin, IntegerType
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    import mini_iree.compiler.ir.parsing  # noqa: F401 - its linear-time string lexer

    names = [name.strip() for name in text.split(",")]
    if len(names) != 3:
        raise ValueError(f"--types takes three element types LHS,RHS,OUT (e.g. f32,f32,f32), got '{text}'")
    ctx = Context()
    ctx.load_dialect(Builtin)
    types: list[Attribute] = []
    for name in names:
        try:
            parser = Parser(ctx, name, "<types>")
            element_type = parser.parse_type()
            complete = parser.pos >= len(name)
        except ParseError:
            element_type, complete = None, False
        if not complete or not isinstance(element_type, IntegerType | AnyFloat):
            raise ValueError(f"--types: '{name}' is not an integer or float element type such as f32, bf16, i8")
        types.append(element_type)
    return types


def _parse_sizes(text: str) -> list[int | None]:
    """`M,N,K` with `?` for a dynamic size."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3 or any(not (p == "?" or (p.isdigit() and int(p) > 0)) for p in parts):
        raise ValueError(f"--sizes takes M,N,K as positive integers or '?', got '{text}'")
    return [None if p == "?" else int(p) for p in parts]


def matmul_encodings(types: list[Attribute], sizes: list[int | None]) -> dict[str, EncodingAttr]:
    """The LHS, RHS and RESULT encodings of `C(M,N) += A(M,K) * B(K,N)`, as SetEncoding writes them."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX
    from xdsl.ir.affine import AffineExpr, AffineMap

    from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

    m, n, k = (AffineExpr.dimension(i) for i in range(3))
    maps = [AffineMap(3, 0, (m, k)), AffineMap(3, 0, (k, n)), AffineMap(3, 0, (m, n))]
    iteration_sizes = [DYNAMIC_INDEX if s is None else s for s in sizes]
    return {
        name: EncodingAttr(index, EncodingOpType.MATMUL, types, maps, iteration_sizes)
        for index, name in enumerate(RESOLVE_OPERANDS)
    }


def _operand_shape(operand: str, sizes: list[int | None]) -> tuple[int | None, ...]:
    m, n, k = sizes
    return {"lhs": (m, k), "rhs": (k, n), "result": (m, n)}[operand]


def _info_json(info: MaterializeEncodingInfo) -> dict[str, object]:
    entry: dict[str, object] = {
        "innerDimsPos": list(info.inner_dims_pos),
        "innerTileSizes": list(info.inner_tile_sizes),
        "outerDimsPerm": list(info.outer_dims_perm),
    }
    if info.swizzle is not None:
        # A distribution factor other than 1 (IREE 3.13) is the dim's third entry.
        entry["swizzle"] = {
            "expandShape": [
                [[d.kind.value, d.size, *([d.distribution_factor] if d.distribution_factor != 1 else [])] for d in g]
                for g in info.swizzle.expand_shape
            ],
            "permutation": list(info.swizzle.permutation),
        }
    return entry


def _resolve_text(operand: str, info: MaterializeEncodingInfo, shape: tuple, element_type: str) -> list[str]:
    dims = "x".join("?" if d is None else str(d) for d in shape)
    lines = [f"{operand}: tensor<{dims}x{element_type}>"]
    if info.is_identity():
        return [*lines, "  identity: the resolver has no tile for this matmul, the encoding is dropped"]
    relayout = L.encoding_relayout(info, shape)
    lines.append(f"  encoding_info = {L.format_encoding_info(info)}")
    lines.append(f"  packed: {L.format_shape(L.packed_tensor_shape(info, shape))}")
    if info.swizzle is not None:
        lines.append(f"  swizzled: {L.format_shape(relayout.physical_shape)}")
    subject = Subject(relayout, "", 0, 0, None, info, element_type)
    lines.append("  " + _xla_equivalent(subject))
    return lines


def cmd_resolve(args: argparse.Namespace) -> None:
    from mini_iree.compiler.resolvers import resolve_encoding_info
    from mini_iree.compiler.resolvers.targets import parse_target

    target = parse_target(args.target)
    types = _parse_element_types(args.types)
    sizes = _parse_sizes(args.sizes)
    encodings = matmul_encodings(types, sizes)
    operands = [args.operand] if args.operand else list(RESOLVE_OPERANDS)
    infos = {name: resolve_encoding_info(target, encodings[name], gpu_era=args.gpu_era) for name in operands}
    if any(info is None for info in infos.values()):
        resolver = target.get_config("iree.encoding.resolver")
        if resolver is not None:
            raise ValueError(f"the target's resolver {resolver} gives matmul encodings no packed layout")
        raise ValueError("the target names no iree.encoding.resolver, so it gives encodings no layout")
    if args.json:
        print(json.dumps({name: _info_json(info) for name, info in infos.items() if info is not None}))
        return
    element_types = {"lhs": types[0], "rhs": types[1], "result": types[2]}
    for name, info in infos.items():
        assert info is not None
        for line in _resolve_text(name, info, _operand_shape(name, sizes), str(element_types[name])):
            print(line)


def _add_resolve_parser(commands: argparse._SubParsersAction) -> None:
    help_text = "the layout a target's encoding resolver gives each operand of a matmul"
    sub = commands.add_parser("resolve", help=help_text, description=help_text)
    sub.add_argument(
        "--target", required=True, help="e.g. gfx942, 'x86_64:+avx,+avx2,+fma', vmvx, or #hal.executable.target<...>"
    )
    sub.add_argument("--types", required=True, help="LHS,RHS,OUT element types, e.g. f32,f32,f32 or i8,i8,i32")
    sub.add_argument("--sizes", required=True, help="M,N,K, '?' for a dynamic size, e.g. ?,?,? or 255,1023,513")
    sub.add_argument("--operand", choices=RESOLVE_OPERANDS, help="only this operand (default: all three)")
    sub.add_argument("--json", action="store_true", help="print a JSON object keyed by operand")
    sub.add_argument(
        "--gpu-era",
        choices=_GPU_ERAS,
        default="walkthrough",
        help="GPU heuristics: the data-tiling walkthrough's (default) or IREE 3.13's",
    )


# ===----------------------------------------------------------------------=== #
# CuTe layouts: the same subcommands, CuTe's algebra, conversions
# ===----------------------------------------------------------------------=== #

CUTE_MAX_ELEMENTS = 1 << 22
"""Commands that look at every element of a CuTe layout stop beyond this many."""


def _cute(text: str):
    """A CuTe layout, plain or swizzled (`Sw<3,4,3> o 0 o (8,8):(8,1)`)."""
    from mini_iree.compiler.layout.cute_swizzle import parse_any_cute

    return parse_any_cute(text)


def _plain_cute(text: str):
    from mini_iree.compiler.layout import cute

    if text.lstrip().startswith(("Sw<", "SW_")):
        raise ValueError(f"CuTe's layout algebra here takes plain shape:stride layouts, not the swizzled '{text}'")
    return cute.parse_cute(text)


def _cute_elements(layout, what: str) -> None:
    if layout.size() > CUTE_MAX_ELEMENTS:
        raise ValueError(f"{what} looks at every element: at most {CUTE_MAX_ELEMENTS}, this layout has {layout.size()}")


def _cute_coordinate(text: str, layout) -> tuple[int, ...] | int:
    """`IDX` for a CuTe layout: one integer per top-level mode, or one 1-D index."""
    values = _index_tuple(text, len(text.split(",")) if text.strip() else 0)
    modes = layout.modes()
    if len(values) == 1 and len(modes) > 1:
        if not 0 <= values[0] < layout.size():
            raise ValueError(f"index {values[0]} out of bounds (the layout has size {layout.size()})")
        return values[0]
    if len(values) != len(modes):
        raise ValueError(f"index '{text}' has {len(values)} components, the layout has {len(modes)} modes")
    for dim, (value, mode) in enumerate(zip(values, modes)):
        if not 0 <= value < mode.size():
            raise ValueError(f"index out of bounds in mode {dim} (size {mode.size()})")
    return tuple(values) if len(values) > 1 else values[0]


def _cute_equivalents(layout, element_type: str) -> list[str]:
    """`xla: ...` and `iree: ...` lines for a CuTe layout, or why there is none."""
    from mini_iree.compiler.layout import conversion as C

    lines = []
    try:
        lines.append(f"xla: {C.cute_to_xla(layout, _xla_element_type(element_type)).text}")
    except C.Refused as why:
        lines.append(f"xla: none ({why})")
    try:
        converted = C.cute_to_iree_converted(layout)
        lines.append(f"iree: encoding_info = {converted.text} on {L.format_shape(converted.shape)}x{element_type}")
    except C.Refused as why:
        lines.append(f"iree: none ({why})")
    return lines


def cute_subcommand(args: argparse.Namespace) -> None:
    """index / grid / size / canonical / explain / draw on a CuTe layout."""
    from mini_iree.compiler.layout import cute

    layout = _cute(args.subject)
    if args.encoding_info is not None or args.shape is not None:
        raise ValueError("a CuTe layout names its own shape: --encoding-info and --shape do not go with it")
    command = args.command
    if command == "index":
        if not args.indices:
            raise ValueError("give at least one index, e.g. 2,3")
        for text in args.indices:
            print(layout(_cute_coordinate(text, layout)))
    elif command == "grid":
        if len(layout) != 2:
            raise ValueError(f"grid needs a rank-2 layout, this one has rank {len(layout)}")
        _cute_elements(layout, "grid")
        if layout.size() > GRID_MAX_ELEMENTS:
            raise ValueError(f"grid prints at most {GRID_MAX_ELEMENTS} elements, this layout has {layout.size()}")
        grid = layout.coordinate_grid()
        width = max((len(str(int(v))) for v in grid.ravel()), default=1)
        for row in grid:
            print(" ".join(str(int(v)).rjust(width) for v in row))
    elif command == "size":
        entry = {"elements": layout.size(), "cosize": layout.cosize()}
        if args.json:
            print(json.dumps(entry))
        else:
            print(f"elements: {entry['elements']}")
            print(f"cosize: {entry['cosize']}")
    elif command == "canonical":
        print(layout)
    elif command == "explain":
        _cute_elements(layout, "explain")
        print(f"cute: {layout}")
        print(f"  {len(layout)} modes of sizes {', '.join(str(m.size()) for m in layout.modes())}: "
              f"size {layout.size()}, cosize {layout.cosize()}")  # fmt: skip
        if isinstance(layout, cute.Layout):
            print(f"  coalesced: {cute.coalesce(layout)}")
        else:
            print(f"  coalesced: {layout.swizzle} o {layout.offset} o {cute.coalesce(layout.layout)}")
        kind = "compact (one-to-one onto 0..size-1)" if cute.is_compact(layout) else (
            "one-to-one, with holes" if cute.is_injective(layout) else "not one-to-one (elements share offsets)")
        print(f"  {kind}")
        for line in _cute_equivalents(layout, args.element_type):
            print(line)
    elif command == "draw":
        from mini_iree.compiler.layout import drawing

        picture = drawing.cute_picture(layout, f"CuTe {layout}")
        if args.output.endswith(".svg"):
            write_output(args.output, drawing.to_svg(picture))
        elif args.output.endswith(".png"):
            drawing.save_png(picture, args.output)
        else:
            raise ValueError("-o must name a .svg or .png file")


CUTE_OPERATIONS = {
    # name: (arguments, function name in compiler/layout/cute.py)
    "coalesce": (1, "coalesce"),
    "filter": (1, "filter_layout"),
    "composition": (2, "composition"),
    "complement": (1, "complement"),
    "right-inverse": (1, "right_inverse"),
    "left-inverse": (1, "left_inverse"),
    "logical-divide": (2, "logical_divide"),
    "zipped-divide": (2, "zipped_divide"),
    "tiled-divide": (2, "tiled_divide"),
    "flat-divide": (2, "flat_divide"),
    "logical-product": (2, "logical_product"),
    "zipped-product": (2, "zipped_product"),
    "tiled-product": (2, "tiled_product"),
    "blocked-product": (2, "blocked_product"),
    "raked-product": (2, "raked_product"),
}


def cmd_cute(args: argparse.Namespace) -> None:
    from mini_iree.compiler.layout import cute

    arity, name = CUTE_OPERATIONS[args.operation]
    a = _plain_cute(args.a)
    if args.operation == "complement":
        cotarget = args.b if args.b is not None else "1"
        if not cotarget.isdigit():
            raise ValueError(f"complement takes a layout and a cotarget size, e.g. '4:2' 24; got '{cotarget}'")
        result = cute.complement(a, int(cotarget))
    elif arity == 1:
        if args.b is not None:
            raise ValueError(f"{args.operation} takes one layout")
        result = getattr(cute, name)(a)
    else:
        if args.b is None:
            raise ValueError(f"{args.operation} takes two layouts (the second may be a tiler '<3:4, 8:2>')")
        b = cute.parse_tiler(args.b) if args.b.lstrip().startswith("<") else _plain_cute(args.b)
        if args.operation in ("blocked-product", "raked-product") and isinstance(b, tuple):
            raise ValueError(f"{args.operation} takes a layout, not a tiler")
        result = getattr(cute, name)(a, b)
    print(result)


def _add_cute_parser(commands: argparse._SubParsersAction) -> None:
    help_text = "CuTe's layout algebra: composition, complement, inverses, divides, products, coalesce"
    sub = commands.add_parser("cute", help=help_text, description=help_text)
    sub.add_argument("operation", choices=list(CUTE_OPERATIONS))
    sub.add_argument("a", metavar="A", help="a CuTe layout such as '(4,8):(1,4)'")
    sub.add_argument("b", metavar="B", nargs="?", help="the second layout or tiler '<3:4, 8:2>' (complement: a size)")


def cmd_convert(args: argparse.Namespace) -> None:
    from mini_iree.compiler.layout import conversion as C

    try:
        if args.subject is not None and args.encoding_info is None and _is_cute(args.subject):
            if args.shape is not None:
                raise ValueError("a CuTe layout names its own shape: --shape does not go with it")
            layout = _cute(args.subject)
            _cute_elements(layout, "convert")
            if args.to == "xla":
                result = C.cute_to_xla(layout, _xla_element_type(args.element_type))
            elif args.to == "iree":
                result = C.cute_to_iree_converted(layout, allow_swizzle=not args.no_swizzle)
            else:
                result = C.Converted(str(layout), layout.size(), cute=layout, shape=layout.coordinate_grid().shape)
            shape_text = f"{L.format_shape(result.shape)}x{args.element_type}"
        else:
            subject = _subject(args)
            _check_fits_int64(subject)
            elements = subject.relayout.elements()
            if elements is not None and elements > CUTE_MAX_ELEMENTS:
                raise ValueError(
                    f"convert looks at every element: at most {CUTE_MAX_ELEMENTS}, this shape has {elements}"
                )
            if subject.xla is not None:
                if args.to == "cute":
                    result = C.xla_to_cute(subject.xla)
                elif args.to == "iree":
                    result = C.xla_to_iree(subject.xla, allow_swizzle=not args.no_swizzle)
                else:
                    result = C.Converted(str(subject.xla), elements or 0, xla=subject.xla)
                shape_text = f"{L.format_shape(subject.xla.dimensions)}x{subject.element_type}"
            else:
                assert subject.info is not None
                shape = subject.relayout.logical_shape
                if args.to == "cute":
                    result = C.iree_to_cute(subject.info, shape)
                elif args.to == "xla":
                    result = C.iree_to_xla(subject.info, shape, _xla_element_type(subject.element_type))
                else:
                    result = C.Converted(L.format_encoding_info(subject.info), elements or 0, info=subject.info)
                shape_text = args.shape
    except C.Refused as why:
        names = {"cute": "CuTe", "xla": "XLA", "iree": "IREE"}
        raise ValueError(f"no {names[args.to]} form: {why}") from None
    if args.to == "iree":
        print(f"encoding_info = {result.text}")
        print(f"shape: {shape_text.lower() if shape_text else shape_text}")
    else:
        print(result.text)
    for note in result.notes:
        print(f"note: {note}")
    print(f"checked: {result.elements_checked} elements at the same offset")


def _add_convert_parser(commands: argparse._SubParsersAction) -> None:
    help_text = "the same layout in CuTe, XLA or IREE form, checked on every element (or why there is none)"
    sub = commands.add_parser("convert", help=help_text, description=help_text)
    sub.add_argument("subject", nargs="?", help="an XLA shape or a CuTe layout")
    sub.add_argument("--to", required=True, choices=("cute", "xla", "iree"))
    sub.add_argument("--encoding-info", help="an IREE encoding_info dictionary instead of an XLA shape")
    sub.add_argument("--shape", help="the tensor type with --encoding-info, e.g. 10x7xf32")
    sub.add_argument("--element-type", default="f32", help="a CuTe layout's element type (default f32)")
    sub.add_argument("--no-swizzle", action="store_true", help="--to iree: refuse rather than use a GPU swizzle")


def _is_cute(text: str | None) -> bool:
    from mini_iree.compiler.layout.cute import looks_like_cute

    return text is not None and looks_like_cute(text)


COMMANDS = {
    "index": (cmd_index, "linear index of each IDX (comma-separated, '' for rank 0)"),
    "grid": (cmd_grid, "the linear index of every element of a rank-2 shape"),
    "size": (cmd_size, "elements, padded elements and bytes"),
    "canonical": (cmd_canonical, "the canonical text (and, for an encoding, its XLA equivalent)"),
    "explain": (cmd_explain, "the pad / reshape / transpose steps with their shapes"),
    "draw": (cmd_draw, "a picture: the logical grid labelled with linear indices"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mini-iree-layout", description="XLA tiled layouts, IREE encodings and CuTe layouts.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (_, help_text) in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("subject", nargs="?", help="an XLA shape such as 'f32[3,5]{1,0:T(2,2)}' or a CuTe layout")
        if name == "index":
            sub.add_argument("indices", nargs="*", metavar="IDX")
        sub.add_argument("--encoding-info", help="an IREE encoding_info dictionary instead of an XLA shape")
        sub.add_argument("--shape", help="the tensor type with --encoding-info, e.g. 10x7xf32")
        if name == "size":
            sub.add_argument("--xla", action="store_true", help="bytes as XLA's ShapeUtil::ArraySize")
            sub.add_argument("--json", action="store_true", help="print a JSON object")
        if name == "draw":
            sub.add_argument("-o", "--output", required=True, help="FILE.svg or FILE.png")
        if name == "explain":
            sub.add_argument("--element-type", default="f32", help="a CuTe layout's element type (default f32)")
    _add_resolve_parser(commands)
    _add_cute_parser(commands)
    _add_convert_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command in ("resolve", "cute", "convert"):
            {"resolve": cmd_resolve, "cute": cmd_cute, "convert": cmd_convert}[args.command](args)
            sys.stdout.flush()
            return 0
        if args.encoding_info is None and _is_cute(args.subject):
            cute_subcommand(args)
            sys.stdout.flush()
            return 0
        if args.command == "index" and args.encoding_info is not None and args.subject is not None:
            # With an encoding there is no XLA shape: every positional is an index.
            args.indices = [args.subject, *args.indices]
            args.subject = None
        subject = _subject(args)
        _check_fits_int64(subject)
        with np.errstate(all="raise"):
            COMMANDS[args.command][0](subject, args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. `| head`) has gone: not an error of ours.
        sys.stderr.close()
        return 0
    except (_UsageError, ValueError, OSError, OutputError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except (OverflowError, FloatingPointError) as err:
        print(f"error: the layout's offsets do not fit in 64-bit integers ({err})", file=sys.stderr)
        return 1
    except Exception as err:  # noqa: BLE001 - a crash still ends in one line
        if os.environ.get("MINI_IREE_TRACEBACK"):
            raise
        print(f"error: internal error: {type(err).__name__}: {err} (set MINI_IREE_TRACEBACK=1 for details)", file=sys.stderr)
        return 1
    return 0


INT64_MAX = 2**63 - 1


def _check_fits_int64(subject: Subject) -> None:
    """Offsets are computed in int64 (as XLA's are): a buffer past that is an error, not a wrap-around."""
    shapes = (subject.relayout.logical_shape, subject.relayout.physical_shape)
    if any(d is not None and d > INT64_MAX for shape in shapes for d in shape):
        raise ValueError("a dimension size does not fit in a 64-bit integer")
    padded = subject.relayout.padded_elements()
    if padded is not None and padded * max(subject.element_bits, 8) // 8 > INT64_MAX:
        raise ValueError(f"the layout needs {padded} elements, more than 64-bit offsets can address")


if __name__ == "__main__":
    sys.exit(main())
