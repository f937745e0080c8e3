"""Encoding resolvers: which layout each target gives an encoded tensor.

As IREE keeps them in Codegen/ExternalInterfaces, apart from the dialects: a
dialect says what `#iree_cpu.cpu_encoding_resolver<>` is, a resolver decides what
an `#iree_encoding.encoding<...>` becomes on that target, as a
`MaterializeEncodingInfo` (inner tiles, outer permutation, swizzle).

    interface.py    what every resolver answers (LayoutResolver: layout, encoding info, padding, lowering)
    registry.py     which implementation answers for a resolver attribute (the only look at its class)
    targets.py      target attributes and the short names people type (x86_64:+avx2, gfx942)
    matmul_info.py  contraction encodings -> pack info for given M/N/K tiles (shared by all targets)
    cpu.py          x86 / aarch64 / riscv / VMVX tile tables, narrow dims
    gpu.py          gfx9 MMA intrinsics, unrolling, swizzles
    padding.py      the GPU padding resolver: rows padded past L1 cache-set conflicts
    generic.py      identity, unsupported and specialization resolvers

The target's configuration names its resolver under `iree.encoding.resolver`;
`resolve_encoding_info` asks it for a layout and `serialize_encoding` builds the
`#iree_encoding.layout<[...]>` that encoding specialization stores on tensors.
Where the eras differ (the GPU heuristics), the era profile decides
(`compiler/era.py`; None: the run's era).
"""

from __future__ import annotations

from xdsl.ir import Attribute

from mini_iree.compiler.era import EraProfile, era_profile
from mini_iree.compiler.resolvers.registry import RESOLVER_KEY, resolver_of
from mini_iree.dialects import hal
from mini_iree.dialects.iree_codegen import EncodingResolverAttr, MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import EncodingAttr

__all__ = ["RESOLVER_KEY", "get_resolver", "resolve_encoding_info", "serialize_encoding"]


def get_resolver(target: hal.ExecutableTargetAttr) -> EncodingResolverAttr | None:
    """The data-tiling resolver a target names, if it is one this package implements."""
    resolver = resolver_of(target)
    return resolver.attr if resolver.packs else None  # type: ignore[return-value]


def resolve_encoding_info(
    target: hal.ExecutableTargetAttr, encoding: EncodingAttr, *, gpu_era: str | EraProfile | None = None
) -> MaterializeEncodingInfo | None:
    """The layout `target`'s resolver chooses for `encoding`; None without a data-tiling resolver.

    An identity (empty) info means the resolver knows the target but has no
    tile for this encoding, so the encoding is dropped. `gpu_era` picks which
    version of the GPU heuristics to follow (None: the run's era).
    """
    return resolver_of(target).encoding_info(encoding, era_profile(gpu_era))


def serialize_encoding(
    target: hal.ExecutableTargetAttr, encoding: EncodingAttr, *, gpu_era: str | EraProfile | None = None
) -> Attribute:
    """The serialized encoding: `#iree_encoding.layout<[#resolver<configuration = {encoding_info = ...}>]>`.

    What encoding specialization puts on a tensor for one target. VMVX also
    records the original encoding (`encoding_attr`), as IREE does, because its
    microkernel tiles are queried at run time. In the walkthrough's era GPU
    swizzles are written as the walkthrough shows them. Raises ValueError when
    the target names no data-tiling resolver: such a target has no layout to
    serialize.
    """
    resolver = resolver_of(target)
    if not resolver.packs:
        raise ValueError(f"target has no {RESOLVER_KEY} to resolve encodings with")
    layout = resolver.serialize(encoding, era_profile(gpu_era))  # type: ignore[attr-defined]
    return encoding.clone_with_layouts([layout])
