"""Print IR the way MLIR's AsmPrinter does, so output can be diffed against IREE's.

xDSL's printer is close to MLIR's but differs where readers notice:

* attribute aliases: MLIR hoists ``#map = affine_map<...>``, ``#encoding = ...``,
  ``#executable_target_... = ...`` to the top of the file; xDSL inlines everything;
* affine expressions: MLIR prints ``d0 * 16 + s0`` and ``d0 - 1``; xDSL prints
  ``((d0 * 16) + s0)`` and ``(d0 + -1)``;
* SSA names: MLIR numbers the values of a region before those of nested regions,
  (a name written in the input is kept, as xDSL does, so hand-written tests stay
  readable; values without one get MLIR's name or number),
  names constants ``%c0``/``%cst``, uniques clashing names with one shared counter
  (``%c1``, ``%dim``, ``%c1_0``, ``%dim_1``) and prints ``%0:2`` for a result group;
* op names: MLIR drops the ``func.`` of ops nested in a ``func.func`` and the
  ``builtin.`` of top-level ops (``return``, ``module``);
* locations (``--mlir-print-debuginfo``): MLIR gives every location an alias
  (``#loc``, ``#loc1``...), each part of a fused or call-site location one of its
  own; an op ends with ``loc(#locN)`` and the aliases of op locations are printed
  after the module (deferred), while a block argument's location is printed in
  full and its alias defined before the module. Aliases are numbered in the order
  of MLIR's alias walk, which visits an op's location before the op.

``MLIRPrinter`` fixes those five on top of xDSL's ``Printer``; everything else
(op syntax, attribute syntax) is each dialect's own business. Attributes opt into
an alias by defining ``asm_alias(self) -> str | None``, as IREE's dialects do
through ``OpAsmDialectInterface::getAlias``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from io import StringIO

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    Float64Type,
    FloatAttr,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    NameLoc,
    NoneAttr,
    UnknownLoc,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.printer import Printer

from mini_iree.compiler.ir.memo import ClassMemo
from mini_iree.compiler.ir.xdsl_internals import has_generated_printer


# ---------------------------------------------------------------------------
# Affine expressions with MLIR's binding strengths.
# ---------------------------------------------------------------------------

_SPELLING = {
    AffineBinaryOpKind.Mul: " * ",
    AffineBinaryOpKind.FloorDiv: " floordiv ",
    AffineBinaryOpKind.CeilDiv: " ceildiv ",
    AffineBinaryOpKind.Mod: " mod ",
}


def affine_expr_to_str(expr: AffineExpr, strong: bool = False) -> str:
    """MLIR's ``printAffineExprInternal``: parenthesize only where binding requires."""
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = expr.lhs, expr.rhs

    def wrap(text: str) -> str:
        return f"({text})" if strong else text

    if expr.kind != AffineBinaryOpKind.Add:
        if expr.kind == AffineBinaryOpKind.Mul and isinstance(rhs, AffineConstantExpr) and rhs.value == -1:
            return wrap("-" + affine_expr_to_str(lhs, True))
        return wrap(affine_expr_to_str(lhs, True) + _SPELLING[expr.kind] + affine_expr_to_str(rhs, True))

    # Additions of negated terms read as subtractions.
    if (
        isinstance(rhs, AffineBinaryOpExpr)
        and rhs.kind == AffineBinaryOpKind.Mul
        and isinstance(rhs.rhs, AffineConstantExpr)
    ):
        factor = rhs.rhs.value
        if factor == -1:
            nested_add = isinstance(rhs.lhs, AffineBinaryOpExpr) and rhs.lhs.kind == AffineBinaryOpKind.Add
            return wrap(affine_expr_to_str(lhs) + " - " + affine_expr_to_str(rhs.lhs, nested_add))
        if factor < -1:
            return wrap(affine_expr_to_str(lhs) + " - " + affine_expr_to_str(rhs.lhs, True) + f" * {-factor}")
    if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        return wrap(affine_expr_to_str(lhs) + f" - {-rhs.value}")
    return wrap(affine_expr_to_str(lhs) + " + " + affine_expr_to_str(rhs))


