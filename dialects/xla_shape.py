"""XLA array shapes with layouts, as HLO text spells them: parse, validate, print.

    f32[3,5]{1,0:T(2,2)}          bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}
    u32[]{:T(128)}                s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}

The grammar is the HLO parser's (`ParseShape` / `ParseLayout` in
xla/hlo/parser/hlo_parser.cc): after the minor_to_major list and a colon the
attributes come in a fixed order, each at most once,

    D(...) T(..)(..) L(n) #(type) *(type) E(n) S(n) SC(d:i,..)(..) P(shape) M(n)

and anything out of that order ends the layout early, which XLA reports as
"expects layout to end with kRbrace". Printing follows `Layout::Print`: the same
order, defaults (L(1), E(0), S(0), M(0)) omitted, `*` for a combined dimension.

Where we deliberately differ from XLA (see notes/xla-tiled-layout.md):
uppercase element types (`F32`, the document's typography) are accepted and
printed lowercase; layouts on which XLA aborts the process (`T(-1,2)`, `L(0)`)
are errors; `*` in the most-minor tile position is rejected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

COMBINE_DIMENSION = -(2**63)
"""`*` in a tile: XLA's `Tile::kCombineDimension` (INT64_MIN)."""

# Element type -> (bits, bytes per element when not packed with E(n)).
# Sub-byte types take a whole byte unless the layout says E(n).
ELEMENT_TYPES: dict[str, tuple[int, int]] = {
    "pred": (8, 1),
    "s2": (2, 1), "s4": (4, 1), "s8": (8, 1), "s16": (16, 2), "s32": (32, 4), "s64": (64, 8),
    "u2": (2, 1), "u4": (4, 1), "u8": (8, 1), "u16": (16, 2), "u32": (32, 4), "u64": (64, 8),
    "f16": (16, 2), "bf16": (16, 2), "f32": (32, 4), "f64": (64, 8),
    "c64": (64, 8), "c128": (128, 16),
    "f4e2m1fn": (4, 1), "f8e3m4": (8, 1), "f8e4m3": (8, 1), "f8e4m3b11fnuz": (8, 1), "f8e4m3fn": (8, 1),
    "f8e4m3fnuz": (8, 1), "f8e5m2": (8, 1), "f8e5m2fnuz": (8, 1), "f8e8m0fnu": (8, 1),
}  # fmt: skip


def xla_element_type(mlir_type: str) -> str | None:
    """The XLA name of an MLIR element type (`i32` -> `s32`, `i1` -> `pred`), None if XLA has none."""
    if mlir_type == "i1":
        return "pred"
    if mlir_type.startswith("ui"):
        name = "u" + mlir_type[2:]
    elif mlir_type.startswith("si"):
        name = "s" + mlir_type[2:]
    elif mlir_type.startswith("i"):
        name = "s" + mlir_type[1:]
    else:
        name = mlir_type
    return name if name in ELEMENT_TYPES else None


class XlaLayoutError(ValueError):
    """A shape or layout XLA would not accept; the message is XLA's where it has one."""


def _invalid(message: str) -> XlaLayoutError:
    # ShapeUtil::ValidateShape returns absl InvalidArgument statuses.
    return XlaLayoutError(f"INVALID_ARGUMENT: {message}")


@dataclass(frozen=True)
class XlaLayout:
    """XLA's `Layout` (the dense-array part; sparse `D(...)` is parsed and dropped
    as current XLA does)."""

    minor_to_major: tuple[int, ...]
    tiles: tuple[tuple[int, ...], ...] = ()
    tail_padding_alignment_in_elements: int = 1
    index_primitive_type: str | None = None
    pointer_primitive_type: str | None = None
    element_size_in_bits: int = 0
    memory_space: int = 0
    split_configs: tuple[tuple[int, tuple[int, ...]], ...] = ()
    dynamic_shape_metadata_prefix_bytes: int = 0

    def __str__(self) -> str:
        attrs = ""
        if self.tiles:
            attrs += "T" + "".join("(" + ",".join(_tile_dim(d) for d in tile) + ")" for tile in self.tiles)
        if self.tail_padding_alignment_in_elements != 1:
            attrs += f"L({self.tail_padding_alignment_in_elements})"
        if self.index_primitive_type is not None:
            attrs += f"#({self.index_primitive_type})"
        if self.pointer_primitive_type is not None:
            attrs += f"*({self.pointer_primitive_type})"
        if self.element_size_in_bits != 0:
            attrs += f"E({self.element_size_in_bits})"
        if self.memory_space != 0:
            attrs += f"S({self.memory_space})"
        if self.split_configs:
            attrs += "SC" + "".join(f"({dim}:{','.join(map(str, idx))})" for dim, idx in self.split_configs)
        if self.dynamic_shape_metadata_prefix_bytes != 0:
            attrs += f"M({self.dynamic_shape_metadata_prefix_bytes})"
        body = ",".join(map(str, self.minor_to_major))
        return "{" + body + (":" + attrs if attrs else "") + "}"


