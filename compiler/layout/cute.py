"""CuTe layouts: `(shape):(stride)` with nesting, and CuTe's layout algebra.

A CuTe layout (CUTLASS's `cute::Layout`) maps a coordinate to an offset by an
inner product with its strides. Shape and stride are congruent integer trees
(`(2,(3,4)):(1,(2,6))`); a 1-D index is read colexicographically (the leftmost
mode varies fastest) and a mode's own 1-D index splits over its sub-modes the
same way. There is no padding in a CuTe layout, and nothing forces it to be
one-to-one: stride 0 broadcasts, gaps between strides leave holes.

The algebra follows CuTe's definitions (docs `02_layout_algebra.md` and the
reference implementation `pycute`):

- `coalesce`: the same function with the fewest modes (drop size-1 modes, merge
  `s0:d0 ++ s1:s0*d0` into `s0*s1:d0`);
- `composition(A, B)`: `R(c) = A(B(c))`, with B's shape; B may be a tiler (a
  tuple of layouts applied mode by mode);
- `complement(A, M)`: the layout of "the rest", so that `(A, A*)` is one-to-one
  and covers `M`;
- `right_inverse` / `left_inverse`; `logical_divide` / `logical_product` and
  their zipped, tiled, flat, blocked and raked forms.

Every function here refuses (CuteError) where CuTe's static checks would (the
stride divisibility condition of composition, a complement that overlaps).
Offsets of every element come from `offsets` / `coordinate_grid` as whole numpy
arrays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod

import numpy as np

IntTuple = int | tuple["IntTuple", ...]


class CuteError(ValueError):
    """A CuTe layout that cannot be read or an operation CuTe's checks reject."""


# ===----------------------------------------------------------------------=== #
# Integer trees
# ===----------------------------------------------------------------------=== #


def flatten(t: IntTuple) -> tuple[int, ...]:
    if isinstance(t, tuple):
        return tuple(x for item in t for x in flatten(item))
    return (t,)


def product(t: IntTuple) -> int:
    return prod(flatten(t)) if isinstance(t, tuple) else t


def congruent(a: IntTuple, b: IntTuple) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return not isinstance(a, tuple) and not isinstance(b, tuple)


def prefix_product(shape: IntTuple, init: int = 1) -> IntTuple:
    """Column-major (compact, leftmost fastest) strides of `shape`: CuTe's default stride."""
    if not isinstance(shape, tuple):
        return init
    out = []
    for mode in shape:
        out.append(prefix_product(mode, init))
        init *= product(mode)
    return tuple(out)


def format_int_tuple(t: IntTuple) -> str:
    if isinstance(t, tuple):
        return "(" + ",".join(format_int_tuple(x) for x in t) + ")"
    return str(t)


# ===----------------------------------------------------------------------=== #
# Layout
# ===----------------------------------------------------------------------=== #


