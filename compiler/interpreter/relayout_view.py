"""``map_scatter`` bodies that only rename index digits, run as strided copies.

``iree-codegen-combine-layout-transformation`` folds every relayout (pack,
unpack, transposes, reshapes, swizzles) into one ``map_scatter`` whose body
linearizes the input indices, delinearizes them (maybe several times) and
yields some of the results, with a bounds mask for unpacks. Such a body maps
each input element to the output by regrouping mixed-radix *digits* of the
input indices: row ``i`` of a pack with 8-row tiles becomes the digits
``i // 8`` and ``i % 8``, which land in two different output dimensions.

Evaluating the body on index arrays costs several passes over int64 arrays as
large as the tensor (linearize, delinearize, mask, fancy-index scatter) for
what is one strided copy. :func:`scatter_plan` reads the body symbolically
instead: every index is a sum of ``digit * place`` terms, each digit a range of
one input dimension, and every step is checked to be exact (no carry between
digits, no wrap-around). The result says, for each digit, its stride in the
input and in the output; a bound that cuts a digit (padding rows of a tile, an
unpack's mask) splits the copy into a few rectangular boxes. Anything else
(data-dependent indices, a constant offset, a step that is not exact) returns
None, and the caller evaluates the body on index arrays as before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr
from xdsl.ir import Block, SSAValue

__all__ = ["PlanCache", "ScatterPlan", "copy_into", "scatter_plan"]


class _Digit:
    """``(x // weight) % extent`` of input dimension ``dim`` (before any split of it)."""

    __slots__ = ("dim", "weight", "extent", "split")

    def __init__(self, dim: int, weight: int, extent: int):
        self.dim, self.weight, self.extent = dim, weight, extent
        self.split: tuple[_Digit, _Digit, int] | None = None  # (high, low, factor) once split

    def split_at(self, factor: int) -> None:
        # The high digit may run past the dimension's end (ceil): the input
        # bound, a constraint like any mask, keeps those positions unwritten.
        high = _Digit(self.dim, self.weight * factor, -(-self.extent // factor))
        low = _Digit(self.dim, self.weight, factor)
        self.split = (high, low, factor)


class _Unsupported(Exception):
    pass


Terms = list  # [(digit, place)]: the value sum(digit * place)


def _atoms(terms: Terms) -> Terms:
    """``terms`` over digits that are not split (splits happen after a value is built)."""
    out: Terms = []
    stack = list(terms)
    while stack:
        digit, place = stack.pop()
        if digit.split is None:
            out.append((digit, place))
        else:
            high, low, factor = digit.split
            stack.append((high, place * factor))
            stack.append((low, place))
    return out


def _max(terms: Terms) -> int:
    return sum((d.extent - 1) * p for d, p in terms)


def _check_radix(terms: Terms) -> Terms:
    """``terms`` sorted by place, outermost first, if they never carry into each other."""
    # A digit of extent 1 is always 0: it adds nothing and cannot collide.
    ordered = sorted((t for t in terms if t[0].extent > 1), key=lambda t: -t[1])
    below = 0
    for digit, place in reversed(ordered):
        if place <= below:
            raise _Unsupported
        below += (digit.extent - 1) * place
    if len({id(d) for d, _ in ordered}) != len(ordered):
        raise _Unsupported
    return ordered


def _delinearize(terms: Terms, basis: Sequence[int], count: int) -> list[Terms]:
    if count == len(basis) + 1:
        basis = [0, *basis]
    if len(basis) != count or any(b <= 0 for b in basis[1:]):
        raise _Unsupported
    # places[j]: the place value of result j (the product of the inner bases).
    places = [1] * count
    for j in range(count - 2, -1, -1):
        places[j] = places[j + 1] * basis[j + 1]
    for boundary in places[:-1]:
        # A digit whose range crosses a boundary is split there, if it can be.
        changed = True
        while changed:
            changed = False
            for digit, place in _atoms(terms):
                if place < boundary < place * digit.extent:
                    if boundary % place:
                        raise _Unsupported
                    digit.split_at(boundary // place)
                    changed = True
                    break
        atoms = _atoms(terms)
        if any(p >= boundary and p % boundary for _, p in atoms):
            raise _Unsupported
        if _max([(d, p) for d, p in atoms if p < boundary]) >= boundary:
            raise _Unsupported  # the digits below the boundary could carry
    atoms = _atoms(terms)
    results: list[Terms] = []
    for j in range(count):
        upper = places[j - 1] if j > 0 else None
        part = [(d, p // places[j]) for d, p in atoms if p >= places[j] and (upper is None or p < upper)]
        if j > 0 and _max(part) >= basis[j]:
            raise _Unsupported  # `% basis[j]` would wrap
        results.append(part)
    return results


def _linearize(parts: Sequence[Terms], basis: Sequence[int]) -> Terms:
    # As the interpreter's affine.linearize_index: the outermost bound may be omitted.
    strides = list(basis[len(basis) - len(parts) + 1 :]) if len(basis) >= len(parts) else list(basis)
    if len(strides) != len(parts) - 1:
        raise _Unsupported
    terms: Terms = []
    place = 1
    for position in range(len(parts) - 1, -1, -1):
        terms += [(d, p * place) for d, p in parts[position]]
        if position > 0:
            place *= strides[position - 1]
    return terms


_ULT, _ULE, _SLT, _SLE = 6, 7, 2, 3


class ScatterPlan:
    """Where each input element goes: strided copies, one per box of digit ranges."""

    def __init__(self, digits: list[_Digit], out_places: list[list[tuple[_Digit, int]]], boxes: list[dict]):
        self.digits = digits  # every unsplit digit of the input
        self.out_places = out_places  # per output dim: (digit, place)
        self.boxes = boxes  # each: digit -> (start, stop); missing digits run fully
        # A plan is reused for every call with the same sizes (PlanCache): its
        # element count and bounds checks are kept.
        self._count: int | None = None
        self._in_bounds: dict[tuple[int, ...], bool] = {}
        self._copies: dict[tuple, list] = {}  # (source strides, output strides, itemsize) -> CopySteps per box

    def _box_ranges(self, box: dict) -> list[tuple[int, int]]:
        return [box.get(d, (0, d.extent)) for d in self.digits]

    def count(self) -> int:
        if self._count is None:
            self._count = sum(
                int(np.prod([b - a for a, b in self._box_ranges(box)], dtype=np.int64)) for box in self.boxes
            )
        return self._count

    def in_bounds(self, output_shape: Sequence[int]) -> bool:
        key = tuple(int(n) for n in output_shape)
        known = self._in_bounds.get(key)
        if known is None:
            known = self._in_bounds[key] = self._check_bounds(key)
        return known

    def _check_bounds(self, output_shape: Sequence[int]) -> bool:
        for box in self.boxes:
            ranges = dict(zip(map(id, self.digits), self._box_ranges(box)))
            for extent, terms in zip(output_shape, self.out_places):
                if sum((ranges[id(d)][1] - 1) * p for d, p in terms) >= extent:
                    return False
        return True

    def copy(self, source: np.ndarray, output: np.ndarray) -> None:
        """Write every planned input element of ``source`` into ``output`` (in place)."""
        # The raw copies depend on the strides alone: a repeated relayout finds them made.
        key = (source.strides, output.strides, source.dtype.itemsize)
        steps = self._copies.get(key)
        if steps is None:
            steps = self._copies[key] = self._copy_steps(source, output)
        _run_copy_steps(source, output, steps)

    def _copy_steps(self, source: np.ndarray, output: np.ndarray) -> list[CopySteps]:
        out_stride = {id(d): 0 for d in self.digits}
        for stride, terms in zip(output.strides, self.out_places):
            for d, p in terms:
                out_stride[id(d)] += p * stride
        src_strides = [d.weight * source.strides[d.dim] for d in self.digits]
        dst_strides = [out_stride[id(d)] for d in self.digits]
        copies: list[CopySteps] = []
        for box in self.boxes:
            ranges = self._box_ranges(box)
            shape = [b - a for a, b in ranges]
            if 0 in shape:
                continue
            src_offset = sum(a * s for (a, _), s in zip(ranges, src_strides))
            dst_offset = sum(a * s for (a, _), s in zip(ranges, dst_strides))
            copies.append(_copy_steps(src_offset, dst_offset, shape, src_strides, dst_strides, source.dtype.itemsize))
        return copies


    def view(self, source: np.ndarray, output_shape: Sequence[int]) -> np.ndarray | None:
        """The output as a read-only view of ``source``, when the plan writes every output element
        and each output index walks the input at one stride; else None."""
        if self.count() != math.prod(output_shape):
            return None
        strides = []
        for extent, terms in zip(output_shape, self.out_places):
            # Ascending places must be an exact mixed radix (1, e0, e0*e1, ...) and the
            # input strides of the digits proportional to them.
            ordered = sorted(terms, key=lambda t: t[1])
            step = None
            place = 1
            for digit, digit_place in ordered:
                stride = digit.weight * source.strides[digit.dim]
                if digit_place != place or (step is not None and stride != step * place):
                    return None
                if step is None:
                    step = stride
                place *= digit.extent
            if step is None and extent != 1:
                return None
            strides.append(step or 0)
        low, high = _byte_extent(output_shape, strides)
        source_low, source_high = _byte_extent(source.shape, source.strides)
        if low < source_low or high > source_high:
            return None  # not a view of `source` after all: the caller copies
        return np.lib.stride_tricks.as_strided(source, tuple(output_shape), tuple(strides), writeable=False)


def copy_into(target: np.ndarray, value: np.ndarray) -> None:
    """``target[...] = value`` for arrays of one shape and dtype, at any strides, as fast as numpy can."""
    if target.shape != value.shape or target.dtype != value.dtype or target.dtype.hasobject:
        target[...] = value
        return
    if value.size == 0:
        return
    if not target.flags.writeable:
        raise ValueError("assignment destination is read-only")
    if np.may_share_memory(target, value):
        if (
            target.__array_interface__["data"][0] == value.__array_interface__["data"][0]
            and target.strides == value.strides
        ):
            return  # the value is already where it is stored (a product computed in place)
        value = value.copy()  # read it all before any of it is overwritten
    _strided_copy(value, 0, target, 0, list(value.shape), list(value.strides), list(target.strides))


class _View:
    """An ``__array_interface__`` holder: a view of another array's memory at any strides."""

    def __init__(self, interface: dict, base: np.ndarray):
        self.__array_interface__ = interface
        self.base = base


def _byte_extent(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, int]:
    """The lowest and highest byte offsets (from the first element) an array of this shape and strides touches."""
    low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    return low, high


def _raw_view(array: np.ndarray, offset: int, shape: Sequence[int], strides: Sequence[int], itemsize: int) -> np.ndarray:
    # The view is built from a raw pointer, which numpy cannot check: refuse one
    # that would reach outside `array`'s memory rather than read or write past it.
    low, high = _byte_extent(shape, strides)
    array_low, array_high = _byte_extent(array.shape, array.strides)
    if offset + low < array_low or offset + high + itemsize > array_high + array.itemsize:
        raise ValueError("relayout copy outside its array (a planning error)")
    pointer, read_only = array.__array_interface__["data"]
    interface = {
        "data": (pointer + offset, read_only),
        "shape": tuple(shape),
        "strides": tuple(strides),
        # Elements are moved as raw bits; numpy's strided loops move unsigned
        # integers faster than opaque void items of the same size.
        "typestr": f"|u{itemsize}" if itemsize in (1, 2, 4, 8) else f"|V{itemsize}",
        "version": 3,
    }
    return np.asarray(_View(interface, array))


def _strided_copy(source, src_offset, output, dst_offset, shape, src_strides, dst_strides) -> None:
    """``output`` viewed at ``dst_strides`` = ``source`` viewed at ``src_strides`` (bytes, same shape).

    Elements are copied as raw bytes. Axes are ordered by the output's strides
    and merged where both sides allow; a short innermost run that is contiguous
    on both sides is copied as one wider element, which numpy moves several
    times faster than a loop of a few floats.
    """
    copies = _copy_steps(src_offset, dst_offset, shape, src_strides, dst_strides, source.dtype.itemsize)
    _run_copy_steps(source, output, [copies])


# The raw copies of one strided copy (geometry only: no array is read): ``(in place,
# steps, shape)``, where ``in place`` is ``(src offset, dst offset)`` when both sides have
# the same strides (nothing to copy if that is the same memory), each step is ``(src
# offset, dst offset, shape, src strides, dst strides, item size)`` in bytes, and ``shape``
# is the copy's own.
CopySteps = tuple


def _copy_steps(src_offset, dst_offset, shape, src_strides, dst_strides, itemsize: int) -> CopySteps:
    if 0 in shape:
        return None, [], shape
    in_place = (src_offset, dst_offset) if list(src_strides) == list(dst_strides) else None
    axes = sorted((i for i in range(len(shape)) if shape[i] > 1), key=lambda i: (-abs(dst_strides[i]), -abs(src_strides[i])))
    merged: list[list[int]] = []  # [extent, src stride, dst stride]
    for i in axes:
        if merged:
            extent, s, d = merged[-1]
            if s == src_strides[i] * shape[i] and d == dst_strides[i] * shape[i]:
                merged[-1] = [extent * shape[i], src_strides[i], dst_strides[i]]
                continue
        merged.append([shape[i], src_strides[i], dst_strides[i]])
    if merged and merged[-1][1] == merged[-1][2] == itemsize and merged[-1][0] * itemsize <= 256 and len(merged) > 1:
        extent = merged.pop()[0]
        itemsize *= extent
    src_strides_ = [m[1] for m in merged]
    dst_strides_ = [m[2] for m in merged]
    steps = []
    for starts, shape_ in _cache_blocks(merged):
        src_at = src_offset + sum(a * s for a, s in zip(starts, src_strides_))
        dst_at = dst_offset + sum(a * s for a, s in zip(starts, dst_strides_))
        steps.append((src_at, dst_at, shape_, src_strides_, dst_strides_, itemsize))
    return in_place, steps, shape


def _run_copy_steps(source: np.ndarray, output: np.ndarray, copies: Sequence[CopySteps]) -> None:
    source_at = source.__array_interface__["data"][0]
    output_at = output.__array_interface__["data"][0]
    for in_place, steps, shape in copies:
        if in_place is not None and source_at + in_place[0] == output_at + in_place[1]:
            continue  # every element is already where it goes (a product computed in its unpack's destination)
        _copy_box(source, output, steps, shape)


def _copy_box(source: np.ndarray, output: np.ndarray, steps: list[tuple], shape: Sequence[int]) -> None:
    """The raw copies of one box (of ``shape``, before its axes are merged)."""
    for src_at, dst_at, shape_, src_strides_, dst_strides_, itemsize in steps:
        dst = _raw_view(output, dst_at, shape_, dst_strides_, itemsize)
        src = _raw_view(source, src_at, shape_, src_strides_, itemsize)
        _copy_view(dst, src, itemsize)


def _copy_view(dst: np.ndarray, src: np.ndarray, itemsize: int) -> None:
    """``dst[...] = src`` for raw views whose axes are in the output's order (innermost last).

    ``np.copyto`` always walks the output's order: its innermost loop runs along
    the axis contiguous in the output. When that axis is short (a pack writes
    tiles of 8 elements) while another axis is long and contiguous in the
    source (the matrix rows the tiles gather from), numpy's per-inner-loop cost
    dominates. A ufunc keeps the axis order it is given when its operands
    disagree on the best one: ``np.positive`` on the unsigned-integer views
    (an exact bit copy) then runs the long source axis innermost.
    """
    inner = dst.ndim - 1
    if dst.ndim > 1 and itemsize in (1, 2, 4, 8) and abs(dst.strides[inner]) == itemsize:
        candidates = [i for i in range(inner) if abs(src.strides[i]) == itemsize]
        if candidates:
            axis = max(candidates, key=lambda i: dst.shape[i])
            if dst.shape[axis] >= 4 * dst.shape[inner]:
                order = [i for i in range(dst.ndim) if i != axis] + [axis]
                np.positive(src.transpose(order), out=dst.transpose(order))
                return
    np.copyto(dst, src)


# numpy copies in the output's order. When one step of the outermost output axis
# walks the source across more than this many bytes (a pack's tiles gather rows
# from the whole matrix), the source no longer stays in cache between steps:
# the copy is cut into slabs of the axis that jumps furthest in the source.
_SOURCE_BLOCK_BYTES = 1 << 20


def _cache_blocks(merged: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    """``(starts, shape)`` of the slabs to copy one after another (the whole copy when it is cache-friendly)."""
    shape = [m[0] for m in merged]
    if len(merged) < 2:
        return [([0] * len(shape), shape)]
    span = sum((extent - 1) * abs(src) for extent, src, _ in merged[1:])
    axis = max(range(1, len(merged)), key=lambda i: abs(merged[i][1]))
    step = max(1, _SOURCE_BLOCK_BYTES // max(1, abs(merged[axis][1])))
    if span <= _SOURCE_BLOCK_BYTES or step >= shape[axis]:
        return [([0] * len(shape), shape)]
    blocks = []
    for start in range(0, shape[axis], step):
        starts = [0] * len(shape)
        starts[axis] = start
        block = list(shape)
        block[axis] = min(step, shape[axis] - start)
        blocks.append((starts, block))
    return blocks


def _box_list(terms: Terms, bound: int) -> list[dict]:
    """The digit ranges where ``sum(terms) < bound``, as disjoint boxes (terms outermost first, no carry)."""
    if bound <= 0:
        return []
    if not terms:
        return [{}]
    (digit, place), rest = terms[0], terms[1:]
    quotient, remainder = divmod(bound, place)
    if quotient >= digit.extent:
        return [{}]
    boxes = [{digit: (0, quotient)}] if quotient > 0 else []
    for box in _box_list(rest, remainder):
        box[digit] = (quotient, quotient + 1)
        boxes.append(box)
    return boxes


def _intersect(a: dict, b: dict) -> dict | None:
    box = dict(a)
    for digit, (start, stop) in b.items():
        if digit in box:
            start, stop = max(start, box[digit][0]), min(stop, box[digit][1])
            if start >= stop:
                return None
        box[digit] = (start, stop)
    return box


def scatter_plan(block: Block, source_shape: Sequence[int], outer_value) -> ScatterPlan | None:
    """The plan of a ``map_scatter`` body over an input of ``source_shape``, or None.

    ``outer_value(v)`` is the runtime value of an SSA value defined outside the
    body (a dimension, a bound).
    """
    try:
        return _plan(block, list(source_shape), outer_value)
    except _Unsupported:
        return None


class PlanCache:
    """Plans already made, per ``map_scatter`` body: a body runs once per call of its
    dispatch, and planning costs more than a small copy.

    A plan depends on the input shape and on the outer values the body read
    while it was planned (dynamic dims, bounds); it is reused only when all of
    them are the same again.
    """

    KEPT = 8  # plans kept per body

    def __init__(self) -> None:
        self._entries: dict[Block, list[tuple[tuple[int, ...], list[tuple[SSAValue, int]], ScatterPlan | None]]] = {}

    def plan(self, block: Block, source_shape: Sequence[int], outer_value, make=None) -> ScatterPlan | None:
        """``make(block, source_shape, outer_value)`` (default :func:`scatter_plan`), or the plan it made before."""
        shape = tuple(int(n) for n in source_shape)
        entries = self._entries.setdefault(block, [])
        for known_shape, reads, plan in entries:
            if known_shape == shape and all(_same_scalar(outer_value(v), x) for v, x in reads):
                return plan
        reads: list[tuple[SSAValue, Any]] = []

        def recorded(value: SSAValue) -> Any:
            result = outer_value(value)
            reads.append((value, result))
            return result

        plan = (make or scatter_plan)(block, shape, recorded)
        if all(np.ndim(x) == 0 for _, x in reads):
            # A few shapes per body are kept (a program called on ever new
            # shapes must not grow the cache without end).
            del entries[: max(0, len(entries) - self.KEPT + 1)]
            entries.append((shape, reads, plan))
        return plan


def _same_scalar(value: Any, known: Any) -> bool:
    return np.ndim(value) == 0 and value == known


def _plan(block: Block, shape: list[int], outer_value) -> ScatterPlan:
    # Imported here: copy_into serves every linalg program, and the affine dialect
    # brings xDSL's memref with it, a cost at start-up only map_scatter bodies need.
    from xdsl.dialects import arith

    from mini_iree.dialects import affine

    if not shape or len(block.args) != len(shape):
        raise _Unsupported
    roots = [_Digit(dim, 1, extent) for dim, extent in enumerate(shape)]
    env: dict[SSAValue, Any] = {arg: [(root, 1)] for arg, root in zip(block.args, roots)}

    def concrete(value: SSAValue) -> int:
        if value in env:
            known = env[value]
            if isinstance(known, int):
                return known
            raise _Unsupported
        result = outer_value(value)
        if np.ndim(result) != 0:
            raise _Unsupported
        return int(result)

    def number(value: SSAValue) -> Terms:
        known = env.get(value)
        if isinstance(known, list):
            return known
        if concrete(value) == 0:
            return []
        raise _Unsupported  # a constant offset: not a digit renaming

    def basis(static, dynamic) -> list[int]:
        values = iter(dynamic)
        return [concrete(next(values)) if s == DYNAMIC_INDEX else int(s) for s in static]

    masks: dict[SSAValue, list] = {}

    def mask(value: SSAValue) -> list:
        if value in masks:
            return masks[value]
        if concrete(value) & 1:
            return []
        raise _Unsupported  # a constant false mask: nothing to plan

    ops = list(block.ops)
    for op in ops[:-1]:
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            env[op.result] = int(op.value.value.data)
        elif isinstance(op, affine.LinearizeIndexOp):
            parts = [number(v) for v in op.multi_index]
            env[op.linear_index] = _linearize(parts, basis(op.static_basis.get_values(), op.dynamic_basis))
        elif isinstance(op, affine.DelinearizeIndexOp):
            results = _delinearize(
                number(op.linear_index), basis(op.static_basis.get_values(), op.dynamic_basis), len(op.multi_index)
            )
            for value, terms in zip(op.multi_index, results):
                env[value] = terms
        elif isinstance(op, arith.CmpiOp):
            predicate = op.predicate.value.data
            if predicate not in (_ULT, _ULE, _SLT, _SLE):
                raise _Unsupported
            bound = concrete(op.rhs) + (1 if predicate in (_ULE, _SLE) else 0)
            if bound < 0 and predicate in (_ULT, _ULE):
                raise _Unsupported  # unsigned, a negative bound is a huge one
            masks[op.result] = [(number(op.lhs), bound)]
        elif isinstance(op, arith.AndIOp):
            masks[op.result] = mask(op.lhs) + mask(op.rhs)
        else:
            raise _Unsupported
    terminator = ops[-1] if ops else None
    if terminator is None or not terminator.operands:
        raise _Unsupported

    *index_values, mask_value = terminator.operands
    constraints = mask(mask_value)
    outputs = [_check_radix(_atoms(number(v))) for v in index_values]
    digits = [d for d, _ in _atoms([(root, 1) for root in roots])]
    # Each digit must land in exactly one output index (or not vary): then
    # different input elements never meet in one output element.
    seen = [id(d) for terms in outputs for d, _ in terms]
    if len(seen) != len(set(seen)) or any(d.extent > 1 and id(d) not in seen for d in digits):
        raise _Unsupported
    # The input's own bounds cut the digits that run past a dimension's end.
    by_dim: dict[int, Terms] = {}
    for d in digits:
        by_dim.setdefault(d.dim, []).append((d, d.weight))
    constraints = [(terms, extent) for dim, extent in enumerate(shape) for terms in [by_dim.get(dim, [])]] + [
        (_atoms(terms), bound) for terms, bound in constraints
    ]
    boxes: list[dict] = [{}]
    for terms, bound in constraints:
        options = _box_list(_check_radix(terms), bound)
        boxes = [b for b in (_intersect(x, y) for x in boxes for y in options) if b is not None]
    # Boxes are keyed by digit objects; the plan keys them the same way.
    return ScatterPlan(digits, outputs, boxes)