def _tile_dim(d: int) -> str:
    return "*" if d == COMBINE_DIMENSION else str(d)


@dataclass(frozen=True)
class XlaShape:
    """An array shape: element type, dimension sizes, optional layout.

    A bounded dynamic dimension (`<=3`) holds its bound in ``dimensions`` and is
    marked in ``dynamic_dimensions``, as in XLA's `Shape`: storage, and so every
    layout computation, is for the bound.
    """

    element_type: str
    dimensions: tuple[int, ...]
    layout: XlaLayout | None = field(default=None)
    dynamic_dimensions: tuple[bool, ...] = field(default=())

    def is_dynamic_dimension(self, dim: int) -> bool:
        return bool(self.dynamic_dimensions) and self.dynamic_dimensions[dim]

    @property
    def rank(self) -> int:
        return len(self.dimensions)

    def without_layout(self) -> str:
        dims = ",".join(("<=" if self.is_dynamic_dimension(i) else "") + str(d) for i, d in enumerate(self.dimensions))
        return f"{self.element_type}[{dims}]"

    def __str__(self) -> str:
        layout = "" if self.layout is None else str(self.layout)
        # ShapeUtil::HumanStringWithLayout: a scalar's empty layout prints as nothing.
        return self.without_layout() + ("" if not self.dimensions and layout == "{}" else layout)

    def with_default_layout(self) -> XlaShape:
        """The shape with its layout, `{n-1,...,0}` (row-major) when none was given."""
        if self.layout is not None:
            return self
        return replace(self, layout=XlaLayout(tuple(range(self.rank - 1, -1, -1))))

    @property
    def element_bits(self) -> int:
        """Bits per element in memory: E(n) when given, else the type's storage size."""
        if self.layout is not None and self.layout.element_size_in_bits > 0:
            return self.layout.element_size_in_bits
        return 8 * ELEMENT_TYPES[self.element_type][1]


# ===--------------------------------------------------------------------=== #
# Parsing
# ===--------------------------------------------------------------------=== #

_TOKEN = re.compile(r"\s*(?:(?P<int>-?\d+)|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct><=|\S))")