@dataclass(frozen=True)
class Layout:
    """`shape:stride`, two congruent integer trees (`Layout(8)` is `8:1`)."""

    shape: IntTuple
    stride: IntTuple = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.stride is None:
            object.__setattr__(self, "stride", prefix_product(self.shape))
        if not congruent(self.shape, self.stride):
            raise CuteError(
                f"shape {format_int_tuple(self.shape)} and stride {format_int_tuple(self.stride)} are not congruent"
            )
        if any(s < 0 for s in flatten(self.shape)):
            raise CuteError(f"shape {format_int_tuple(self.shape)} has a negative size")

    # -- tuple-like -------------------------------------------------------------

    def __len__(self) -> int:
        """The rank: the number of top-level modes (an integer shape has rank 1)."""
        return len(self.shape) if isinstance(self.shape, tuple) else 1

    def __getitem__(self, i: int) -> Layout:
        if isinstance(self.shape, tuple):
            return Layout(self.shape[i], self.stride[i])  # type: ignore[index]
        if i != 0:
            raise IndexError(i)
        return self

    def modes(self) -> list[Layout]:
        return [self[i] for i in range(len(self))]

    def __str__(self) -> str:
        return f"{format_int_tuple(self.shape)}:{format_int_tuple(self.stride)}"

    # -- the function ----------------------------------------------------------

    def size(self) -> int:
        return product(self.shape)

    def cosize(self) -> int:
        """One past the largest offset (CuTe's `cosize`: `L(size-1) + 1`)."""
        return self(self.size() - 1) + 1 if self.size() else 0

    def __call__(self, coord: IntTuple) -> int:
        return _crd2idx(coord, self.shape, self.stride)

    def offsets(self) -> np.ndarray:
        """The offset of every 1-D index 0..size-1 (colexicographic), one numpy array."""
        index = np.arange(self.size(), dtype=np.int64)
        total = np.zeros_like(index)
        for size, stride in zip(flatten(self.shape), flatten(self.stride)):
            total += (index % size) * stride if size else 0
            index = index // size if size else index
        return total

    def coordinate_grid(self) -> np.ndarray:
        """Offsets indexed by top-level mode coordinates: `grid[c0, c1, ...] = L((c0, c1, ...))`."""
        modes = self.modes()
        grid = np.zeros([m.size() for m in modes], dtype=np.int64)
        for axis, mode in enumerate(modes):
            shape = [1] * len(modes)
            shape[axis] = mode.size()
            grid = grid + mode.offsets().reshape(shape)
        return grid


def _crd2idx(coord: IntTuple, shape: IntTuple, stride: IntTuple) -> int:
    if isinstance(coord, tuple):
        if not isinstance(shape, tuple) or len(coord) != len(shape):
            raise CuteError(f"coordinate {format_int_tuple(coord)} does not match shape {format_int_tuple(shape)}")
        return sum(_crd2idx(c, s, d) for c, s, d in zip(coord, shape, stride))  # type: ignore[arg-type]
    if isinstance(shape, tuple):
        # A 1-D index into a nested mode: colexicographic; the last sub-mode takes the rest.
        total = 0
        for s, d in zip(shape[:-1], stride[:-1]):  # type: ignore[index]
            total += _crd2idx(coord % product(s), s, d)
            coord //= product(s)
        return total + _crd2idx(coord, shape[-1], stride[-1])  # type: ignore[index]
    return coord * stride  # type: ignore[operator]


def make_layout(*layouts: Layout) -> Layout:
    """Concatenate layouts as the modes of a new one (CuTe's `make_layout(a, b, ...)`)."""
    return Layout(tuple(l.shape for l in layouts), tuple(l.stride for l in layouts))


# ===----------------------------------------------------------------------=== #
# Reading and printing CuTe's notation
# ===----------------------------------------------------------------------=== #

MAX_NESTING = 32
"""Deeper shapes are not layouts anyone writes; the limit keeps reading them iterative-safe."""

_TOKEN = re.compile(r"\s*(?:(_?-?\d+)|(.))")


def parse_cute(text: str) -> Layout:
    """`(2,(3,4)):(1,(2,6))`, CuTe's printed form.

    Spaces are allowed (pycute prints `(2, (3, 4)):(1, (2, 6))`), a leading `_`
    marks a static integer in CuTe's C++ print (`_8:_1`), and a shape alone
    (`(4,8)`) gets the compact column-major strides, as `make_layout(shape)` does.
    """
    tokens: list[str] = []
    for match in _TOKEN.finditer(text):
        if match.group(1):
            tokens.append(match.group(1).lstrip("_"))
        elif match.group(2) and not match.group(2).isspace():
            tokens.append(match.group(2))
    if not tokens:
        raise CuteError("expected a CuTe layout such as '(4,8):(1,4)', got an empty string")
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def expect(token: str) -> None:
        nonlocal position
        if peek() != token:
            found = f"'{peek()}'" if peek() is not None else "the end"
            raise CuteError(f"cannot read CuTe layout '{text}': expected '{token}', found {found}")
        position += 1

    def int_tuple(depth: int = 0) -> IntTuple:
        nonlocal position
        token = peek()
        if token == "(":
            if depth >= MAX_NESTING:
                raise CuteError(f"cannot read CuTe layout: modes nest deeper than {MAX_NESTING} levels")
            position += 1
            items = [int_tuple(depth + 1)]
            while peek() == ",":
                position += 1
                items.append(int_tuple(depth + 1))
            expect(")")
            return tuple(items)
        if token is not None and re.fullmatch(r"-?\d+", token):
            position += 1
            return int(token)
        found = f"'{token}'" if token is not None else "the end"
        raise CuteError(f"cannot read CuTe layout '{text}': expected an integer or '(', found {found}")

    shape = int_tuple()
    stride = None
    if peek() == ":":
        position += 1
        stride = int_tuple()
    if peek() is not None:
        raise CuteError(f"cannot read CuTe layout '{text}': unexpected '{peek()}'")
    return Layout(shape, stride)