def affine_map_to_str(amap: AffineMap) -> str:
    """``(d0, d1)[s0] -> (d0 + s0, d1)`` as MLIR prints it."""
    dims = ", ".join(f"d{i}" for i in range(amap.num_dims))
    text = f"({dims})"
    if amap.num_symbols:
        text += "[" + ", ".join(f"s{i}" for i in range(amap.num_symbols)) + "]"
    return text + " -> (" + ", ".join(affine_expr_to_str(e) for e in amap.results) + ")"


# ---------------------------------------------------------------------------
# Aliases.
# ---------------------------------------------------------------------------


def _sanitize_alias(name: str) -> str:
    """MLIR's ``sanitizeIdentifier`` for alias names.

    IREE already turns ``-`` and ``.`` of target names into ``_`` when it builds
    alias names; doing it here too keeps every alias a plain identifier.
    """
    out = []
    for ch in name:
        if ch.isalnum() or ch in "$_":
            out.append(ch)
        elif ch in " -.":
            out.append("_")
        else:
            out.append(f"{ord(ch):X}")
    text = "".join(out)
    if text and text[0].isdigit():
        text = "_" + text
    return text


def alias_prefix(attr: Attribute) -> str | None:
    """The raw alias an attribute asks for, or None."""
    if isinstance(attr, AffineMapAttr):
        return "map"
    if isinstance(attr, LocationAttr):
        # Every location, `loc(unknown)` included, as MLIR's builtin dialect names them.
        return "loc"
    if isinstance(attr, AffineSetAttr):
        return "set"
    hook = getattr(attr, "asm_alias", None)
    if hook is None:
        return None
    return hook()


@dataclass
class AliasTable:
    """MLIR's ``AliasInitializer``: which attributes print as ``#name``.

    Aliases are ordered by nesting depth (an alias used inside another comes
    first), then types before attributes, then by name; equal names are numbered
    in the order they were met (``#map``, ``#map1``...). As in MLIR, "met" means
    in printing order: the table is filled while the module is printed, with a
    placeholder where each alias goes (see ``MLIRPrinter.print_module``).
    """

    names: dict[Attribute, str] = field(default_factory=dict)
    order: list[Attribute] = field(default_factory=list)


@dataclass
class _AliasCollector:
    """State of the print that discovers aliases."""

    seen: list[Attribute] = field(default_factory=list)
    # The text of each alias's definition (with placeholders for the aliases in it).
    bodies: list[str] = field(default_factory=list)
    placeholder: dict[Attribute, str] = field(default_factory=dict)
    # Attributes met so far by identity, mapped to the first equal attribute met:
    # most are met many times as the same object, and hashing a large attribute
    # is not cheap. Passes build equal attributes (types above all) afresh for
    # each op; all of them share what is known of the first one.
    met: dict[int, Attribute] = field(default_factory=dict)
    # The first of each set of equal attributes met, as itself.
    canonical: dict[Attribute, Attribute] = field(default_factory=dict)
    # Every other attribute whose id is a key of ``met``, kept alive so that no
    # other object takes its id while the module is printed.
    alive: list[Attribute] = field(default_factory=list)
    prefix: dict[Attribute, str] = field(default_factory=dict)
    depth: dict[Attribute, int] = field(default_factory=dict)
    # For each attribute already visited: 0 if no alias is printed inside it or
    # as it, else one more than the depth of the deepest alias level below it.
    nesting: dict[Attribute, int] = field(default_factory=dict)
    stack: list[int] = field(default_factory=lambda: [0])
    # By the id of an attribute of ``canonical``: its nesting, its placeholder
    # (None without an alias) and, once printed again, its text (plain and
    # stripped). Equal attributes print the same text (xDSL's equality compares
    # every parameter, float bits included), and looking it up by identity
    # spares hashing it.
    known: dict[int, list] = field(default_factory=dict)
    # Numbers of the location aliases, and of those a block argument's location
    # uses. MLIR defers the others (op locations) to after the module.
    locations: set[int] = field(default_factory=set)
    non_deferred: set[int] = field(default_factory=set)

    def deferred(self, attr: Attribute) -> bool:
        number = int(self.placeholder[attr][1:-1])
        return number in self.locations and number not in self.non_deferred

    def table(self) -> AliasTable:
        index = {a: i for i, a in enumerate(self.seen)}
        ordered = sorted(
            self.seen,
            key=lambda a: (self.depth[a], not isinstance(a, TypeAttribute), self.prefix[a], index[a]),
        )
        counts: dict[str, int] = {}
        table = AliasTable()
        for attr in ordered:
            name = self.prefix[attr]
            n = counts.get(name, 0)
            counts[name] = n + 1
            # A name ending in a digit keeps it; an `_` separates the counter
            # (`#executable_target_x86_64`, `#executable_target_x86_64_1`).
            sep = "_" if name[-1:].isdigit() else ""
            table.names[attr] = name + (f"{sep}{n}" if n else "")
            table.order.append(attr)
        return table


