"""CuTe's XOR swizzles: `Sw<B,M,S> o offset o layout` (CuTe's `ComposedLayout` with a `Swizzle`).

`Swizzle<B,M,S>` keeps the M least significant bits of an offset and XORs the
B bits above them with the B bits S places higher (a negative S looks lower):
`offset ^ ((offset & yyy_mask) >> S)`. CUTLASS composes it after a layout so
that the rows of a shared-memory tile fall into different banks. The result is
still one-to-one when the layout is, but it is no longer a sum of strides: XLA
tiles and IREE's pack + swizzle (which only splits and permutes whole dims)
cannot say it, and conversions refuse it as "needs a swizzle".

Printed as CuTe's C++ prints it, `Sw<3,4,3> o 0 o (8,8):(8,1)`; pycute's
`SW_3_4_3 o 0 o (8, 8):(8, 1)` and a missing offset (`Sw<3,4,3> o (8,8):(8,1)`)
are read too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .cute import CuteError, Layout, parse_cute

MAX_BITS = 40
"""Swizzles touch address bits; wider ones are not addresses."""


def _shift_right(values, shift: int):
    return values >> shift if shift >= 0 else values << -shift


@dataclass(frozen=True)
class Swizzle:
    """`Swizzle<bits, base, shift>`: XOR `bits` bits at `base + max(0, shift)` into those `shift` lower."""

    bits: int
    base: int
    shift: int

    def __post_init__(self) -> None:
        if self.bits < 0 or self.base < 0 or abs(self.shift) < self.bits:
            raise CuteError(f"{self}: CuTe needs bits >= 0, base >= 0 and |shift| >= bits")
        if self.bits + self.base + abs(self.shift) > MAX_BITS:
            raise CuteError(f"{self} reaches past bit {MAX_BITS}")

    @property
    def yyy_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + max(0, self.shift))

    def __call__(self, offset):
        """The swizzled offset (an int or a numpy array of them)."""
        return offset ^ _shift_right(offset & self.yyy_mask, self.shift)

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"


@dataclass(frozen=True)
class SwizzledLayout:
    """`swizzle o offset o layout`: `L(c) = swizzle(offset + layout(c))`."""

    swizzle: Swizzle
    offset: int
    layout: Layout

    def __str__(self) -> str:
        return f"{self.swizzle} o {self.offset} o {self.layout}"

    def __len__(self) -> int:
        return len(self.layout)

    def modes(self) -> list[Layout]:
        return self.layout.modes()

    def size(self) -> int:
        return self.layout.size()

    def cosize(self) -> int:
        """One past the largest swizzled offset of the domain."""
        offsets = self.offsets()
        return int(offsets.max()) + 1 if offsets.size else 0

    def __call__(self, coord) -> int:
        return int(self.swizzle(self.offset + self.layout(coord)))

    def offsets(self) -> np.ndarray:
        return self.swizzle(self.offset + self.layout.offsets())

    def coordinate_grid(self) -> np.ndarray:
        return self.swizzle(self.offset + self.layout.coordinate_grid())


_SWIZZLE = re.compile(r"^\s*(?:Sw<\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*>|SW_(\d+)_(\d+)_(-?\d+))\s*o\s+(.*)$", re.S)
_OFFSET = re.compile(r"^_?(-?\d+)\s+o\s+(.*)$", re.S)


def parse_any_cute(text: str) -> Layout | SwizzledLayout:
    """A CuTe layout, or a swizzled one (`Sw<3,4,3> o 0 o (8,8):(8,1)`)."""
    match = _SWIZZLE.match(text)
    if match is None:
        if re.match(r"^\s*(Sw<|SW_)", text):
            raise CuteError(f"cannot read swizzled layout '{text}': expected 'Sw<B,M,S> o [offset o] layout'")
        return parse_cute(text)
    numbers = [g for g in match.groups()[:6] if g is not None]
    swizzle = Swizzle(*(int(n) for n in numbers))
    rest = match.group(7).strip()
    offset = 0
    with_offset = _OFFSET.match(rest)
    if with_offset is not None:
        offset, rest = int(with_offset.group(1)), with_offset.group(2)
    return SwizzledLayout(swizzle, offset, parse_cute(rest))
