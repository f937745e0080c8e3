"""xDSL-only helpers the dialects need to define, print and verify their ops.

The dialects are the bottom layer: they import xDSL and each other, nothing of
``mini_iree.compiler``. What an op needs to define itself lives here or in its
dialect, and the compiler's own modules import it from here (one copy):

* ``operand_groups``: an op's operands split by its definition's groups, read
  once (``compiler/ir/format_printer`` prints declarative formats with it);
* ``canonical``: one object standing for all equal attributes, for the
  verification caches of ops and of the compiler's verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, AttrSizedResultSegments, IRDLOperation, OptionalDef, VariadicDef

T = TypeVar("T")

# ---------------------------------------------------------------------------
# Operand groups
# ---------------------------------------------------------------------------


class GroupLayout:
    """How an op class's operands (or results) split into the groups of its definition."""

    def __init__(
        self,
        defs: Sequence[tuple[str, object]],
        segments: AttrSizedOperandSegments | AttrSizedResultSegments | None,
    ):
        self.names = [name for name, _ in defs]
        self.variadic = [isinstance(d, VariadicDef) for _, d in defs]
        self.optional = [isinstance(d, OptionalDef) for _, d in defs]
        self.segments = segments
        self.fixed = len(defs) - sum(self.variadic)

    def understood(self) -> bool:
        return self.segments is not None or sum(self.variadic) <= 1

    def groups(self, op: Operation, values: Sequence[SSAValue]) -> list[Sequence[SSAValue]] | None:
        """The groups, or None if the op's sizes do not fit its definition."""
        if self.segments is not None:
            container = op.properties if self.segments.as_property else op.attributes
            attr = container.get(self.segments.attribute_name)
            sizes = _segment_sizes(attr)
            if sizes is None:
                return None
            if len(sizes) != len(self.variadic) or sum(sizes) != len(values):
                return None
            for size, variadic, optional in zip(sizes, self.variadic, self.optional):
                if size < 0 or (not variadic and size != 1) or (optional and size > 1):
                    return None
        else:
            extra = len(values) - self.fixed
            if extra < 0 or (extra and not any(self.variadic)):
                return None
            sizes = [extra if variadic else 1 for variadic in self.variadic]
            if any(o and s > 1 for o, s in zip(self.optional, sizes)):
                return None
        groups: list[Sequence[SSAValue]] = []
        start = 0
        for size in sizes:
            groups.append(values[start : start + size])
            start += size
        return groups

    def accessor_groups(self, op: Operation) -> list[Sequence[SSAValue]]:
        """The groups as the op's accessors give them, one at a time."""
        groups: list[Sequence[SSAValue]] = []
        for name, variadic, optional in zip(self.names, self.variadic, self.optional):
            value = getattr(op, name)
            if variadic and not optional:
                groups.append(tuple(value))
            else:
                groups.append(() if value is None else (value,))
        return groups


# The values of each segment-sizes attribute met, decoded once rather than once
# per op (attributes are immutable; ops share a few). Keyed by identity, which
# spares hashing the attribute; the entry keeps the attribute alive, so that no
# other object takes its id meanwhile.
_SIZES: dict[int, tuple[object, tuple[int, ...] | None]] = {}
_SIZES_LIMIT = 4096


def _segment_sizes(attr: object) -> tuple[int, ...] | None:
    known = _SIZES.get(id(attr))
    if known is not None and known[0] is attr:
        return known[1]
    get_values = getattr(attr, "get_values", None)
    sizes = tuple(get_values()) if get_values is not None else None
    if len(_SIZES) >= _SIZES_LIMIT:
        _SIZES.clear()
    _SIZES[id(attr)] = (attr, sizes)
    return sizes


def operand_layout(cls: type[Operation]) -> GroupLayout | None:
    """How ``cls``'s operands split into groups; None where not understood."""
    try:
        return _OPERAND_LAYOUTS[cls]
    except KeyError:
        pass
    layout = None
    if issubclass(cls, IRDLOperation):
        op_def = cls.get_irdl_definition()
        segments = next((o for o in op_def.options if isinstance(o, AttrSizedOperandSegments)), None)
        layout = GroupLayout(op_def.operands, segments)
        if not layout.understood():
            layout = None
    _OPERAND_LAYOUTS[cls] = layout
    return layout


def result_layout(cls: type[IRDLOperation]) -> GroupLayout | None:
    """How ``cls``'s results split into groups; None where not understood."""
    op_def = cls.get_irdl_definition()
    segments = next((o for o in op_def.options if isinstance(o, AttrSizedResultSegments)), None)
    layout = GroupLayout(op_def.results, segments)
    return layout if layout.understood() else None


# By op class: how its operands split into groups, or None where not understood
# (classes do not change once defined).
_OPERAND_LAYOUTS: dict[type[Operation], GroupLayout | None] = {}


def operand_groups(op: IRDLOperation) -> list[Sequence[SSAValue]]:
    """``op``'s operands split by its definition's operand groups, as its
    accessors (``op.inputs``, ``op.outputs``...) give them, read at once: each
    accessor decodes ``operandSegmentSizes`` again. A single operand is a group
    of one, an optional one a group of none or one.

    Where the definition or the op's sizes are not understood the accessors
    are asked, one group at a time (they raise as they would).
    """
    layout = operand_layout(type(op))
    if layout is None:
        op_def = op.get_irdl_definition()
        return GroupLayout(op_def.operands, None).accessor_groups(op)
    groups = layout.groups(op, op.operands)
    return groups if groups is not None else layout.accessor_groups(op)


# ---------------------------------------------------------------------------
# Canonical objects
# ---------------------------------------------------------------------------
#
# Attributes and types are immutable and verifiers read only their values, so
# what held for one object holds for every equal one. Passes build new type
# objects all the time (each ``tensor<?x?xf32>`` a rewrite creates is a new
# object): a cache keyed by ``id()`` misses where one keyed by value would hit,
# but hashing a type by value walks all its parameters on every lookup.
# ``canonical`` hashes each object once and answers the first equal object seen;
# a cache keyed by the ids of canonical objects must keep those objects alive
# (so that no other object takes one of their ids while the key is remembered).

# id(object) -> (object, its canonical object); the object is kept alive with
# the answer, so its id cannot be reused meanwhile.
_BY_ID: dict[int, tuple[object, object]] = {}
_BY_VALUE: dict[object, object] = {}
# How many objects are remembered before starting again (keys already built
# keep their canonical objects alive themselves).
_CANONICAL_LIMIT = 1 << 16


def canonical(obj: T) -> T:
    """The first object seen equal to ``obj`` (``obj`` itself if unhashable)."""
    entry = _BY_ID.get(id(obj))
    if entry is not None and entry[0] is obj:
        return entry[1]  # type: ignore[return-value]
    if len(_BY_ID) >= _CANONICAL_LIMIT:
        _BY_ID.clear()
        _BY_VALUE.clear()
    try:
        found = _BY_VALUE.setdefault(obj, obj)
    except TypeError:  # unhashable: stands for itself
        found = obj
    _BY_ID[id(obj)] = (obj, found)
    return found  # type: ignore[return-value]
