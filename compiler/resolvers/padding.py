"""The GPU padding resolver: `#iree_gpu.gpu_padding_resolver<...>` pads rows for the L1 cache.

Instead of packing tiles, this resolver keeps a tensor row-major and only
lengthens its innermost dim, so that consecutive rows start in different L1
cache sets (IREE's Codegen/ExternalInterfaces/GPUEncodingExternalModels.cpp
`GPUPadLayoutResolverAttr`, Codegen/Dialect/GPU/TargetUtils/KnownTargets.cpp
`getL1CacheInfo`):

* configuring the resolver for a target (`cloneWithSimplifiedConfig`) fills in
  the target's L1 cache: 128-byte lines and 4 sets on gfx90a and gfx942,
  nothing elsewhere (then nothing is padded);
* the layout of a tensor encoded `#iree_encoding.padding<[0, ..., 0, ?]>`
  (`getLayout`): when a row (the static innermost dim) spans at least one
  cache-set span (sets x line bytes), pad it to the next whole cache line, and
  by one line more when the padded row is a multiple of the set span. The
  result is `#iree_encoding.padding<[0, ..., 0, N]>`; an already static padding
  stays as it is; any other dynamic padding, or a dynamic innermost dim, has no
  layout (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, IntAttr, TensorType
from xdsl.ir import Attribute

from mini_iree.compiler.era import EraProfile
from mini_iree.compiler.resolvers.interface import LayoutResolver
from mini_iree.dialects import hal
from mini_iree.dialects.iree_encoding import PaddingAttr
from mini_iree.dialects.iree_gpu import GPUPaddingResolverAttr

__all__ = [
    "L1_CACHE_INFO",
    "GPUPaddingResolver",
    "configured_padding_resolver",
    "get_padding_layout",
    "get_padding_resolver",
    "identity_padding",
]

L1_CACHE_INFO: dict[str, tuple[int, int]] = {"gfx90a": (128, 4), "gfx942": (128, 4)}
"""arch -> (cache line bytes, cache sets): the GPUs IREE knows the L1 cache of."""


def get_padding_resolver(target: hal.ExecutableTargetAttr) -> GPUPaddingResolverAttr | None:
    """The padding resolver a target names in `iree.encoding.resolver`, if it names one."""
    from mini_iree.compiler.resolvers.registry import resolver_of

    resolver = resolver_of(target)
    return resolver.attr if resolver.pads else None  # type: ignore[return-value]


def configured_padding_resolver(target: Attribute | None) -> GPUPaddingResolverAttr:
    """The resolver with the target's L1 cache filled in (`cloneWithSimplifiedConfig`).

    `target` is an executable target or an `#iree_gpu.target`; one whose
    architecture has no known L1 cache gives the resolver without parameters.
    """
    from mini_iree.compiler.resolvers.gpu import gpu_target_info

    info = gpu_target_info(target) if target is not None else None
    cache = L1_CACHE_INFO.get(info.arch.data) if info is not None else None
    if cache is None:
        return GPUPaddingResolverAttr()
    return GPUPaddingResolverAttr(*cache)


def identity_padding(rank: int) -> PaddingAttr:
    """`#iree_encoding.padding<[0, ..., 0]>`: stored like the plain tensor."""
    return PaddingAttr([0] * rank)


def _param(value: Attribute) -> int | None:
    return value.data if isinstance(value, IntAttr) else None


def get_padding_layout(resolver: GPUPaddingResolverAttr, tensor: TensorType) -> PaddingAttr | None:
    """The padding `resolver` gives `tensor` (`GPUPadLayoutResolverAttr::getLayout`); None: no layout."""
    rank = tensor.get_num_dims()
    line_bytes, sets = _param(resolver.cache_line_bytes), _param(resolver.cache_sets)
    if not line_bytes or not sets:
        return identity_padding(rank)
    encoding = tensor.encoding
    if not isinstance(encoding, PaddingAttr):
        return None
    pads = encoding.get_padding()
    if DYNAMIC_INDEX not in pads:
        return encoding
    # Only a dynamic pad on the innermost dim, nothing on the others, is resolved.
    if any(p != 0 for p in pads[:-1]) or pads[-1] != DYNAMIC_INDEX or len(pads) != rank:
        return None
    row = tensor.get_shape()[-1]
    if row == DYNAMIC_INDEX:
        return None
    element_bits = getattr(tensor.get_element_type(), "bitwidth", None)
    # IREE compares the element's bits with the line's bytes here; kept as it is.
    if not isinstance(element_bits, int) or element_bits % 8 != 0 or element_bits > line_bytes:
        return identity_padding(rank)
    set_span = sets * line_bytes
    row_bytes = row * (element_bits // 8)
    if row_bytes < set_span:
        # A row shorter than the set span already spreads over the sets.
        return identity_padding(rank)
    pad_bytes = -row_bytes % line_bytes
    if (row_bytes + pad_bytes) % set_span == 0:
        # Rows a whole set span long would all start in the same set: shift by a line.
        pad_bytes += line_bytes
    return PaddingAttr([0] * (rank - 1) + [pad_bytes * 8 // element_bits])


@dataclass(frozen=True)
class GPUPaddingResolver(LayoutResolver):
    """`#iree_gpu.gpu_padding_resolver`, configured with its target's L1 cache when asked for a layout."""

    pads: ClassVar[bool] = True

    def configured(self) -> GPUPaddingResolverAttr:
        """The resolver attribute with the target's cache filled in (`cloneWithSimplifiedConfig`)."""
        return configured_padding_resolver(self.target)

    def get_layout(self, type_: TensorType, era: EraProfile) -> Attribute | None:
        """The layout specialization stores: the resolver configured for its target, then asked."""
        return get_padding_layout(self.configured(), type_)

    def padding_layout(self, tensor: TensorType) -> PaddingAttr | None:
        """The padding by this resolver's own cache parameters (a configured resolver's)."""
        return get_padding_layout(self.attr, tensor)  # type: ignore[arg-type]
