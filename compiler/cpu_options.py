"""The two global options of IREE's LLVMCPU codegen that data tiling reads (Codegen/Utils/CPUUtils.cpp).

* `--iree-llvmcpu-enable-scalable-vectorization` (`isScalableVectorizationEnabled`):
  the CPU encoding resolver gives AArch64 `+sve`/`+sve2` and RISC-V `+v`
  targets scalable N tiles (`scalableTiles = [false, true, false]`): the N tile
  is `N0 * vscale` elements, a multiple of the hardware's vector length, known
  only at run time (`vector.vscale`). RISC-V then takes its base tiles for a
  64-bit VLEN, `vscale = VLEN / 64`.
* `--iree-experimental-vscale-value=N` (`getUserVscaleValue`): the value of
  `vscale` host code assumes when it sizes the buffers of scalable layouts
  (IREE cannot query it at run time there yet, iree-org/iree#21317).
  mini-iree's interpreter also runs `vector.vscale` with it (1 when unset), so
  a program materialized with scalable tiles can run for any vector length.

Like the run's era (`compiler/era.py`) each is a context variable that the
tool sets once per run; tests set it with `scalable_vectorization(...)` /
`vscale_value(...)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = [
    "is_scalable_vectorization_enabled",
    "scalable_vectorization",
    "set_scalable_vectorization",
    "set_vscale_value",
    "user_vscale_value",
    "vscale_value",
]

_SCALABLE: ContextVar[bool] = ContextVar("mini_iree_scalable_vectorization", default=False)
# -1: not given (IREE's default); host code then cannot size a scalable layout.
_VSCALE: ContextVar[int] = ContextVar("mini_iree_vscale_value", default=-1)


def is_scalable_vectorization_enabled() -> bool:
    """`--iree-llvmcpu-enable-scalable-vectorization` of this run."""
    return _SCALABLE.get()


def set_scalable_vectorization(enabled: bool) -> None:
    _SCALABLE.set(bool(enabled))


def user_vscale_value() -> int | None:
    """`--iree-experimental-vscale-value` of this run; None when not given (or less than 1)."""
    value = _VSCALE.get()
    return value if value >= 1 else None


def set_vscale_value(value: int) -> None:
    _VSCALE.set(int(value))


@contextmanager
def scalable_vectorization(enabled: bool = True) -> Iterator[None]:
    """Run the body with scalable vectorization enabled (or disabled)."""
    token = _SCALABLE.set(bool(enabled))
    try:
        yield
    finally:
        _SCALABLE.reset(token)


@contextmanager
def vscale_value(value: int) -> Iterator[None]:
    """Run the body with `--iree-experimental-vscale-value=value`."""
    token = _VSCALE.set(int(value))
    try:
        yield
    finally:
        _VSCALE.reset(token)