def looks_like_cute(text: str) -> bool:
    """A CuTe layout starts with a shape (`(` or a digit); an XLA shape with an element type name."""
    stripped = text.lstrip()
    swizzled = stripped.startswith(("Sw<", "SW_"))  # cute_swizzle.py
    return swizzled or bool(stripped) and (stripped[0] in "(_" or stripped[0].isdigit())


# ===----------------------------------------------------------------------=== #
# The algebra
# ===----------------------------------------------------------------------=== #


def coalesce(layout: Layout, profile: IntTuple | None = None) -> Layout:
    """The same function with as few modes as possible; with a `profile` tuple, mode by mode."""
    if isinstance(profile, tuple):
        if len(layout) < len(profile):
            raise CuteError(f"coalesce: profile {format_int_tuple(profile)} has more modes than {layout}")
        return make_layout(
            *(coalesce(layout[i], profile[i]) for i in range(len(profile))),
            *(layout[i] for i in range(len(profile), len(layout))),
        )
    shapes, strides = [1], [0]
    for s, d in zip(flatten(layout.shape), flatten(layout.stride)):
        if s == 1:
            continue  # a size-1 mode changes no offset
        if shapes[-1] == 1:
            shapes[-1], strides[-1] = s, d
        elif shapes[-1] * strides[-1] == d:
            shapes[-1] *= s  # s0:d0 ++ s1:s0*d0 => s0*s1:d0
        else:
            shapes.append(s)
            strides.append(d)
    if len(shapes) == 1:
        return Layout(shapes[0], strides[0])
    return Layout(tuple(shapes), tuple(strides))


def filter_layout(layout: Layout) -> Layout:
    """CuTe's `filter`: drop size-1 and stride-0 modes, then coalesce (`1:0` when nothing is left)."""
    kept = [(s, d) for s, d in zip(flatten(layout.shape), flatten(layout.stride)) if s != 1 and d != 0]
    if not kept:
        return Layout(1, 0)
    return coalesce(Layout(tuple(s for s, _ in kept), tuple(d for _, d in kept)))


Tiler = Layout | int | tuple


def _nonempty(layout: Layout, op: str) -> None:
    """CuTe's algebra divides by sizes: a size-0 mode has no meaning there."""
    if 0 in flatten(layout.shape):
        raise CuteError(f"{op}: {layout} has a size-0 mode")


def _as_layout(b: Layout | int) -> Layout:
    return b if isinstance(b, Layout) else Layout(b)