# Stands for alias number N in the text until the names are known. NUL never
# appears in printed IR (string attributes print it escaped).
_PLACEHOLDER = re.compile("\x00([0-9]+)\x01")


# ---------------------------------------------------------------------------
# SSA value names.
# ---------------------------------------------------------------------------


def _constant_name(op: Operation) -> list[str | None]:
    """``%c0`` (index), ``%c32_i64``, ``%true``/``%false``, else ``%cst``."""
    value = op.properties.get("value", op.attributes.get("value"))
    if isinstance(value, IntegerAttr):
        v = value.value.data
        if isinstance(value.type, IndexType):
            return [f"c{v}"]
        if isinstance(value.type, IntegerType):
            if value.type.width.data == 1:
                return ["true" if v else "false"]
            return [f"c{v}_i{value.type.width.data}"]
    return ["cst"]


# Names MLIR's upstream ops give their results through OpAsmOpInterface, for the
# ops we take from xDSL as they are (our own ops define `asm_result_names`). Used
# for values that carry no name of their own, typically values created by passes.
_UPSTREAM_RESULT_NAMES: dict[str, Callable[[Operation], list[str | None]]] = {
    "arith.constant": _constant_name,
    "tensor.dim": lambda op: ["dim"],
    "tensor.cast": lambda op: ["cast"],
    "tensor.extract_slice": lambda op: ["extracted_slice"],
    "tensor.insert_slice": lambda op: ["inserted_slice"],
    "tensor.extract": lambda op: ["extracted"],
    "tensor.pad": lambda op: ["padded"],
    "tensor.splat": lambda op: ["splat"],
    "memref.alloc": lambda op: ["alloc"],
    "memref.dim": lambda op: ["dim"],
    "memref.subview": lambda op: ["subview"],
}


def default_result_names(op: Operation) -> list[str | None]:
    """Result names MLIR would choose for ``op``, or [] for plain numbering."""
    hook = getattr(op, "asm_result_names", None)
    if hook is not None:
        return list(hook())
    fn = _UPSTREAM_RESULT_NAMES.get(op.name)
    return fn(op) if fn is not None else []


def _block_arg_names(op: Operation, region: Region) -> list[str | None]:
    """linalg's structured ops name their body arguments ``%in``, then ``%out`` (generic) or
    ``%init`` (reduce, map), as their ``getAsmBlockArgumentNames`` do."""
    if op.name not in ("linalg.generic", "linalg.reduce", "linalg.map"):
        return []
    try:
        n_out = len(op.outputs)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - an op printed in a diagnostic may be invalid (segment sizes dropped)
        n_out = 1
    block = region.blocks.first
    if block is None:
        return []
    n = len(block.args)
    out = "out" if op.name == "linalg.generic" else "init"
    return ["in"] * (n - n_out) + [out] * n_out


