"""Encoding resolvers: which packed layout each target gives an encoded tensor.

As IREE keeps them in Codegen/ExternalInterfaces, apart from the dialects: a
dialect says what `#iree_cpu.cpu_encoding_resolver<>` is, a resolver decides what
an `#iree_encoding.encoding<...>` becomes on that target, as a
`MaterializeEncodingInfo` (inner tiles, outer permutation, swizzle).

    targets.py      target attributes and the short names people type (x86_64:+avx2, gfx942)
    matmul_info.py  contraction encodings -> pack info for given M/N/K tiles (shared by all targets)
    cpu.py          x86 / aarch64 / riscv / VMVX tile tables, narrow dims
    gpu.py          gfx9 MMA intrinsics, unrolling, swizzles
    padding.py      the GPU padding resolver: rows padded past L1 cache-set conflicts

The target's configuration names its resolver under `iree.encoding.resolver`;
`resolve_encoding_info` dispatches on it and `serialize_encoding` builds the
`#iree_encoding.layout<[...]>` that encoding specialization stores on tensors.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.ir import Attribute

from mini_iree.dialects import hal
from mini_iree.dialects.iree_codegen import EncodingResolverAttr, MaterializeEncodingInfo
from mini_iree.dialects.iree_cpu import CPUEncodingLayoutAttr, CPUEncodingResolverAttr, VMVXEncodingResolverAttr
from mini_iree.dialects.iree_encoding import EncodingAttr
from mini_iree.dialects.iree_gpu import GPUEncodingResolverAttr

RESOLVER_KEY = "iree.encoding.resolver"


def get_resolver(target: hal.ExecutableTargetAttr) -> EncodingResolverAttr | None:
    """The data-tiling resolver a target names, if it is one this package implements."""
    resolver = target.get_config(RESOLVER_KEY)
    if isinstance(
        resolver,
        CPUEncodingResolverAttr | CPUEncodingLayoutAttr | VMVXEncodingResolverAttr | GPUEncodingResolverAttr,
    ):
        return resolver
    return None


def resolve_encoding_info(
    target: hal.ExecutableTargetAttr, encoding: EncodingAttr, *, gpu_era: str = "walkthrough"
) -> MaterializeEncodingInfo | None:
    """The layout `target`'s resolver chooses for `encoding`; None without a resolver.

    An identity (empty) info means the resolver knows the target but has no
    tile for this encoding, so the encoding is dropped. `gpu_era` picks which
    version of the GPU heuristics to follow ("walkthrough" is the data-tiling
    walkthrough's).
    """
    resolver = get_resolver(target)
    if resolver is None:
        return None
    if isinstance(resolver, GPUEncodingResolverAttr):
        from mini_iree.compiler.resolvers.gpu import get_encoding_info as gpu_encoding_info

        return gpu_encoding_info(target, encoding, era=gpu_era)
    from mini_iree.compiler.resolvers.cpu import get_encoding_info as cpu_encoding_info

    return cpu_encoding_info(target, encoding)


def serialize_encoding(
    target: hal.ExecutableTargetAttr, encoding: EncodingAttr, *, gpu_era: str = "walkthrough"
) -> Attribute:
    """The serialized encoding: `#iree_encoding.layout<[#resolver<configuration = {encoding_info = ...}>]>`.

    What encoding specialization puts on a tensor for one target. VMVX also
    records the original encoding (`encoding_attr`), as IREE does, because its
    microkernel tiles are queried at run time. With `gpu_era="walkthrough"`
    GPU swizzles are written as the walkthrough shows them. Raises ValueError when the
    target names no resolver: such a target has no layout to serialize.
    """
    resolver = get_resolver(target)
    info = resolve_encoding_info(target, encoding, gpu_era=gpu_era)
    if resolver is None or info is None:
        raise ValueError(f"target has no {RESOLVER_KEY} to resolve encodings with")
    info_attr = info.to_attr()
    if isinstance(resolver, GPUEncodingResolverAttr) and gpu_era == "walkthrough":
        info_attr = _walkthrough_info_attr(info_attr)
    config = {"encoding_info": info_attr}
    if isinstance(resolver, VMVXEncodingResolverAttr):
        config = {"encoding_attr": encoding, **config}
    return encoding.clone_with_layouts([type(resolver)(DictionaryAttr(config))])


def _walkthrough_info_attr(info_attr: DictionaryAttr) -> DictionaryAttr:
    """`encoding_info` as the walkthrough prints it: swizzle dims are `["Kind", size : i16]`.

    The thread distribution factor (`, 1 : i8`) and the scalable multiplier
    came later; the walkthrough's layouts have neither.
    """
    swizzle = info_attr.data.get("swizzle")
    if not isinstance(swizzle, DictionaryAttr) or not isinstance(swizzle.data.get("expandShape"), ArrayAttr):
        return info_attr
    expand_shape = swizzle.data["expandShape"]
    assert isinstance(expand_shape, ArrayAttr)
    groups = ArrayAttr(
        [
            ArrayAttr([ArrayAttr(dim.data[:2]) if isinstance(dim, ArrayAttr) else dim for dim in group.data])
            if isinstance(group, ArrayAttr)
            else group
            for group in expand_shape.data
        ]
    )
    new_swizzle = DictionaryAttr({**swizzle.data, "expandShape": groups})
    return DictionaryAttr({**info_attr.data, "swizzle": new_swizzle})
