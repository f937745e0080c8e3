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
each op it found valid and verifies again only what a pass changed (see the
record layout above ``_VIEW`` for what "changed" covers). Within a check, an
op's own constraints are remembered per signature (``_Plan.key``), and only
the uses that a change can break are checked for dominance (``_climb``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from operator import attrgetter

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

from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, SourceLoc, op_diagnostics, op_location
from mini_iree.compiler.ir.queries import op_has_trait
from mini_iree.compiler.ir.value_ids import canonical

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


def _names_a_symbol(op: Operation) -> bool:
    """Whether one of the op's attributes or properties names a symbol."""
    known = _NAMES_SYMBOL
    for mapping in (op.attributes, op.properties):
        for attr in mapping.values():
            entry = known.get(id(attr))
            if entry is None or entry[0] is not attr:
                if len(known) >= _NAMES_SYMBOL_LIMIT:
                    known.clear()
                entry = known[id(attr)] = (attr, _names_symbol(attr))
            if entry[1]:
                return True
    return False


# What ModuleVerifier remembers of each op it found valid: a list indexed by
# these. An op verifies the same as long as its block, operands, results,
# successors, attributes, properties, whether it ends its block and the shape
# of its regions are the same. Values never change type in xDSL, so
# the identity of the operands, results and block arguments stands for their
# types. An op moved with its block into another op (a region or block moved)
# counts as changed through the ops around it, whose shapes changed.
#
# Verifiers that look further are covered by ModuleVerifier's propagation: an
# op is verified again when something nested in it changed (region checks),
# when an op around it changed what nested ops may read (a terminator checks
# its parent's types), or when the op defining one of its operands changed
# (sizes read from a producer). An op naming a symbol is always verified
# again: what the symbol stands for may have changed anywhere in the module.
_VIEW = 0  # a tuple read by _VIEW_OF, with copies of the dictionaries
# 0: not the last op of its block; 1: the last; 2: the last, in a region of
# several blocks (the terminator rules depend on it)
_LAST = 1
# The op's regions: for each block its arguments, the block, its first and last
# op (see _shape_entries); None after each region.
_SHAPE = 2
_NAMES_A_SYMBOL = 3
# Not what the op verifies against but where it stands (dominance): its place
# in the walk's pre-order.
_INDEX = 4
_OP = 5  # the op itself (kept alive with the record, so that its id is not reused)

# The fields of an op in a record's _VIEW, read at once (one call rather than
# seven attribute reads per op); the attribute and property dictionaries are
# compared by content.
_VIEW_OF = attrgetter("parent", "_operands", "results", "_successors", "attributes", "properties", "regions")
_IN_BLOCK = 0
_OPERANDS = 1
_RESULTS = 2
_SUCCESSORS = 3
_ATTRIBUTES = 4
_PROPERTIES = 5


def _shape_entries(shape: tuple, offset: int) -> list:
    """One entry per block of a record's ``_SHAPE`` (0: its arguments, 1: the
    block itself), and None after each region."""
    found: list = []
    i = 0
    while i < len(shape):
        if shape[i] is None:
            found.append(None)
            i += 1
        else:
            found.append(shape[i + offset])
            i += 4
    return found


# Stands for an empty attribute or property dictionary (only ever compared).
_NO_ATTRIBUTES: dict[str, Attribute] = {}


class ModuleVerifier:
    """``verify_op_tree`` for a module verified again after each pass.

    The first ``verify`` checks every op; later ones check only the ops that
    changed since the last successful ``verify`` and the ops whose verifiers
    can see the change (see the record layout above ``_VIEW``), in the same
    pre-order, so the first invalid op reported is the one a full verification
    would report.

    Dominance (and isolation from above) is checked again for the uses a change
    can break: the operands of changed ops, of new ops, of ops in another block
    than before or out of order with the other ops of their block, of ops whose
    regions gained, lost or exchanged blocks and of every op nested in such
    ops; and the uses of their results and of the results of ops that left
    the module.
    """

    def __init__(self) -> None:
        # Sets and maps of ops are keyed by id(): an op's own __hash__ is Python
        # code, called for every lookup. The records of the last successful
        # check (by id) keep their ops alive, so their ids cannot be reused
        # meanwhile; ``_ops`` are those ops in the order of that check's walk.
        self._ops: list[Operation] = []
        self._valid: dict[int, list] = {}

    def verify(self, root: Operation, fallback: SourceLoc) -> None:
        valid, previous_ops = self._valid, self._ops
        full = not valid
        valid_get = valid.get
        records: dict[int, list] = {}
        order: list[Operation] = []
        order_append = order.append
        dirty: set[int] = set()
        # Changed ops whose own constraints must be checked again (the others
        # held and read nothing that changed since).
        own_to_check: set[int] = set()
        changed: list[Operation] = []
        moved: list[Operation] = []  # ops whose operands' dominance is checked again
        reordered: dict[int, Block] = {}  # blocks whose ops changed order (by id)
        index = 0
        new_ops = 0
        # The walk runs in pre-order over runs of sibling ops. An explicit stack
        # rather than recursion: a deeply nested program must get its
        # diagnostic, not a RecursionError. Each entry is the first op of a run;
        # whether an enclosing op changed in what nested ops read (verify them
        # again) or moved (check their operands' dominance again); and the
        # place in the last walk of the latest op of the run that was in the
        # block then (the ops of a block that were there before must come in
        # the same order).
        stack: list[tuple[Operation, bool, bool, int]] = [(root, False, False, -1)]
        pop, push = stack.pop, stack.append
        view_of = _VIEW_OF
        # This loop looks at every op after every pass: it reads xDSL's fields
        # directly (noqa: SLF001 below) and builds no record for an unchanged op.
        while stack:
            op, outer_changed, outer_moved, last_index = pop()
            while op is not None:
                key = id(op)
                old = valid_get(key)
                view = view_of(op)
                block, _, _, _, attributes, properties, regions = view
                following = op._next_op  # noqa: SLF001
                if following is not None:
                    last = 0
                else:
                    region = block.parent if block is not None else None
                    several = region is not None and region._first_block is not region._last_block  # noqa: SLF001
                    last = 2 if several else 1
                if regions:
                    firsts: list[Operation | None] = []
                    shape_list: list = []
                    for r in regions:
                        b = r._first_block  # noqa: SLF001
                        while b is not None:
                            first = b._first_op  # noqa: SLF001
                            firsts.append(first)
                            shape_list += (b._args, b, first, b._last_op)  # noqa: SLF001
                            b = b._next_block  # noqa: SLF001
                        shape_list.append(None)  # ends a region: the block counts are part of the shape
                    shape = tuple(shape_list)
                else:
                    shape = ()
                if old is not None:
                    o_view, o_last, o_shape, o_names_a_symbol, o_index, _ = old
                    if o_view[_IN_BLOCK] is block:
                        if o_index < last_index:
                            reordered[id(block)] = block
                        last_index = o_index
                    unchanged = o_view == view and o_last == last and o_shape == shape and not o_names_a_symbol
                else:
                    unchanged = False
                if unchanged:
                    record = old
                    record[_INDEX] = index
                    inside_changed, inside_moved = outer_changed, outer_moved
                    if inside_changed:
                        dirty.add(key)
                    if inside_moved:
                        moved.append(op)
                else:
                    # (copies: the dictionaries may change in place; empty ones
                    # stand for themselves)
                    view = (
                        *view[:_ATTRIBUTES],
                        attributes.copy() if attributes else _NO_ATTRIBUTES,
                        properties.copy() if properties else _NO_ATTRIBUTES,
                        regions,
                    )
                    record = [view, last, shape, bool(attributes or properties) and _names_a_symbol(op), index, op]
                    changed.append(op)
                    moved.append(op)  # its operands may be new
                    inside_moved = True
                    if old is None:
                        new_ops += 1
                        nested_changed = own_changed = True
                    else:
                        blocks_changed = o_shape != shape and _shape_entries(o_shape, 1) != _shape_entries(shape, 1)
                        if o_view[_IN_BLOCK] is block and not blocks_changed:
                            # The ops nested in it stay where they were, unless
                            # something else says otherwise.
                            inside_moved = outer_moved
                        if o_names_a_symbol or record[_NAMES_A_SYMBOL] or blocks_changed:
                            # (blocks added, removed or moved between regions or ops)
                            nested_changed = own_changed = True
                        else:
                            # Otherwise only moved, or new operands of the same types.
                            o_operands, operands = o_view[_OPERANDS], view[_OPERANDS]
                            nested_changed = (
                                o_view[_RESULTS:_PROPERTIES + 1] != view[_RESULTS:_PROPERTIES + 1]
                                or (o_shape != shape and _shape_entries(o_shape, 0) != _shape_entries(shape, 0))
                                or (
                                    o_operands != operands
                                    and [v._type for v in o_operands] != [v._type for v in operands]  # noqa: SLF001
                                )
                            )
                            own_changed = nested_changed or o_shape != shape
                    if own_changed:
                        own_to_check.add(key)
                    inside_changed = outer_changed or nested_changed
                    dirty.add(key)
                records[key] = record
                order_append(op)
                index += 1
                if regions:
                    # The rest of this run after the ops nested in this one.
                    if following is not None and op is not root:
                        push((following, outer_changed, outer_moved, last_index))
                    for first in reversed(firsts):
                        if first is not None:
                            push((first, inside_changed, inside_moved, -1))
                    break
                op = following if op is not root else None
        # The ops of the last check no longer in the module (if fewer of them are in it).
        left: list[list] = []
        if not full and len(order) - new_ops < len(previous_ops):
            left = [valid[key] for key in valid.keys() - records.keys()]
        # Ops around a change see it (region and terminator checks), and so do
        # the ops around the place of an op that left; users of a changed op's
        # results may read the op itself.
        enclosing_marked: set[int] = set()
        around = []
        for op in changed:
            block = op.parent
            region = block.parent if block is not None else None
            if region is not None:
                around.append(region.parent)
        for record in left:
            block = record[_VIEW][_IN_BLOCK]
            region = block.parent if block is not None else None
            parent = region.parent if region is not None else None
            if parent is not None and id(parent) in records:
                around.append(parent)
        for parent in around:
            while parent is not None and id(parent) not in enclosing_marked:
                enclosing_marked.add(id(parent))
                dirty.add(id(parent))
                parent = parent.parent_op()
        for op in changed:
            for result in op.results:
                use = result.first_use
                while use is not None:
                    dirty.add(id(use._operation))  # noqa: SLF001
                    use = use._next_use  # noqa: SLF001
        self._valid = {}
        self._ops = []
        # A use can break when its user or anything around the user moved, or
        # when the definition moved or left (dominance, isolation from above); a
        # changed branch changes the dominance of whole blocks, so then
        # everything is checked again.
        # (ops by id: an op's own __hash__ is Python code)
        uses: dict[int, Operation] | None = None
        if not full and not any(record[_VIEW][_SUCCESSORS] for record in left):
            if reordered:
                moved += _out_of_order(reordered, previous_ops, valid)
            uses = _uses_to_check(moved, left, records)
            for op in changed:
                old = valid_get(id(op))
                branched = old is not None and not old[_NAMES_A_SYMBOL] and old[_VIEW][_SUCCESSORS]
                if op._successors or branched:  # noqa: SLF001
                    uses = None
                    break
        suspects, scope = _climb(order if uses is None else uses.values(), records)
        global _ISOLATION_SCOPE
        _ISOLATION_SCOPE = scope
        reads_only_itself = _SELF_CONTAINED.get
        try:
            for op in order:
                key = id(op)
                if key in dirty:
                    own = key in own_to_check
                    # An op whose verifier reads only the op itself (see
                    # _reads_only_itself) and whose own view did not change
                    # verifies as before, whatever changed around it or in its
                    # producers: only an op around a change (its regions'
                    # contents changed) and one now ending its block
                    # (terminator rule) are verified again.
                    if not own and key not in enclosing_marked:
                        cls = type(op)
                        known = reads_only_itself(cls, _UNKNOWN)
                        if known is _UNKNOWN:
                            known = _reads_only_itself(cls)
                        if known is (op._next_op is None):  # noqa: SLF001
                            continue
                    _verify_one(op, fallback, own)
        finally:
            _ISOLATION_SCOPE = None
        _Dominance(fallback).verify(root, uses, suspects)
        self._ops = order
        self._valid = records


def _out_of_order(
    reordered: dict[int, Block], previous_ops: list[Operation], valid: dict[int, list]
) -> list[Operation]:
    """The ops of ``reordered`` blocks that changed places, and the ops nested in them.

    Of the ops a block had at the last check (``previous_ops``, in the order of
    that walk), the longest run still in the same order stays; every pair of
    ops whose order flipped has one op outside it.
    """
    before = {id(op): i for i, op in enumerate(previous_ops)}
    found: list[Operation] = []
    for block in reordered.values():
        ops = [op for op in block.ops if id(op) in before and valid[id(op)][_VIEW][_IN_BLOCK] is block]
        kept = _longest_increasing(ops, [before[id(op)] for op in ops])
        found += [op for op in ops if id(op) not in kept]
    nested: list[Operation] = []
    for op in found:
        nested += op.walk()
    return nested


def _longest_increasing(ops: list[Operation], keys: list[int]) -> set[int]:
    """The ids of a longest run of ``ops`` whose ``keys`` increase."""
    tails: list[int] = []  # the smallest last key of a run of each length
    tail_at: list[int] = []  # where that run ends
    back: list[int] = []  # the op before each op in its best run
    for i, k in enumerate(keys):
        n = bisect_left(tails, k)
        if n == len(tails):
            tails.append(k)
            tail_at.append(i)
        else:
            tails[n] = k
            tail_at[n] = i
        back.append(tail_at[n - 1] if n else -1)
    kept: set[int] = set()
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        kept.add(id(ops[i]))
        i = back[i]
    return kept


def _uses_to_check(moved: list[Operation], left: list[list], records: dict[int, list]) -> dict[int, Operation]:
    """The ops (by id) whose operands' dominance must be checked again: ``moved``,
    and the users of their results and of the ops that left the module (the
    records of the last check in ``left``)."""
    uses = {id(op): op for op in moved}
    values: list[SSAValue] = [result for op in moved for result in op.results]
    # What left the module: its results, and the arguments of the blocks it
    # was in when those left too.
    for record in left:
        values += record[_OP].results
        block = record[_VIEW][_IN_BLOCK]
        if block is not None:
            region = block.parent
            around = region.parent if region is not None else None
            if around is None or id(around) not in records:
                values += block._args  # noqa: SLF001
    for value in values:
        use = value.first_use
        while use is not None:
            user = use._operation  # noqa: SLF001
            uses[id(user)] = user
            use = use._next_use  # noqa: SLF001
    return uses


def _climb(ops: Iterable[Operation], records: dict[int, list]) -> tuple[list[Operation], dict[int, list[Operation]]]:
    """Where each operand of ``ops`` comes from, seen from its user: the ops
    whose operands may not dominate them, and for isolated-from-above ops (by
    id) the ops nested in them that may read a value from above.

    From each user, the walk goes up the ops around it to the block defining
    the operand. A block argument found there dominates the use, and so does an
    op result defined there before the op around the use (by the places in
    ``records``' walk); anything else is left to ``_Dominance``. An
    isolated-from-above op crossed on the way (the closest one around the
    user) gets the user in its list: only those can break its isolation.
    """
    suspects: list[Operation] = []
    scope: dict[int, list[Operation]] = {}
    get = records.get
    for op in ops:
        record = get(id(op))
        if record is None:
            continue  # not in the module
        suspect = False
        isolated = None
        for value in op._operands:  # noqa: SLF001
            value_type = type(value)
            if value_type is OpResult:
                definition = value.op
                target = definition.parent
                if target is op.parent:
                    # The common case: defined in the user's own block.
                    defined = get(id(definition))
                    if defined is None or defined[_INDEX] >= record[_INDEX]:
                        suspect = True
                    continue
            elif value_type is BlockArgument:
                definition = None
                target = value.block
            else:  # an erased value: left to the general checks, as if from above
                definition = target = None
            found = None
            current: Operation | None = op
            while current is not None:
                block = current.parent
                if block is None:
                    break
                if block is target:
                    found = current
                    break
                region = block.parent
                current = region.parent if region is not None else None
                if current is not None and isolated is None and _is_isolated(type(current)):
                    isolated = current
            if found is None:
                suspect = True
            elif definition is not None:
                defined = get(id(definition))
                if defined is None or defined[_INDEX] >= get(id(found))[_INDEX]:
                    suspect = True
        if suspect:
            suspects.append(op)
        if isolated is not None:
            scope.setdefault(id(isolated), []).append(op)
    return suspects, scope


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
        raise DiagnosticError(*op_diagnostics(op, _message(op, err), fallback)) from None


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

    def verify(self, root: Operation, only: dict[int, Operation] | None, suspects: list[Operation]) -> None:
        """Check the uses in ``root``'s tree, or only those of the ops in ``only`` (by id)
        (in the same order, so the first failure is the one a full check finds).

        Only ``suspects`` (see ``_climb``) can fail: the others' operands plainly
        dominate them. Only if one of them fails is the tree walked in order, to
        report the failure a full check reports first.
        """
        for op in suspects:
            try:
                self._check_operands(op)
            except DiagnosticError:
                break
        else:
            return
        # Sets of ops hold their ids: an op's own __hash__ is Python code.
        needed: set[int] = set()  # the ops around those of `only`: where to look
        only_ids = None
        if only is not None:
            only_ids = only.keys()
            for op in only.values():
                parent = op.parent_op()
                while parent is not None and id(parent) not in needed:
                    needed.add(id(parent))
                    parent = parent.parent_op()
        self._verify_in_order(root, only_ids, needed)

    def _verify_in_order(self, root: Operation, only_ids, needed: set[int]) -> None:
        """MLIR's walk (``verifyDominanceOfContainedRegions``): the uses of each
        block in order, then the regions of the block's ops, innermost last op first."""
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
        error = op_diagnostics(op, f"operand #{index} does not dominate this use", self.fallback)
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
        raise DiagnosticError(*error, note)


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
        # The own verifier reads only what the key holds (see key()), with the
        # terminators of the regions' entry blocks for some classes.
        name = getattr(cls, "name", None)
        self.key_terminators = name in _KEYED_WITH_TERMINATOR_VERIFIERS
        self.custom_keyed = name in _KEYED_VERIFIERS or self.key_terminators
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
        """True if ``op`` satisfies its definition and its own verifier; False if xDSL must decide.

        With ``own``, the tensor encodings of the types the op defines are
        checked too (raising as ``_verify_encodings`` does). Without it, the
        op's operand, result, attribute, property and region constraints and
        its encodings are known to hold: only the traits, and an own verifier
        that may read more than those, are checked.
        """
        key = None
        # (a terminator read by the own verifier can change without the op)
        if own or self.key_terminators:
            key, objects = self.key(op)
            if key in self.valid:
                key = None  # found valid before
            elif not self._check_own(op):
                return False
            else:
                _verify_encodings(op)
        for trait in self.traits:
            if trait(op) is False:
                return False
        custom = self.custom
        if custom is not None and (key is not None or not self.custom_keyed):
            custom(op)
        if key is not None:
            valid = self.valid
            if len(valid) >= _VALID_LIMIT:
                valid.clear()
            valid[key] = objects  # keeps the objects, and so their ids, alive
        return True

    def key(self, op: Operation) -> tuple[tuple, list[object]]:
        """What the op's own constraints read, as ids of canonical objects, and those objects.

        Types and attributes are immutable, so the values an op was found
        valid with are valid again: an op whose key was found valid (own
        constraints, tensor encodings and, for ``custom_keyed`` classes, the own
        verifier) is not checked twice. The key holds the operand and result
        types, the argument types of each block of each region (encodings are
        checked for all of them), the successor count, and the property and
        attribute names and values.
        """
        canon = canonical
        objects: list[object] = [canon(v._type) for v in op._operands]  # noqa: SLF001
        objects.append(None)
        objects += [canon(r._type) for r in op.results]  # noqa: SLF001
        for region in op.regions:
            objects.append(None)
            entry = block = region._first_block  # noqa: SLF001
            while block is not None:
                objects += [canon(a._type) for a in block._args]  # noqa: SLF001
                objects.append(True)  # ends a block
                block = block._next_block  # noqa: SLF001
            if entry is not None and self.key_terminators:
                terminator = entry._last_op  # noqa: SLF001
                objects.append(type(terminator))
                if terminator is not None:
                    objects += [canon(v._type) for v in terminator._operands]  # noqa: SLF001
        objects.append(len(op._successors))  # noqa: SLF001
        if op.properties:
            objects += [(name, canon(value)) for name, value in op.properties.items()]
        objects.append(None)
        if op.attributes:
            objects += [(name, canon(value)) for name, value in op.attributes.items()]
        # Property and attribute names and values are read through their pairs.
        key = tuple([id(o) if type(o) is not tuple else (o[0], id(o[1])) for o in objects])
        return key, objects

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


# While ModuleVerifier verifies a module: for each isolated-from-above op (by
# id), the ops nested in it that may read a value from above (see _climb; an
# op missing here has none). None: check every nested op.
_ISOLATION_SCOPE: dict[int, list[Operation]] | None = None


def _is_isolated(cls: type[Operation]) -> bool:
    known = _ISOLATED.get(cls)
    if known is None:
        known = _ISOLATED[cls] = any(isinstance(t, IsolatedFromAbove) for t in cls.traits)
    return known


_ISOLATED: dict[type, bool] = {}


def _block_is_inside(block: Block, op: Operation) -> bool:
    """``block`` is in a region of ``op``, at any depth, but not inside an
    isolated-from-above op nested in ``op``."""
    current: Block | None = block
    while current is not None:
        region = current.parent
        parent = region.parent if region is not None else None
        if parent is op:
            return True
        if parent is None or _is_isolated(type(parent)):
            return False
        current = parent.parent
    return False


def _isolated_from_above(op: Operation) -> bool:
    """xDSL's ``IsolatedFromAbove`` check, without an ancestor walk per operand.

    Every operand of an op nested in ``op`` (but not in a nested isolated op,
    which checks itself) must be defined in one of the blocks nested in ``op``
    (not in a nested isolated op either). While ModuleVerifier verifies, only
    the nested ops that may read a value from above are checked (see _climb);
    otherwise, collecting the blocks first makes each operand one set lookup.
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


# Ops whose own ``verify_`` reads nothing but what ``_Plan.key`` holds: operand
# and result types (and so the size of each operand group), attributes,
# properties, and the argument types of their regions' entry blocks (checked by
# reading each verifier). Their verifier is not run again for a key found valid.
_KEYED_VERIFIERS = frozenset(
    {
        "flow.dispatch.region",
        "flow.tensor.encode",
        "hal.tensor.export",
        "hal.tensor.import",
        "iree_encoding.set_encoding",
        "iree_encoding.unset_encoding",
        "linalg.fill",
        "tensor.dim",
        "tensor.empty",
    }
)
# The same, for verifiers that also read the kind and operand types of the
# terminator of each region's entry block.
_KEYED_WITH_TERMINATOR_VERIFIERS = frozenset({"linalg.matmul"})

# Ops whose own ``verify_`` reads nothing but the op's operand and result types,
# attributes, properties and regions: the keyed ones. Ops whose ``verify_`` is
# Operation's empty one qualify without being listed.
_SELF_CONTAINED_VERIFIERS = _KEYED_VERIFIERS | _KEYED_WITH_TERMINATOR_VERIFIERS
_SELF_CONTAINED: dict[type, bool | None] = {}
_UNKNOWN = object()  # not in _SELF_CONTAINED yet


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
    makes and (with ``own``) its tensor encodings are; False if that could not
    be shown here (the op may still be valid). Without ``own``, the op's own
    IRDL constraints and encodings are known to hold (see ``_Plan.check``)."""
    cls = type(op)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _Plan(cls)
    if not plan.usable:
        return False
    try:
        # (ErasedSSAValue has no subclasses: comparing the classes is isinstance)
        if own and ErasedSSAValue in map(type, op._operands):  # noqa: SLF001
            return False
        # Operation.verify's terminator rules (no successors here, see _Plan).
        block = op.parent
        if block is not None and op._next_op is None:  # noqa: SLF001 - the op ends its block
            region = block.parent
            if region is not None:
                parent = region.parent
                needs_terminator = region._first_block is not region._last_block or (  # noqa: SLF001
                    parent is not None and not op_has_trait(parent, NoTerminator)
                )
                if needs_terminator and not op_has_trait(op, IsTerminator):
                    return False
        return plan.check(op, own)
    except Exception:  # noqa: BLE001 - xDSL reports it, with its own message
        return False