class _Scope:
    """A region's used-name set, chained to the enclosing region's."""

    def __init__(self, parent: _Scope | None):
        self.parent = parent
        self.names: set[str] = set()

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


def _sanitize_value_name(name: str) -> str:
    out = "".join(ch if (ch.isalnum() or ch in "$._-") else "_" for ch in name)
    if out and out[0].isdigit():
        out = "_" + out
    return out


@dataclass
class _NameState:
    """MLIR's ``SSANameState``: names every value under one op before printing."""

    names: dict[SSAValue, str] = field(default_factory=dict)
    groups: dict[Operation, tuple[str, int]] = field(default_factory=dict)
    next_value: int = 0
    next_arg: int = 0
    next_conflict: int = 0
    scope: _Scope = field(default_factory=lambda: _Scope(None))
    generic: bool = False
    """Generic form: no op names its results or block arguments (MLIR asks no OpAsmOpInterface)."""

    def unique(self, name: str) -> str:
        name = _sanitize_value_name(name)
        if name in self.scope:
            while True:
                probe = f"{name}_{self.next_conflict}"
                self.next_conflict += 1
                if probe not in self.scope:
                    name = probe
                    break
        self.scope.names.add(name)
        return name

    def number(self) -> str:
        self.next_value += 1
        return str(self.next_value - 1)

    def name_op(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        # Names come from the op (MLIR's OpAsmOpInterface), never from the value's
        # xDSL name hint: MLIR keeps no names of its own, so a hint (the source's
        # `%sum`, or one xDSL hands on when a pass replaces a value) would print a
        # name the same text does not print again once parsed.
        defaults = [] if self.generic else default_result_names(op)
        chosen = [defaults[i] if i < len(defaults) else None for i in range(len(results))]
        if len(results) > 1 and all(c == chosen[0] for c in chosen):
            base = self.unique(chosen[0]) if chosen[0] else self.number()
            self.groups[op] = (base, len(results))
            for i, r in enumerate(results):
                self.names[r] = f"{base}#{i}"
            return
        for r, c in zip(results, chosen):
            self.names[r] = self.unique(c) if c else self.number()

    def name_region(self, parent: Operation, region: Region) -> None:
        arg_names = [] if self.generic else _block_arg_names(parent, region)
        for block in region.blocks:
            is_entry = block is region.blocks.first
            for i, arg in enumerate(block.args):
                if is_entry and i < len(arg_names) and arg_names[i]:
                    self.names[arg] = self.unique(arg_names[i])  # type: ignore[arg-type]
                elif is_entry:
                    self.names[arg] = self.unique(f"arg{self.next_arg}")
                    self.next_arg += 1
                else:
                    self.names[arg] = self.number()
            for op in block.ops:
                self.name_op(op)

    def name_all(self, root: Operation) -> None:
        # Values of a region are numbered before those of regions nested in it;
        # each nested region starts from the counters its parent region ended with.
        stack: list[tuple[Operation, Region, int, int, int, _Scope]] = [
            (root, r, 0, 0, 0, self.scope) for r in root.regions
        ]
        stack.reverse()
        while stack:
            parent, region, self.next_value, self.next_arg, self.next_conflict, outer = stack.pop()
            self.scope = _Scope(outer)
            self.name_region(parent, region)
            nested = [
                (op, r, self.next_value, self.next_arg, self.next_conflict, self.scope)
                for block in region.blocks
                for op in block.ops
                for r in op.regions
            ]
            stack.extend(reversed(nested))


# Ops whose regions print (and parse, see parsing.py) unqualified names of one
# dialect (MLIR's OpAsmOpInterface::getDefaultDialect).
DEFAULT_DIALECTS = {"builtin.module": "builtin", "func.func": "func"}


@dataclass(eq=False, repr=False)
class MLIRPrinter(Printer):
    """xDSL's printer with MLIR's aliases, affine syntax, SSA names and op names."""

    local_scope: bool = field(default=False)
    """Print every attribute inline (``--mlir-print-local-scope``)."""

    fast_formats: bool = field(default=True)
    """Print ops of a declarative format through ``format_printer`` (the same
    text as xDSL's directives, faster); False calls each op's own ``print``."""

    _aliases: AliasTable = field(default_factory=AliasTable, init=False)
    _collector: _AliasCollector | None = field(default=None, init=False)
    _name_state: _NameState | None = field(default=None, init=False)
    _dialect_stack: list[str] = field(default_factory=lambda: ["builtin"], init=False)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        # Most pieces hold no newline: write them without xDSL's line bookkeeping
        # (and its `print` call), which only newlines need.
        if "\n" not in text:
            self._current_column += len(text)
            self.stream.write(text)  # type: ignore[union-attr]
            return
        super().print_string(text, indent=indent)

    # -- entry point -------------------------------------------------------

    def print_module(self, module: Operation) -> None:
        """Print alias definitions, then the op, then a final newline.

        Which attributes get an alias, and their names, depend on the whole
        module (MLIR's ``AliasInitializer`` walks it before printing). Instead of
        printing twice, the op is printed once with a placeholder wherever an
        alias goes, the text of each alias's definition is kept aside when it is
        first met, and the names are filled in at the end.
        """
        if self.local_scope:
            self.print_op(module)
            self.print_string("\n")
            return
        out = self.stream
        self.stream = StringIO()
        self._collector = collector = _AliasCollector()
        try:
            self.print_op(module)
            body = self.stream.getvalue()
        finally:
            self._collector = None
            self.stream = out
        self._aliases = table = collector.table()
        index = {id(a): i for i, a in enumerate(collector.seen)}
        spelled = [
            ("!" if isinstance(a, TypeAttribute) else "#") + table.names[a] for a in collector.seen
        ]

        def fill(text: str) -> str:
            return _PLACEHOLDER.sub(lambda m: spelled[int(m.group(1))], text) if "\x00" in text else text

        # As MLIR's printTopLevelOperation: the aliases that cannot be deferred, the
        # module, then the deferred ones (op locations), each in alias order.
        deferred = [a for a in table.order if collector.deferred(a)]
        for attr in table.order:
            if not collector.deferred(attr):
                self.print_string(f"{spelled[index[id(attr)]]} = {fill(collector.bodies[index[id(attr)]])}\n")
        self.print_string(fill(body))
        self.print_string("\n")
        for attr in deferred:
            self.print_string(f"{spelled[index[id(attr)]]} = {fill(collector.bodies[index[id(attr)]])}\n")

    # -- attributes --------------------------------------------------------

    def _collect(self, attribute: Attribute, stripped: bool = False) -> None:
        """Print ``attribute`` (or its parameters) while collecting aliases.

        An aliased attribute prints as its placeholder; the first time it is met
        its definition is printed aside. The nesting depth of each alias is
        tracked as in MLIR: every attribute level between two aliases counts.
        """
        c = self._collector
        assert c is not None
        known = c.met.get(id(attribute))
        if known is None:
            known = c.canonical.get(attribute)
            if known is not None:
                c.met[id(attribute)] = known
                c.alive.append(attribute)
        if known is not None:
            info = c.known.get(id(known))
            if info is None:
                info = c.known[id(known)] = [c.nesting[known], c.placeholder.get(known), None, None]
            c.stack[-1] = max(c.stack[-1], info[0])
            if info[1] is not None:
                self.print_string(info[1])
                return
            # Printed again, already accounted for.
            slot = 3 if stripped else 2
            text = info[slot]
            if text is None:
                text = self._print_aside(known, stripped)
                if "\n" in text:
                    # Indentation is applied as lines are printed: no copy then.
                    c.stack.append(0)
                    self._print_collected(known, stripped)
                    c.stack.pop()
                    return
                info[slot] = text
            self.print_string(text)
            return
        c.met[id(attribute)] = attribute
        name = alias_prefix(attribute)
        c.stack.append(0)
        if name:
            number = len(c.seen)
            if isinstance(attribute, LocationAttr):
                c.locations.add(number)
            c.seen.append(attribute)
            c.prefix[attribute] = _sanitize_alias(name)
            c.placeholder[attribute] = placeholder = f"\x00{number}\x01"
            c.bodies.append("")
            stream = self.stream
            self.stream = aside = StringIO()
            try:
                self._print_attribute_inline(attribute)
            finally:
                self.stream = stream
            c.bodies[number] = aside.getvalue()
            self.print_string(placeholder)
        else:
            self._print_collected(attribute, stripped)
        inner = c.stack.pop()
        if name:
            c.depth[attribute] = inner
        c.nesting[attribute] = inner + 1 if (name or inner) else 0
        c.canonical[attribute] = attribute
        c.stack[-1] = max(c.stack[-1], c.nesting[attribute])

    def _print_aside(self, attribute: Attribute, stripped: bool) -> str:
        """The text of an attribute printed again, without printing it."""
        c = self._collector
        assert c is not None
        stream, line, column = self.stream, self._current_line, self._current_column
        self.stream = aside = StringIO()
        c.stack.append(0)
        try:
            self._print_collected(attribute, stripped)
        finally:
            c.stack.pop()
            self.stream, self._current_line, self._current_column = stream, line, column
        return aside.getvalue()

    def _print_collected(self, attribute: Attribute, stripped: bool) -> None:
        if stripped:
            attribute.print_parameters(self)  # type: ignore[attr-defined]
        else:
            self._print_attribute_inline(attribute)

    def alias_of(self, attr: Attribute) -> str | None:
        name = self._aliases.names.get(attr)
        if name is None:
            return None
        return ("!" if isinstance(attr, TypeAttribute) else "#") + name

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, LocationAttr):
            # Only an argument's location is printed as an attribute (xDSL's function
            # printers); op locations and the parts of a location have their own paths.
            self.print_argument_location(attribute)
            return
        if self._collector is not None:
            self._collect(attribute)
            return
        if (alias := self.alias_of(attribute)) is not None:
            self.print_string(alias)
            return
        self._print_attribute_inline(attribute)

    def _print_attribute_inline(self, attribute: Attribute) -> None:
        if isinstance(attribute, LocationAttr):
            self.print_string("loc(")
            self._print_location_body(attribute)
            self.print_string(")")
            return
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        if isinstance(attribute, AffineMapAttr):
            self.print_string(f"affine_map<{affine_map_to_str(attribute.data)}>")
            return
        if isinstance(attribute, AffineSetAttr):
            self.print_string(f"affine_set<{attribute.data}>")
            return
        super().print_attribute(attribute)

    def _print_array_element(self, attribute: Attribute) -> None:
        # Inside arrays MLIR leaves out the default types: `[4]` is `[4 : i64]`,
        # `[1.5]` is `[1.5 : f64]`. Elsewhere (dictionaries, properties) it keeps them.
        if isinstance(attribute, IntegerAttr) and attribute.type == i64:
            self.print_int(attribute.value.data, attribute.type)
        elif isinstance(attribute, FloatAttr) and isinstance(attribute.type, Float64Type):
            self.print_float(attribute.value.data, attribute.type)
        else:
            self.print_attribute(attribute)

    # -- locations ---------------------------------------------------------

    def _print_location_body(self, loc: Attribute) -> None:
        """A location without its ``loc(...)``, as MLIR's ``printLocationInternal``."""
        if isinstance(loc, FileLineColLoc):
            self.print_string_literal(loc.filename.data)
            self.print_string(f":{loc.line.data}:{loc.column.data}")
        elif isinstance(loc, UnknownLoc):
            self.print_string("unknown")
        elif isinstance(loc, NameLoc):
            self.print_string_literal(loc.desc.data)
            if not isinstance(loc.location, NoneAttr | UnknownLoc):
                self.print_string("(")
                self._print_nested_location(loc.location)
                self.print_string(")")
        elif isinstance(loc, CallSiteLoc):
            self.print_string("callsite(")
            self._print_nested_location(loc.callee)
            self.print_string(" at ")
            self._print_nested_location(loc.caller)
            self.print_string(")")
        elif isinstance(loc, FusedLoc):
            self.print_string("fused")
            if not isinstance(loc.metadata, NoneAttr):
                self.print_string("<")
                self.print_attribute(loc.metadata)
                self.print_string(">")
            self.print_string("[")
            for i, inner in enumerate(loc.locations.data):
                if i:
                    self.print_string(", ")
                self._print_nested_location(inner)
            self.print_string("]")
        else:
            super().print_attribute(loc)

    def _print_nested_location(self, loc: Attribute) -> None:
        """A location inside another: its alias when aliases are collected, else its body."""
        if self._collector is not None:
            self._collect(loc)
        else:
            self._print_location_body(loc)

    def _collect_aside(self, attribute: Attribute) -> str:
        """What ``_collect`` prints for ``attribute`` (its alias's placeholder), without printing it."""
        stream, line, column = self.stream, self._current_line, self._current_column
        self.stream = aside = StringIO()
        try:
            self._collect(attribute)
        finally:
            self.stream, self._current_line, self._current_column = stream, line, column
        return aside.getvalue()

    def _mark_non_deferred(self, loc: Attribute) -> None:
        """A block argument's location, and every location in it, is defined before the module."""
        c = self._collector
        assert c is not None
        canonical = c.met.get(id(loc)) or c.canonical.get(loc)
        placeholder = c.placeholder.get(canonical) if canonical is not None else None
        if placeholder is not None:
            c.non_deferred.add(int(placeholder[1:-1]))
        if isinstance(loc, FusedLoc):
            for inner in loc.locations.data:
                self._mark_non_deferred(inner)
        elif isinstance(loc, CallSiteLoc):
            self._mark_non_deferred(loc.callee)
            self._mark_non_deferred(loc.caller)
        elif isinstance(loc, NameLoc) and isinstance(loc.location, LocationAttr):
            self._mark_non_deferred(loc.location)

    def _op_location_text(self, op: Operation) -> str:
        """The ``loc(...)`` printed after ``op``. Its alias is taken before the op
        is printed, as MLIR's alias walk visits an op's location before the op."""
        if self._collector is None:
            stream, line, column = self.stream, self._current_line, self._current_column
            self.stream = aside = StringIO()
            try:
                self._print_attribute_inline(op.location)
            finally:
                self.stream, self._current_line, self._current_column = stream, line, column
            return aside.getvalue()
        return f"loc({self._collect_aside(op.location)})"

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        # MLIR prints an argument's location in full (nested locations by alias) and
        # still defines an alias for it, before the module.
        self.print_ssa_value(arg)
        if not print_type:
            return
        self.print_string(": ")
        self.print_attribute(arg.type)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_argument_location(arg.location)

    def print_argument_location(self, loc: Attribute) -> None:
        """A block argument's ``loc(...)`` (custom function printers call it after the argument's attributes)."""
        if self._collector is not None:
            self._collect_aside(loc)
            self._mark_non_deferred(loc)
        self._print_attribute_inline(loc)

    def print_operation_type(self, op: Operation) -> None:
        # The location is printed by print_op, after the op whatever its form.
        self.print_function_type(op.operand_types, op.result_types)

    def print_stripped_attribute(self, attribute: ParametrizedAttribute) -> None:
        """MLIR's ``printStrippedAttrOrType``: ``<params>`` without the dialect
        prefix, unless the attribute has an alias (then ``#alias``)."""
        if self._collector is not None:
            self._collect(attribute, stripped=True)
            return
        if (alias := self.alias_of(attribute)) is not None:
            self.print_string(alias)
            return
        attribute.print_parameters(self)

    def print_attr_dict(self, attr_dict) -> None:
        # MLIR dictionaries (op attributes, properties, DictionaryAttr) are
        # sorted by name; xDSL keeps insertion order.
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    # -- SSA names ---------------------------------------------------------

    def _names_for(self, op: Operation) -> _NameState:
        if self._name_state is None:
            self._name_state = _NameState(generic=self.print_generic_format)
            self._name_state.name_all(op)
        return self._name_state

    def print_ssa_value(self, value: SSAValue) -> str:
        state = self._name_state
        if state is not None and (name := state.names.get(value)) is not None:
            self.print_string(f"%{name}")
            return name
        return super().print_ssa_value(value)

    def _print_results(self, op: Operation) -> None:
        state = self._name_state
        if state is not None and op in state.groups:
            base, count = state.groups[op]
            self.print_string(f"%{base}:{count} = ")
            return
        super()._print_results(op)

    # -- ops ---------------------------------------------------------------

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        # An op that prints its entry block's arguments itself (`(%x: f32, %y: f32) {`)
        # passes them to parse_region, which refuses a block label after them; xDSL
        # printed `^bb0(...)` for an empty body anyway. MLIR's custom printers leave
        # out the label of an empty block (printEmptyBlock is false by default).
        entry = region.blocks.first
        if not print_entry_block_args and entry is not None and entry.args:
            print_empty_block = False
        super().print_region(region, print_entry_block_args, print_empty_block, print_block_terminators)

    def print_op(self, op: Operation) -> None:
        if not self.print_debuginfo:
            self._print_op(op)
            return
        location = self._op_location_text(op)
        self._print_op(op)
        self.print_string(" ")
        self.print_string(location)

    def _print_op(self, op: Operation) -> None:
        self._names_for(op)
        if self.print_generic_format or Operation.print is type(op).print:
            self._dialect_stack.append("")
            try:
                super().print_op(op)
            finally:
                self._dialect_stack.pop()
            return
        self._print_results(op)
        name = op.name
        default = self._dialect_stack[-1]
        if default and name.startswith(default + ".") and name.count(".") == 1:
            name = name[len(default) + 1 :]
        self.print_string(name)
        begin = self._current_column
        if op in self.diagnostic.op_messages:
            for message in self.diagnostic.op_messages[op]:
                self._add_message_on_next_line(message, begin - len(name), begin)
        self._dialect_stack.append(DEFAULT_DIALECTS.get(op.name, ""))
        try:
            fast = format_printer_of(type(op)) if self.fast_formats else None
            if fast is not None:
                fast.print(self, op)
            else:
                op.print(self)
        finally:
            self._dialect_stack.pop()