class _Lexer:
    """Tokens of a shape string: integers, words, single punctuation marks."""

    def __init__(self, text: str):
        self.tokens: list[tuple[str, str]] = []
        for match in _TOKEN.finditer(text):
            kind = match.lastgroup
            assert kind is not None
            self.tokens.append((kind, match.group(kind)))
        self.pos = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("eof", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.pos += 1
        return token

    def accept(self, text: str) -> bool:
        if self.peek()[1] == text:
            self.pos += 1
            return True
        return False

    def expect(self, text: str, message: str) -> None:
        if not self.accept(text):
            raise XlaLayoutError(message)

    def integer(self) -> int:
        kind, text = self.take()
        if kind != "int" or self.peek()[1] == ".":
            raise XlaLayoutError("expects integer")
        return int(text)


def parse_shape(text: str) -> XlaShape:
    """Parse `f32[3,5]{1,0:T(2,2)}` (layout optional) and validate it.

    Raises XlaLayoutError with XLA's message on any error.
    """
    shape = parse_shape_unvalidated(text)
    validate_shape(shape)
    return shape


def parse_shape_unvalidated(text: str) -> XlaShape:
    """Parse as XLA's text parser does, which leaves some checks to ValidateShape."""
    lexer = _Lexer(text)
    kind, type_name = lexer.take()
    if kind != "word" or type_name.lower() not in ELEMENT_TYPES:
        raise XlaLayoutError(f"expects a shape with an array element type, got '{type_name}'")
    lexer.expect("[", "expects '[' to start the dimension sizes")
    dims: list[int] = []
    dynamic: list[bool] = []
    if not lexer.accept("]"):
        while True:
            if lexer.peek()[1] == "?":
                # XLA's unbounded dynamic size: no bound, so no storage size to lay out.
                raise XlaLayoutError("unbounded dynamic dimensions are not supported ('?' has no bound; write '<=N')")
            if lexer.peek()[1] == "<":
                raise XlaLayoutError("expects '<=' before a dimension bound")
            bounded = lexer.accept("<=")
            size = lexer.integer()
            if size < 0:
                raise XlaLayoutError(f"invalid dimension size {size}")
            dims.append(size)
            dynamic.append(bounded)
            if lexer.accept("]"):
                break
            lexer.expect(",", "expects ',' or ']' in the dimension sizes")
    layout = None
    if lexer.peek()[1] == "{":
        layout = _parse_layout(lexer)
        if len(layout.minor_to_major) != len(dims):
            raise XlaLayoutError(
                f"Dimensions size is {len(dims)}, but minor to major size is {len(layout.minor_to_major)}."
            )
    if lexer.peek()[0] != "eof":
        raise XlaLayoutError(f"unexpected '{lexer.peek()[1]}' after the shape")
    return XlaShape(type_name.lower(), tuple(dims), layout, tuple(dynamic) if any(dynamic) else ())


def _parse_layout(lexer: _Lexer) -> XlaLayout:
    lexer.expect("{", "expects '{' to start a layout")
    minor_to_major: list[int] = []
    if lexer.peek()[0] == "int":
        minor_to_major.append(lexer.integer())
        while lexer.accept(","):
            minor_to_major.append(lexer.integer())
    fields: dict[str, object] = {}
    if lexer.accept(":"):
        # Each attribute is tried once, in XLA's order; a letter out of order is
        # left for the closing-brace check below, as in XLA's parser.
        if lexer.peek() == ("word", "D"):
            lexer.take()
            _skip_parenthesized(lexer)  # sparse dim-level types: parsed, dropped
        if lexer.peek() == ("word", "T"):
            fields["tiles"] = _parse_tiles(lexer)
        if lexer.peek()[1] == "L":
            lexer.take()
            value = _parenthesized_int(lexer)
            if value < 1:
                # XLA CHECK-fails (aborts) here; report what ValidateShape would say.
                raise _invalid(f"layout tail_padding_alignment_in_elements field is <= 0: {{{value}}}")
            fields["tail_padding_alignment_in_elements"] = value
        if lexer.peek()[1] == "#":
            lexer.take()
            fields["index_primitive_type"] = _parenthesized_word(lexer)
        if lexer.peek()[1] == "*":
            lexer.take()
            fields["pointer_primitive_type"] = _parenthesized_word(lexer)
        if lexer.peek()[1] == "E":
            lexer.take()
            fields["element_size_in_bits"] = _parenthesized_int(lexer)
        if lexer.peek()[1] == "S":
            lexer.take()
            fields["memory_space"] = _parenthesized_int(lexer)
        if lexer.peek()[1] == "SC":
            lexer.take()
            fields["split_configs"] = _parse_split_configs(lexer)
        if lexer.peek()[1] == "P":
            lexer.take()
            raise XlaLayoutError("Layout has physical shape, but is not for a sparse array")
        if lexer.peek()[1] == "M":
            lexer.take()
            fields["dynamic_shape_metadata_prefix_bytes"] = _parenthesized_int(lexer)
    lexer.expect("}", "expects layout to end with kRbrace")
    return XlaLayout(tuple(minor_to_major), **fields)  # type: ignore[arg-type]


def _parse_tiles(lexer: _Lexer) -> tuple[tuple[int, ...], ...]:
    lexer.take()  # `T`
    tiles: list[tuple[int, ...]] = []
    if lexer.peek()[1] != "(":
        return ((),)  # `T` with no tile: XLA records one empty tile, then rejects it
    while lexer.accept("("):
        dims: list[int] = []
        if not lexer.accept(")"):
            while True:
                if lexer.accept("*"):
                    dims.append(COMBINE_DIMENSION)
                else:
                    value = lexer.integer()
                    if value < 0:
                        # XLA LOG(FATAL)s here (layout_util.cc, MakeLayout).
                        raise XlaLayoutError(
                            f"Tile dimension size needs to be minimum int64_t value if it's negative. Value is {value}"
                        )
                    dims.append(value)
                if lexer.accept(")"):
                    break
                if not lexer.accept(","):
                    raise XlaLayoutError("expects a list to end with kRparen")
        tiles.append(tuple(dims))
    return tuple(tiles)


def _parse_split_configs(lexer: _Lexer) -> tuple[tuple[int, tuple[int, ...]], ...]:
    configs: list[tuple[int, tuple[int, ...]]] = []
    while lexer.accept("("):
        dim = lexer.integer()
        lexer.expect(":", "expects ':' in a split config")
        indices = [lexer.integer()]
        while lexer.accept(","):
            indices.append(lexer.integer())
        lexer.expect(")", "expects a list to end with kRparen")
        configs.append((dim, tuple(indices)))
    return tuple(configs)


def _parenthesized_int(lexer: _Lexer) -> int:
    lexer.expect("(", "expects '('")
    value = lexer.integer()
    lexer.expect(")", "expects ')'")
    return value


def _parenthesized_word(lexer: _Lexer) -> str:
    lexer.expect("(", "expects '('")
    kind, word = lexer.take()
    if kind != "word":
        raise XlaLayoutError("expects a primitive type")
    lexer.expect(")", "expects ')'")
    return word


def _skip_parenthesized(lexer: _Lexer) -> None:
    lexer.expect("(", "expects '('")
    depth = 1
    while depth:
        kind, text = lexer.take()
        if kind == "eof":
            raise XlaLayoutError("expects a list to end with kRparen")
        depth += {"(": 1, ")": -1}.get(text, 0)


# ===--------------------------------------------------------------------=== #
# Validation (ShapeUtil::ValidateShape -> LayoutUtil::ValidateLayoutForShape)
# ===--------------------------------------------------------------------=== #


def validate_shape(shape: XlaShape) -> None:
    """XLA's checks on a parsed shape, plus the layouts we reject on purpose."""
    layout = shape.layout
    if layout is None:
        return
    rank = shape.rank
    m2m = ", ".join(map(str, layout.minor_to_major))
    text = shape.without_layout()
    if len(layout.minor_to_major) != rank:
        raise _invalid(
            f"layout minor_to_major field contains {len(layout.minor_to_major)} elements, "
            f"but shape has {rank} dimensions: {{{m2m}}}; shape: {text}"
        )
    seen: set[int] = set()
    for dim in layout.minor_to_major:
        if not 0 <= dim < rank:
            raise _invalid(f"layout minor_to_major field has out-of-bounds value: {{{m2m}}}; shape: {text}")
        if dim in seen:
            raise _invalid(f"layout minor_to_major field has duplicate values: {{{m2m}}}; shape: {text}")
        seen.add(dim)
    if layout.index_primitive_type is not None:
        raise _invalid(f"layout has a index_primitive_type, but is not a sparse array: {text}")
    if layout.pointer_primitive_type is not None:
        raise _invalid(f"layout has a pointer_primitive_type, but is not a sparse array: {text}")
    for tile in layout.tiles:
        if not tile or any(d == 0 for d in tile):
            raise _invalid(f"layout has invalid tiles: {text}")
    if layout.element_size_in_bits < 0:
        raise _invalid(f"layout element_size_in_bits field is negative: {layout.element_size_in_bits}")
    for tile in layout.tiles:
        if tile[-1] == COMBINE_DIMENSION:
            # XLA accepts this and then computes nothing meaningful; we refuse it.
            raise XlaLayoutError(
                f"'*' in the most-minor tile position has no dimension to combine with: {shape}"
            )
    for dim, _ in layout.split_configs:
        if not 0 <= dim < rank:
            raise _invalid(f"split config dimension {dim} is out of bounds; shape: {text}")


def canonical(text: str) -> str:
    """The canonical (XLA-printed) form of a shape string, after validation."""
    return str(parse_shape(text))


def parse_layout(text: str) -> XlaLayout:
    """Parse a layout on its own, `{1,0:T(8,128)}` (not validated: no shape yet)."""
    lexer = _Lexer(text)
    layout = _parse_layout(lexer)
    if lexer.peek()[0] != "eof":
        raise XlaLayoutError(f"unexpected '{lexer.peek()[1]}' after the layout")
    return layout
