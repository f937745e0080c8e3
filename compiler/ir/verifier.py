"""Verify a module op by op, reporting the failing op at its own location.

xDSL's ``Operation.verify`` raises the verifier's message with the whole module
attached but without saying which op failed. MLIR reports
``file:line:col: error: 'linalg.pack' op invalid inner_dims_pos vector`` at the
failing op; this walk does the same. As in MLIR, an op is verified before the ops
nested in it, verification stops at the first failure, and once every op is
valid each operand must dominate its use (``operand #0 does not dominate this
use``, with a note at the definition).

Verifying after every pass, as ``mini-iree-opt`` does, would otherwise cost a
full verification of the module per pass; :class:`ModuleVerifier` remembers
each op it found valid and verifies again only what a pass changed (see
:func:`_snapshot` for what "changed" covers).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, ModuleOp, SymbolRefAttr, i32
from xdsl.ir import Attribute, Block, BlockArgument, ErasedSSAValue, Operation, OpResult, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.constraints import VerificationContext
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    OptAttributeDef,
    OptionalDef,
    OptPropertyDef,
    OptSingleBlockRegionDef,
    SingleBlockRegionDef,
    VariadicDef,
    VarSingleBlockRegionDef,
)
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, OpTrait

from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, SourceLoc, op_location

_XDSL_PREFIX = "Operation does not verify: "


def _message(op: Operation, err: Exception) -> str:
    text = str(err).split("\n\n", 1)[0].strip()
    if text.startswith(_XDSL_PREFIX):
        text = text[len(_XDSL_PREFIX) :]
    text = text.splitlines()[0] if text else type(err).__name__
    return f"'{op.name}' op {text}"


def _verify_encodings(op: Operation) -> None:
    """Check tensor encodings against the tensors carrying them.

    MLIR verifies a tensor type's encoding when the type is built
    (``VerifiableTensorEncoding``); xDSL has no such hook, so encodings that
    define ``verify_encoding(shape, element_type)`` are checked here, for every
    type an op defines.
    """
    types = [r.type for r in op.results]
    types += [a.type for region in op.regions for block in region.blocks for a in block.args]
    for ty in types:
        encoding = getattr(ty, "encoding", None)
        check = getattr(encoding, "verify_encoding", None)
        if check is not None:
            check(ty.get_shape(), ty.get_element_type())  # type: ignore[attr-defined]


def verify_op_tree(op: Operation, fallback: SourceLoc) -> None:
    """Raise ``DiagnosticError`` at the first op of ``op``'s tree that does not verify.

    Every op is verified first (pre-order); then, as MLIR's verifier does once
    all ops are valid, every operand is checked to dominate its use.
    """
    ModuleVerifier().verify(op, fallback)


def _names_symbol(attr: Attribute) -> bool:
    return isinstance(attr, SymbolRefAttr) or (
        isinstance(attr, ArrayAttr) and any(isinstance(a, SymbolRefAttr) for a in attr.data)
    )


# Attributes are immutable: whether one names a symbol is remembered per object
# (the object is kept alive with the answer, so its id is never reused meanwhile).
_NAMES_SYMBOL: dict[int, tuple[Attribute, bool]] = {}
_NAMES_SYMBOL_LIMIT = 1 << 16


def _snapshot(op: Operation) -> tuple | None:
    """What an op's verifier reads, compared by identity or equality; None: always verify.

    An op verifies the same as long as its operands, results, attributes,
    properties, successors, parent op and the shape of its regions are the same;
    whether it ends its block counts too (terminator checks). Values never change
    type in xDSL, so the identity of the operands, results and block arguments
    stands for their types.

    Verifiers that look further are covered by :class:`ModuleVerifier`'s
    propagation: an op is verified again when something nested in it changed
    (region checks), when an op around it changed what nested ops may read (a
    terminator checks its parent's types), or when the op defining one of its
    operands changed (sizes read from a producer). An op naming a symbol is
    always verified again: what the symbol stands for may have changed anywhere
    in the module.
    """
    attributes = op.attributes
    properties = op.properties
    if attributes or properties:
        # Inlined rather than a call: this runs for every op after every pass.
        known = _NAMES_SYMBOL
        for mapping in (attributes, properties):
            for attr in mapping.values():
                entry = known.get(id(attr))
                if entry is None or entry[0] is not attr:
                    if len(known) >= _NAMES_SYMBOL_LIMIT:
                        known.clear()
                    entry = known[id(attr)] = (attr, _names_symbol(attr))
                if entry[1]:
                    return None
    block = op.parent
    region = block.parent if block is not None else None
    is_last = op._next_op is None  # noqa: SLF001 - the cheapest way to ask, checked for every op after every pass
    regions = op.regions
    if regions:
        args_list: list = []
        shape_list: list = []
        for r in regions:
            b = r._first_block  # noqa: SLF001
            while b is not None:
                args_list.append(b._args)  # noqa: SLF001
                shape_list.append((b, b._first_op, b._last_op))  # noqa: SLF001
                b = b._next_block  # noqa: SLF001
            shape_list.append(None)  # ends a region: the block counts are part of the shape
        args, shape = tuple(args_list), tuple(shape_list)
    else:
        args = shape = ()
    return (
        block,
        region.parent if region is not None else None,
        is_last and region is not None and region._first_block is not region._last_block,  # noqa: SLF001
        is_last,
        op._operands,  # noqa: SLF001
        # (_NESTED: what follows, up to _SHAPE, is what the ops nested in this one may read)
        op.results,
        op._successors,  # noqa: SLF001
        attributes.copy() if attributes else _NO_ATTRIBUTES,
        properties.copy() if properties else _NO_ATTRIBUTES,
        args,
        # (_SHAPE: the op's own regions, read by its own verifier only)
        shape,
    )


# Stands for an empty attribute or property dictionary (only ever compared).
_NO_ATTRIBUTES: dict[str, Attribute] = {}

_OPERANDS = 4
_NESTED = 5
_SUCCESSORS = 6
_SHAPE = 10


def _nested_view_changed(old: tuple | None, new: tuple | None) -> bool:
    """Whether an op changed in what the ops nested in it may read: its operand,
    result and block argument types, attributes, properties, successors."""
    if old is None or new is None:
        return True
    if old[_NESTED:_SHAPE] != new[_NESTED:_SHAPE]:
        return True
    old_operands, new_operands = old[_OPERANDS], new[_OPERANDS]
    return old_operands != new_operands and [v.type for v in old_operands] != [v.type for v in new_operands]


class ModuleVerifier:
    """``verify_op_tree`` for a module verified again after each pass.

    The first ``verify`` checks every op; later ones check only the ops that
    changed since the last successful ``verify`` and the ops whose verifiers
    can see the change (see :func:`_snapshot`), in the same pre-order, so the
    first invalid op reported is the one a full verification would report.
    Dominance is checked again for the uses a change can break: the operands of
    changed ops and of every op nested in one, and the uses of their results.
    """

    def __init__(self) -> None:
        # Sets and maps of ops are keyed by id(): an op's own __hash__ is Python
        # code, called for every lookup. ``_ops`` keeps the ops of the last
        # successful check alive, so their ids cannot be reused meanwhile.
        self._ops: list[Operation] = []
        self._valid: dict[int, tuple] = {}
        # The op before each op: reordering a block leaves the snapshots alone
        # but can break dominance.
        self._previous: dict[int, Operation | None] = {}

    def verify(self, root: Operation, fallback: SourceLoc) -> None:
        valid = self._valid
        previous = self._previous
        full = not valid
        order: list[Operation] = []
        snapshots: list[tuple | None] = []
        dirty: set[int] = set()
        # Ops whose own constraints held and read nothing that changed since.
        own_valid: set[int] = set()
        changed: list[Operation] = []
        moved: list[Operation] = []  # changed or reordered, or nested in such an op
        # An explicit stack rather than recursion: a deeply nested program must
        # get its diagnostic, not a RecursionError. The flags say an enclosing
        # op changed in what nested ops read (verify them again) or at all
        # (check their operands' dominance again).
        stack: list[tuple[Operation, bool, bool]] = [(root, False, False)]
        pop, push = stack.pop, stack.append
        for_snapshot = _snapshot
        while stack:
            op, inside_changed, inside_moved = pop()
            key = id(op)
            order.append(op)
            snapshot = for_snapshot(op)
            snapshots.append(snapshot)
            old = valid.get(key)
            if snapshot is None or old != snapshot:
                changed.append(op)
                inside_moved = True
                nested_changed = _nested_view_changed(old, snapshot)
                if not nested_changed and old[_SHAPE] == snapshot[_SHAPE]:  # type: ignore[index]
                    own_valid.add(key)  # only moved, or new operands of the same types
                inside_changed = inside_changed or nested_changed
                dirty.add(key)
            else:
                own_valid.add(key)
                if inside_changed:
                    dirty.add(key)
            if inside_moved or previous.get(key, op) is not op._prev_op:  # noqa: SLF001
                inside_moved = True
                moved.append(op)
            for region in reversed(op.regions):
                block = region._last_block  # noqa: SLF001
                while block is not None:
                    inner = block._last_op  # noqa: SLF001
                    while inner is not None:
                        push((inner, inside_changed, inside_moved))
                        inner = inner._prev_op  # noqa: SLF001
                    block = block._prev_block  # noqa: SLF001
        # Ops around a change see it (region and terminator checks); users of a
        # changed op's results may read the op itself.
        enclosing_marked: set[int] = set()
        for op in changed:
            for result in op.results:
                dirty.update([id(use.operation) for use in result.uses])
            parent = op.parent_op()
            while parent is not None and id(parent) not in enclosing_marked:
                enclosing_marked.add(id(parent))
                dirty.add(id(parent))
                parent = parent.parent_op()
        # An op whose verifier reads only the op itself (see _reads_only_itself)
        # and whose own view did not change verifies as before, whatever changed
        # around it or in its producers: only an op around a change (its
        # regions' contents changed) and one now ending its block (terminator
        # rule) are verified again.
        skip: set[int] = set()
        for op in order:
            key = id(op)
            if (
                key in dirty
                and key in own_valid
                and key not in enclosing_marked
                and _reads_only_itself(type(op)) is (op._next_op is None)  # noqa: SLF001
            ):
                skip.add(key)
        dirty.difference_update(skip)
        self._valid = {}
        self._ops = []
        # A use can break when its user or anything around the user moved, or
        # when the definition moved (dominance, isolation from above); a changed
        # branch changes the dominance of whole blocks, so then everything is
        # checked again.
        # (ops by id: an op's own __hash__ is Python code)
        uses: dict[int, Operation] | None = None
        if not full:
            uses = {id(op): op for op in moved}
            for op in moved:
                for result in op.results:
                    for use in result.uses:
                        user = use.operation
                        uses[id(user)] = user
        global _ISOLATION_SCOPE
        _ISOLATION_SCOPE = None if uses is None else _by_isolated_ancestor(uses)
        try:
            for op in order:
                key = id(op)
                if key in dirty:
                    _verify_one(op, fallback, key not in own_valid)
        finally:
            _ISOLATION_SCOPE = None
        if uses is not None:
            for op in changed:
                old = valid.get(id(op))
                if op._successors or (old is not None and old[_SUCCESSORS]):  # noqa: SLF001
                    uses = None
                    break
        _Dominance(fallback).verify(root, uses)
        self._ops = order
        self._valid = {id(op): s for op, s in zip(order, snapshots) if s is not None}
        self._previous = {id(op): op._prev_op for op in order}  # noqa: SLF001


def _by_isolated_ancestor(ops: dict[int, Operation]) -> dict[int, list[Operation]]:
    """``ops`` (by id) grouped under the closest isolated-from-above op around each (by id)."""
    scope: dict[int, list[Operation]] = {}
    # The answer for each enclosing op met (by id): most ops share a few parents.
    closest: dict[int, Operation | None] = {id(None): None}
    for op in ops.values():
        parent = op.parent_op()
        isolated = closest.get(id(parent), op)
        if isolated is op:
            isolated = parent
            while isolated is not None and not _is_isolated(type(isolated)):
                isolated = isolated.parent_op()
            closest[id(parent)] = isolated
        if isolated is not None:
            scope.setdefault(id(isolated), []).append(op)
    return scope


def _verify_one(op: Operation, fallback: SourceLoc, own: bool = True) -> None:
    """Verify ``op`` (not the ops nested in it); without ``own``, its own
    constraints and tensor encodings are known to hold (see ``_Plan.check``)."""
    try:
        if not _verifies_fast(op, own):
            op.verify(verify_nested_ops=False)
        if own:
            _verify_encodings(op)
    except Exception as err:  # noqa: BLE001
        # Verifiers should only raise VerifyException, but some of xDSL's raise
        # plain exceptions; either way the op is invalid and gets its diagnostic.
        raise DiagnosticError(Diagnostic(op_location(op, fallback), _message(op, err))) from None


def _has_ssa_dominance(region: Region) -> bool:
    # A module body is a graph region in MLIR (RegionKind::Graph): its ops may
    # use each other in any order. Every other region here is an SSACFG region.
    return not isinstance(region.parent_op(), ModuleOp)


class _Dominance:
    """MLIR's operand dominance check (``verifyDominanceOfContainedRegions``).

    xDSL checks only that operands are defined somewhere, so a use before its
    definition in the same block, a use of an op's result inside the op itself
    or a value taken from a sibling region printed back as if valid.
    """

    def __init__(self, fallback: SourceLoc):
        self.fallback = fallback
        # the position of each op (by id) in its block (by id), while verify runs
        self.positions: dict[int, dict[int, int]] = {}
        self.trees: dict[Region, tuple[set[Block], dict[Block, set[Block]]]] = {}

    def verify(self, root: Operation, only: dict[int, Operation] | None = None) -> None:
        """Check the uses in ``root``'s tree, or only those of the ops in ``only`` (by id)
        (in the same order, so the first failure is the one a full check finds)."""
        # Sets of ops hold their ids: an op's own __hash__ is Python code.
        needed: set[int] = set()  # the ops around those of `only`: where to look
        only_ids = None
        if only is not None:
            if not only:
                return
            only_ids = only.keys()
            for op in only.values():
                parent = op.parent_op()
                while parent is not None and id(parent) not in needed:
                    needed.add(id(parent))
                    parent = parent.parent_op()
        stack = [root]
        while stack:
            op = stack.pop()
            for region in op.regions:
                for block in region.blocks:
                    reachable = self._reachable(block)
                    # Most operands are results of earlier ops of the same block
                    # or arguments of the block: those are checked against the
                    # ops seen so far, the rest through the general queries.
                    seen: set[int] = set()
                    inner = block._first_op  # noqa: SLF001
                    while inner is not None:
                        key = id(inner)
                        if reachable and (only_ids is None or key in only_ids):
                            for value in inner._operands:  # noqa: SLF001
                                if type(value) is BlockArgument:
                                    if value.block is block:
                                        continue
                                elif isinstance(value, OpResult) and id(value.op) in seen:
                                    continue
                                self._check_operands(inner)
                                break
                        seen.add(key)
                        if inner.regions and (only_ids is None or key in needed):
                            stack.append(inner)
                        inner = inner._next_op  # noqa: SLF001

    def _check_operands(self, op: Operation) -> None:
        for index, value in enumerate(op.operands):
            if isinstance(value, BlockArgument):
                if not self._block_dominates(value.block, op):
                    self._fail(op, index, value)
            elif isinstance(value, OpResult) and not self._op_properly_dominates(value.op, op):
                self._fail(op, index, value)

    # -- dominance queries, as in mlir/lib/IR/Dominance.cpp -----------------

    def _position(self, op: Operation) -> int:
        block = op.parent_block()
        assert block is not None
        positions = self.positions.get(id(block))
        if positions is None:
            positions = {id(o): i for i, o in enumerate(block.ops)}
            self.positions[id(block)] = positions
        return positions[id(op)]

    def _tree(self, region: Region) -> tuple[set[Block], dict[Block, set[Block]]]:
        """The blocks reachable from the entry, and the dominators of each."""
        if (known := self.trees.get(region)) is not None:
            return known
        blocks = list(region.blocks)
        succs = {
            b: [s for s in (b.last_op.successors if b.last_op is not None else ()) if s.parent is region] for b in blocks
        }
        reachable: set[Block] = set()
        work = blocks[:1]
        while work:
            b = work.pop()
            if b not in reachable:
                reachable.add(b)
                work.extend(succs[b])
        preds: dict[Block, list[Block]] = {b: [] for b in blocks}
        for b in reachable:
            for s in succs[b]:
                preds[s].append(b)
        order = [b for b in blocks if b in reachable]
        doms = {b: set(order) for b in order}
        if order:
            doms[order[0]] = {order[0]}
        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                new = {b} | set.intersection(*(doms[p] for p in preds[b]))
                if new != doms[b]:
                    doms[b], changed = new, True
        self.trees[region] = (reachable, doms)
        return reachable, doms

    def _reachable(self, block: Block) -> bool:
        region = block.parent
        if region is None or len(region.blocks) == 1:
            return True
        return block in self._tree(region)[0]

    def _blocks_properly_dominate(self, a: Block, b: Block) -> bool:
        """``a`` properly dominates ``b``, two blocks of one region."""
        region = a.parent
        assert region is not None
        if a is b:
            return not _has_ssa_dominance(region)
        reachable, doms = self._tree(region)
        if b not in reachable:
            return True  # an unreachable block is dominated by anything
        return a in doms[b]

    def _block_dominates(self, a: Block, user: Operation) -> bool:
        """A block argument of ``a`` dominates ``user``."""
        region = a.parent
        b = user.parent_block()
        if region is None or b is None:
            return False
        b = _ancestor_block_in(region, b)
        if b is None:
            return False
        return a is b or self._blocks_properly_dominate(a, b)

    def _op_properly_dominates(self, a: Operation, b: Operation) -> bool:
        a_block = a.parent_block()
        if a_block is None:
            return False
        region = a_block.parent
        assert region is not None
        if a is b:
            return not _has_ssa_dominance(region)
        ancestor = _ancestor_op_in(region, b)
        if ancestor is None:
            return False
        b_block = ancestor.parent_block()
        assert b_block is not None
        if a_block is b_block:
            if not _has_ssa_dominance(region):
                return True
            # `a is ancestor` means `a` encloses the use: its result is not
            # available inside its own regions.
            return self._position(a) < self._position(ancestor)
        return self._blocks_properly_dominate(a_block, b_block)

    def _fail(self, op: Operation, index: int, value: SSAValue) -> None:
        error = Diagnostic(op_location(op, self.fallback), f"operand #{index} does not dominate this use")
        user_block = op.parent_block()
        user_region = user_block.parent if user_block is not None else None
        if isinstance(value, OpResult):
            def_block = value.op.parent_block()
            def_region = def_block.parent if def_block is not None else None
            if def_block is user_block:
                where = " (op in the same block)"
            else:
                relation = _region_relation(def_region, user_region)
                where = f" (op {'is ' if relation.startswith('neither') else ''}{relation})"
            note = Diagnostic(op_location(value.op, self.fallback), "operand defined here" + where, "note")
        else:
            assert isinstance(value, BlockArgument)
            def_region = value.block.parent
            owner = def_region.parent_op() if def_region is not None else None
            block_index = list(def_region.blocks).index(value.block) if def_region is not None else 0
            where = _region_relation(def_region, user_region)
            note = Diagnostic(
                op_location(owner, self.fallback),
                f"operand defined as a block argument (block #{block_index} {where})",
                "note",
            )
        raise DiagnosticError(error, note)


def _ancestor_op_in(region: Region, op: Operation) -> Operation | None:
    """``op`` or the op enclosing it whose block is in ``region``."""
    current: Operation | None = op
    while current is not None:
        block = current.parent_block()
        if block is None:
            return None
        if block.parent is region:
            return current
        current = block.parent_op()
    return None


def _ancestor_block_in(region: Region, block: Block) -> Block | None:
    """``block`` or the block enclosing it that is in ``region``."""
    current: Block | None = block
    while current is not None:
        if current.parent is region:
            return current
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    return None


def _region_relation(def_region, user_region) -> str:
    """Where a definition's region stands from its user's, in the words of MLIR's dominance note."""
    if def_region is user_region:
        return "in the same region"
    if _is_proper_ancestor(def_region, user_region):
        return "in a parent region"
    if _is_proper_ancestor(user_region, def_region):
        return "in a child region"
    return "neither in a parent nor in a child region"


def _is_proper_ancestor(outer: Region | None, inner: Region | None) -> bool:
    if outer is None or inner is None:
        return False
    op = inner.parent_op()
    while op is not None:
        region = op.parent_region()
        if region is outer:
            return True
        op = region.parent_op() if region is not None else None
    return False


# ---------------------------------------------------------------------------
# Checking an op against its IRDL definition without xDSL's generic overhead.
# ---------------------------------------------------------------------------
#
# xDSL's ``OpDef.verify`` looks everything up again for every op: which operand
# groups are variadic, where the segment sizes live, each group through a
# descriptor. A plan per op class does those lookups once and then runs the
# same constraint checks. A plan only ever accepts: an op it does not cover, and
# any failure, go to ``Operation.verify``, which raises xDSL's own message.


class _Plan:
    """The IRDL checks of one op class, looked up once."""

    def __init__(self, cls: type[Operation]):
        self.usable = False
        if not issubclass(cls, IRDLOperation):
            return
        op_def = cls.get_irdl_definition()
        # IRDL's `verify_` is `op_def.verify(op)` then the class's own verifier,
        # if any (a closure over both); a class that replaced it is left to xDSL.
        verify_ = cls.verify_
        code = getattr(verify_, "__code__", None)
        if code is None or set(code.co_freevars) not in ({"op_def"}, {"op_def", "custom_verify"}):
            return
        cells = {name: cell.cell_contents for name, cell in zip(code.co_freevars, verify_.__closure__ or ())}
        if cells.get("op_def") is not op_def:
            return
        self.custom = cells.get("custom_verify")
        sized_options = [o for o in op_def.options if isinstance(o, AttrSizedSegments)]
        if any(not isinstance(o, (AttrSizedOperandSegments, AttrSizedResultSegments)) for o in sized_options):
            return
        if any(isinstance(d, VariadicDef) for _, d in op_def.regions) or op_def.successors:
            return

        def groups(defs, option_type):
            # 1: exactly one value, 2: optional, 3: variadic
            kinds = [(d.constr, 2 if isinstance(d, OptionalDef) else 3 if isinstance(d, VariadicDef) else 1) for _, d in defs]
            sized = next((o for o in sized_options if isinstance(o, option_type)), None)
            return sized, kinds

        operands = groups(op_def.operands, AttrSizedOperandSegments)
        results = groups(op_def.results, AttrSizedResultSegments)
        if operands is None or results is None:
            return
        self.operands, self.results = operands, results
        self.regions = [
            (d, isinstance(d, (SingleBlockRegionDef, VarSingleBlockRegionDef, OptSingleBlockRegionDef)))
            for _, d in op_def.regions
        ]
        self.property_names = set(op_def.properties)
        self.properties = [(n, d.constr, isinstance(d, OptPropertyDef)) for n, d in op_def.properties.items()]
        self.attributes = [(n, d.constr, isinstance(d, OptAttributeDef)) for n, d in op_def.attributes.items()]
        # Traits that check nothing (Pure, ConstantLike...) are not called at all.
        self.traits = [
            _isolated_from_above if isinstance(t, IsolatedFromAbove) else t.verify
            for t in op_def.traits
            if type(t).verify is not OpTrait.verify
        ]
        # Keys of the ops found valid (see check_own).
        self.valid: dict[tuple, list[object]] = {}
        self.usable = True

    def check(self, op: Operation, own: bool = True) -> bool:
        """True if ``op`` satisfies its definition; False if xDSL must decide.

        Without ``own``, only the traits are checked: the op's operand, result,
        attribute, property and region constraints are known to hold.
        """
        if own and not self.check_own(op):
            return False
        for trait in self.traits:
            if trait(op) is False:
                return False
        return True

    def check_own(self, op: Operation) -> bool:
        """The constraints on the op's own operands, results, regions, properties and attributes.

        Types and attributes are immutable, so the objects an op was found
        valid with are valid again: those are remembered (by identity) and
        not checked twice.
        """
        objects: list[object] = [v.type for v in op._operands]  # noqa: SLF001
        objects.append(None)
        objects += [r.type for r in op.results]
        for region in op.regions:
            objects.append(None)
            block = region._first_block  # noqa: SLF001
            if block is not None:
                objects += [a.type for a in block._args]  # noqa: SLF001
                objects.append(block._next_block is None)  # noqa: SLF001
        objects.append(len(op._successors))  # noqa: SLF001
        if op.properties:
            objects += op.properties.items()
        objects.append(None)
        if op.attributes:
            objects += op.attributes.items()
        # Property and attribute names and values are read through their pairs.
        key = tuple([id(o) if type(o) is not tuple else (o[0], id(o[1])) for o in objects])
        valid = self.valid
        if key in valid:
            return True
        if not self._check_own(op):
            return False
        if len(valid) >= _VALID_LIMIT:
            valid.clear()
        valid[key] = objects  # keeps the objects, and so their ids, alive
        return True

    def _check_own(self, op: Operation) -> bool:
        context = VerificationContext()
        for (sized, kinds), values in ((self.operands, op.operands), (self.results, op.results)):
            types = [v.type for v in values]
            if sized is None:
                # Without segment sizes, every variadic group has the same size.
                variadic = sum(1 for _, kind in kinds if kind != 1)
                if not variadic:
                    if len(types) != len(kinds):
                        return False
                    for (constr, _), ty in zip(kinds, types):
                        constr.verify((ty,), context)
                    continue
                each, rest = divmod(len(types) - (len(kinds) - variadic), variadic)
                if each < 0 or rest or (each > 1 and any(kind == 2 for _, kind in kinds)):
                    return False
                sizes = [1 if kind == 1 else each for _, kind in kinds]
            else:
                container = op.properties if sized.as_property else op.attributes
                sizes_attr = container.get(sized.attribute_name)
                if not isinstance(sizes_attr, DenseArrayBase) or sizes_attr.elt_type != i32:
                    return False
                sizes = sizes_attr.get_values()
                if len(sizes) != len(kinds) or sum(sizes) != len(types):
                    return False
            start = 0
            for (constr, kind), size in zip(kinds, sizes):
                if size < 0 or (kind == 1 and size != 1) or (kind == 2 and size > 1):
                    return False
                constr.verify(tuple(types[start : start + size]), context)
                start += size
        regions = op.regions
        if len(regions) != len(self.regions) or op.successors:
            return False
        for region, (region_def, single_block) in zip(regions, self.regions):
            if single_block and len(region.blocks) != 1:
                return False
            entry = region.first_block
            if entry is not None:
                region_def.entry_args.verify(entry.arg_types, context)
        properties = op.properties
        for name, constr, optional in self.properties:
            if name not in properties:
                if optional:
                    continue
                return False
            constr.verify(properties[name], context)
        if any(name not in self.property_names for name in properties):
            return False
        attributes = op.attributes
        for name, constr, optional in self.attributes:
            if name not in attributes:
                if optional:
                    continue
                return False
            constr.verify(attributes[name], context)
        return True


# While ModuleVerifier re-verifies a module: for each isolated-from-above op (by id),
# the ops nested in it whose operands may have changed where they come from
# (an op missing here has none). None: check every nested op.
_ISOLATION_SCOPE: dict[int, list[Operation]] | None = None


def _is_isolated(cls: type[Operation]) -> bool:
    known = _ISOLATED.get(cls)
    if known is None:
        known = _ISOLATED[cls] = any(isinstance(t, IsolatedFromAbove) for t in cls.traits)
    return known


_ISOLATED: dict[type, bool] = {}


def _block_is_inside(block: Block, op: Operation) -> bool:
    """``block`` is in a region of ``op``, at any depth."""
    current: Block | None = block
    while current is not None:
        region = current.parent
        parent = region.parent if region is not None else None
        if parent is op:
            return True
        current = parent.parent if parent is not None else None
    return False


def _isolated_from_above(op: Operation) -> bool:
    """xDSL's ``IsolatedFromAbove`` check, without an ancestor walk per operand.

    Every operand of an op nested in ``op`` (but not in a nested isolated op,
    which checks itself) must be defined in one of the blocks nested in ``op``.
    Collecting those blocks first makes each operand one set lookup. When
    re-verifying, only the nested ops that a change can affect are checked.
    """
    if _ISOLATION_SCOPE is not None:
        # Whether each block met is nested in `op`, remembered: operands come
        # from a few blocks.
        inside: dict[int, bool] = {}  # by id(block)
        for inner in _ISOLATION_SCOPE.get(id(op), ()):
            for value in inner._operands:  # noqa: SLF001
                owner = value.owner
                block = owner if isinstance(owner, Block) else owner.parent
                known = inside.get(id(block)) if block is not None else False
                if known is None:
                    known = inside[id(block)] = _block_is_inside(block, op)  # type: ignore[arg-type]
                if not known:
                    return False
        return True
    blocks: set[int] = set()  # by id: a block's own __hash__ is Python code
    ops: list[Operation] = []
    regions = list(op.regions)
    while regions:
        region = regions.pop()
        block = region._first_block  # noqa: SLF001
        while block is not None:
            blocks.add(id(block))
            inner = block._first_op  # noqa: SLF001
            while inner is not None:
                ops.append(inner)
                if inner.regions and not _is_isolated(type(inner)):
                    regions.extend(inner.regions)
                inner = inner._next_op  # noqa: SLF001
            block = block._next_block  # noqa: SLF001
    for inner in ops:
        for value in inner._operands:  # noqa: SLF001
            owner = value.owner
            if id(owner.parent if isinstance(owner, Operation) else owner) not in blocks:
                return False
    return True


_PLANS: dict[type, _Plan] = {}
# How many valid keys a plan remembers before starting again.
_VALID_LIMIT = 1 << 14


# Ops whose own ``verify_`` reads nothing but the op's operand and result types,
# attributes, properties and regions (checked by reading each verifier). Ops
# whose ``verify_`` is Operation's empty one qualify without being listed.
_SELF_CONTAINED_VERIFIERS = frozenset(
    {
        "flow.dispatch.region",
        "flow.tensor.encode",
        "hal.tensor.export",
        "hal.tensor.import",
        "iree_encoding.set_encoding",
        "iree_encoding.unset_encoding",
        "linalg.fill",
        "linalg.matmul",
        "tensor.dim",
        "tensor.empty",
    }
)
_SELF_CONTAINED: dict[type, bool | None] = {}


def _reads_only_itself(cls: type[Operation]) -> bool | None:
    """Whether verifying an op of ``cls`` reads only the op itself and what is nested in it.

    For an op checked by a plan (no xDSL fallback) whose own verifier is empty
    or one of _SELF_CONTAINED_VERIFIERS: False if its traits check nothing
    (the op is valid anywhere but at the end of a block that needs a
    terminator), True if its only checking trait is ``IsTerminator`` (valid at
    the end of its block). None otherwise: traits reading the parent or the
    nested ops (``HasParent``, ``IsolatedFromAbove``...). Such an op,
    unchanged, need not be verified again when an op around it or a producer
    of its operands changes, as long as it stays where the answer says.
    """
    if cls in _SELF_CONTAINED:
        return _SELF_CONTAINED[cls]
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _Plan(cls)
    known: bool | None = None
    if plan.usable and (
        plan.custom is None
        or plan.custom is Operation.verify_
        or getattr(cls, "name", None) in _SELF_CONTAINED_VERIFIERS
    ):
        checks = [getattr(t, "__self__", None) for t in plan.traits]
        if not checks:
            known = False
        elif len(checks) == 1 and type(checks[0]) is IsTerminator:
            known = True
    _SELF_CONTAINED[cls] = known
    return known


def _verifies_fast(op: Operation, own: bool = True) -> bool:
    """True if ``op`` is valid by the checks ``Operation.verify(verify_nested_ops=False)``
    makes; False if that could not be shown here (the op may still be valid).
    Without ``own``, the op's own IRDL constraints are known to hold (see ``_Plan.check``)."""
    plan = _PLANS.get(type(op))
    if plan is None:
        plan = _PLANS[type(op)] = _Plan(type(op))
    if not plan.usable:
        return False
    try:
        if own and any(isinstance(v, ErasedSSAValue) for v in op._operands):  # noqa: SLF001
            return False
        # Operation.verify's terminator rules (no successors here, see _Plan).
        block = op.parent
        region = block.parent if block is not None else None
        if region is not None and block.last_op is op:
            count = len(region.blocks)
            parent = region.parent
            needs_terminator = count > 1 or (parent is not None and not parent.has_trait(NoTerminator))
            if needs_terminator and not op.has_trait(IsTerminator):
                return False
        if not plan.check(op, own):
            return False
        if plan.custom is not None:
            plan.custom(op)
    except Exception:  # noqa: BLE001 - xDSL reports it, with its own message
        return False
    return True