def composition(a: Layout, b: Tiler) -> Layout:
    """`A o B`: `R(c) = A(B(c))` for every coordinate `c` of B.

    A tuple `b` is a tiler: its i-th entry composes with A's i-th mode. A
    nested B composes mode by mode (left distributivity). For a single mode
    `s:d`, A is divided by `d` and then kept to `s` elements; each step needs
    CuTe's stride divisibility condition, which this checks.
    """
    if isinstance(b, tuple):
        if len(a) < len(b):
            raise CuteError(f"composition: tiler with {len(b)} modes on {a}, which has {len(a)}")
        return make_layout(
            *(composition(a[i], b[i]) for i in range(len(b))), *(a[i] for i in range(len(b), len(a)))
        )
    b = _as_layout(b)
    if isinstance(b.shape, tuple):
        return make_layout(*(composition(a, mode) for mode in b.modes()))
    _nonempty(a, "composition")
    _nonempty(b, "composition")
    rest_shape, rest_stride = b.shape, b.stride
    assert isinstance(rest_shape, int) and isinstance(rest_stride, int)
    if rest_stride == 0:
        return Layout(rest_shape, 0)
    flat = coalesce(a)
    a_shapes, a_strides = flatten(flat.shape), flatten(flat.stride)
    shapes: list[int] = []
    strides: list[int] = []
    for s, d in zip(a_shapes[:-1], a_strides[:-1]):
        if not (s % rest_stride == 0 or rest_stride % s == 0):
            raise CuteError(f"composition {a} o {b}: stride {rest_stride} does not divide shape {s} (nor the reverse)")
        new_shape = min(max(1, s // rest_stride), rest_shape)
        if new_shape != 1:
            shapes.append(new_shape)
            strides.append(rest_stride * d)
        if rest_shape % new_shape:
            raise CuteError(f"composition {a} o {b}: shape {rest_shape} is not divisible by {new_shape}")
        rest_shape //= new_shape
        rest_stride = -(-rest_stride // s)
    if rest_shape != 1 or not shapes:
        shapes.append(rest_shape)
        strides.append(rest_stride * a_strides[-1])
    if len(shapes) == 1:
        return Layout(shapes[0], strides[0])
    return Layout(tuple(shapes), tuple(strides))


def complement(layout: Layout | int, cotarget: int = 1) -> Layout:
    """`A*` for `A` within `cotarget`: `(A, A*)` is one-to-one and its cosize reaches `cotarget`.

    Modes are taken in stride order; each must end no earlier than where the
    previous one ended (the bound CuTe asserts).
    """
    layout = _as_layout(layout)
    _nonempty(layout, "complement")
    shapes: list[int] = []
    strides: list[int] = []
    current = 1
    for d, s in sorted(zip(flatten(layout.stride), flatten(layout.shape))):
        if d == 0 or s == 1:
            continue
        if d < 0 or current > s * d or d < current:
            raise CuteError(f"complement of {layout}: its modes overlap (it is not one-to-one) or run backwards")
        shapes.append(d // current)
        strides.append(current)
        current = s * d
    shapes.append(-(-cotarget // current))
    strides.append(current)
    return coalesce(Layout(tuple(shapes), tuple(strides)))


def right_inverse(layout: Layout | int) -> Layout:
    """`R` with `L(R(i)) == i` for every `i < size(R)`: the longest contiguous run of L's image."""
    layout = _as_layout(layout)
    shapes: list[int] = []
    strides: list[int] = []
    current = 1
    flat_shape = flatten(layout.shape)
    for d, s, r in sorted(zip(flatten(layout.stride), flat_shape, flatten(prefix_product(flat_shape)))):
        if s == 1:
            continue
        if d != current:
            break
        shapes.append(s)
        strides.append(r)
        current = s * d
    return coalesce(Layout(tuple(shapes), tuple(strides)))


def left_inverse(layout: Layout | int) -> Layout:
    """`R` with `R(L(i)) == i` for every `i < size(L)` (L one-to-one): the right inverse of `(L, L*)`."""
    layout = _as_layout(layout)
    return right_inverse(make_layout(layout, complement(layout)))


def logical_divide(a: Layout, b: Tiler) -> Layout:
    """`A / B = A o (B, B*)`: mode 0 the elements B picks (the tile), mode 1 the tiles."""
    if isinstance(b, tuple):
        if len(a) < len(b):
            raise CuteError(f"logical_divide: tiler with {len(b)} modes on {a}, which has {len(a)}")
        return make_layout(
            *(logical_divide(a[i], b[i]) for i in range(len(b))), *(a[i] for i in range(len(b), len(a)))
        )
    b = _as_layout(b)
    return composition(a, make_layout(b, complement(b, a.size())))


def logical_product(a: Layout, b: Tiler) -> Layout:
    """`A x B = (A, A* o B)`: A, repeated as B says, in the room A leaves free."""
    if isinstance(b, tuple):
        if len(a) < len(b):
            raise CuteError(f"logical_product: tiler with {len(b)} modes on {a}, which has {len(a)}")
        return make_layout(
            *(logical_product(a[i], b[i]) for i in range(len(b))), *(a[i] for i in range(len(b), len(a)))
        )
    b = _as_layout(b)
    return make_layout(a, composition(complement(a, a.size() * b.cosize()), b))


def _hier_unzip(splitter, a: Layout, b: Tiler) -> Layout:
    """`((tile modes...), (rest modes..., A's untouched modes...))` (pycute's `hier_unzip`)."""
    if isinstance(b, tuple):
        split = [_hier_unzip(splitter, a[i], b[i]) for i in range(len(b))]
        return make_layout(
            make_layout(*(s[0] for s in split)),
            make_layout(*(s[1] for s in split), *(a[i] for i in range(len(b), len(a)))),
        )
    return splitter(a, b)


def zipped_divide(a: Layout, b: Tiler) -> Layout:
    return _hier_unzip(logical_divide, a, b)


def tiled_divide(a: Layout, b: Tiler) -> Layout:
    result = zipped_divide(a, b)
    return make_layout(result[0], *result[1].modes())


def flat_divide(a: Layout, b: Tiler) -> Layout:
    result = zipped_divide(a, b)
    return make_layout(*result[0].modes(), *result[1].modes())


def zipped_product(a: Layout, b: Tiler) -> Layout:
    return _hier_unzip(logical_product, a, b)


def tiled_product(a: Layout, b: Tiler) -> Layout:
    result = zipped_product(a, b)
    return make_layout(result[0], *result[1].modes())


def _append(layout: Layout, rank: int) -> Layout:
    """Pad `layout` with `1:0` modes up to `rank` (CuTe's `append<R>`)."""
    modes = layout.modes() if isinstance(layout.shape, tuple) else [layout]
    return make_layout(*modes, *[Layout(1, 0)] * (rank - len(modes)))


def blocked_product(a: Layout, b: Layout) -> Layout:
    """Rank-sensitive product: mode i is (A's mode i, then B's mode i), each coalesced."""
    rank = max(len(a), len(b))
    result = logical_product(_append(a, rank), _append(b, rank))
    return coalesce(make_layout(*(make_layout(result[0][i], result[1][i]) for i in range(rank))), (1,) * rank)


def raked_product(a: Layout, b: Layout) -> Layout:
    """Rank-sensitive product: mode i is (B's mode i, then A's mode i): A's elements interleave."""
    rank = max(len(a), len(b))
    result = logical_product(_append(a, rank), _append(b, rank))
    return coalesce(make_layout(*(make_layout(result[1][i], result[0][i]) for i in range(rank))), (1,) * rank)


def is_injective(layout: Layout) -> bool:
    offsets = layout.offsets()
    return len(np.unique(offsets)) == offsets.size


def is_compact(layout: Layout) -> bool:
    """One-to-one onto 0..size-1: a plain (unpadded) buffer, as XLA and IREE store tensors."""
    offsets = layout.offsets()
    return np.array_equal(np.sort(offsets), np.arange(offsets.size))


def parse_tiler(text: str) -> Layout | tuple[Layout, ...]:
    """A layout, or CuTe's by-mode tiler `<3:4, (2,4):(1,8)>` (one layout per mode, as `make_tile` builds)."""
    body = text.strip()
    if not (body.startswith("<") and body.endswith(">")):
        return parse_cute(body)
    entries, depth, start = [], 0, 1
    for position, char in enumerate(body[1:-1], start=1):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            entries.append(body[start:position])
            start = position + 1
    entries.append(body[start:-1])
    if any(not e.strip() for e in entries):
        raise CuteError(f"cannot read tiler '{text}': expected '<layout, layout, ...>'")
    return tuple(parse_cute(e) for e in entries)