def print_module_to_string(module: Operation, *, generic: bool = False, local_scope: bool = False) -> str:
    """The text ``mini-iree-opt`` writes for ``module``."""
    from io import StringIO

    stream = StringIO()
    printer = MLIRPrinter(stream=stream, print_generic_format=generic, local_scope=local_scope)
    printer.print_module(module)
    return stream.getvalue()


def _build_fast_printer(cls: type[Operation]):
    """``format_printer.build_format_printer(cls)``, importing xDSL's declarative-format
    machinery only when an op has a format.

    A class defined with an ``assembly_format`` has imported that machinery
    already; printing a module of other ops (an empty module) never needs it,
    which keeps it off mini-iree-opt's start-up.
    """
    if not has_generated_printer(cls):
        return None
    from mini_iree.compiler.ir.format_printer import build_format_printer

    return build_format_printer(cls)


# Op class -> its declarative-format printer, or None where the op's own
# ``print`` prints it.
_FORMAT_PRINTERS: ClassMemo = ClassMemo("format printers")


def format_printer_of(cls: type[Operation]):
    """The fast printer of ``cls``'s declarative format, or None to call ``op.print``."""
    return _FORMAT_PRINTERS.lookup(cls, _build_fast_printer)


__all__ = [
    "AliasTable",
    "MLIRPrinter",
    "affine_expr_to_str",
    "affine_map_to_str",
    "default_result_names",
    "print_module_to_string",
]
