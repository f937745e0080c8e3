"""Which implementation answers for a resolver attribute: the one place that looks at its class.

IREE attaches its interfaces to the resolver attributes as external models,
one per backend, registered with the dialects. Here each resolver attribute
class maps to a `LayoutResolver` implementation:

    #iree_cpu.cpu_encoding_resolver, cpu_encoding_layout   cpu.CPUResolver
    #iree_cpu.vmvx_encoding_resolver                       cpu.VMVXResolver
    #iree_gpu.gpu_encoding_resolver                        gpu.GPUResolver
    #iree_gpu.gpu_padding_resolver                         padding.GPUPaddingResolver
    #iree_encoding.identity_resolver, identity_encoding    generic.IdentityResolver
    #iree_encoding.unsupported_resolver, ..._encoding      generic.UnsupportedResolver
    #iree_encoding.specialization_resolver                 generic.SpecializationResolver
    #iree_encoding.unspecialized_encoding                  generic.UnspecializedEncodingResolver

The same attribute class is also what a serialized layout is made of
(`#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = ...>]>`),
so `resolver_for` also tells who wrote a layout and how to read it.
"""

from __future__ import annotations

from functools import cache

from xdsl.ir import Attribute

from mini_iree.compiler.resolvers.interface import LayoutResolver
from mini_iree.dialects import hal

__all__ = ["RESOLVER_KEY", "is_resolver", "resolver_for", "resolver_of", "same_kind", "same_resolver_kind"]

RESOLVER_KEY = "iree.encoding.resolver"


@cache  # the table, built when first asked (it imports every resolver)
def _implementations() -> dict[type, type[LayoutResolver]]:
    from mini_iree.compiler.resolvers.cpu import CPUResolver, VMVXResolver
    from mini_iree.compiler.resolvers.generic import (
        IdentityResolver,
        SpecializationResolver,
        UnspecializedEncodingResolver,
        UnsupportedResolver,
    )
    from mini_iree.compiler.resolvers.gpu import GPUResolver
    from mini_iree.compiler.resolvers.padding import GPUPaddingResolver
    from mini_iree.dialects import iree_cpu, iree_encoding, iree_gpu

    return {
        iree_cpu.CPUEncodingResolverAttr: CPUResolver,
        iree_cpu.CPUEncodingLayoutAttr: CPUResolver,
        iree_cpu.VMVXEncodingResolverAttr: VMVXResolver,
        iree_gpu.GPUEncodingResolverAttr: GPUResolver,
        iree_gpu.GPUPaddingResolverAttr: GPUPaddingResolver,
        iree_encoding.IdentityResolverAttr: IdentityResolver,
        iree_encoding.IdentityEncodingAttr: IdentityResolver,
        iree_encoding.UnsupportedResolverAttr: UnsupportedResolver,
        iree_encoding.UnsupportedEncodingAttr: UnsupportedResolver,
        iree_encoding.SpecializationResolverAttr: SpecializationResolver,
        iree_encoding.UnspecializedEncodingAttr: UnspecializedEncodingResolver,
    }


def _implementation(attr: Attribute | None) -> type[LayoutResolver] | None:
    if attr is None:
        return None
    table = _implementations()
    return next((table[cls] for cls in type(attr).__mro__ if cls in table), None)


def is_resolver(attr: Attribute | None) -> bool:
    """Whether `attr` is a resolver attribute some implementation answers for."""
    return _implementation(attr) is not None


def resolver_for(attr: Attribute | None, target: hal.ExecutableTargetAttr | None = None) -> LayoutResolver | None:
    """The implementation of resolver attribute `attr` for `target` (None: read off a layout); None if none."""
    implementation = _implementation(attr)
    return None if implementation is None else implementation(attr, target)  # type: ignore[arg-type]


def resolver_of(target: hal.ExecutableTargetAttr) -> LayoutResolver:
    """The resolver `target` names in `iree.encoding.resolver`.

    A target that names none (or a value that is no resolver) gets the
    identity resolver, as IREE's HAL interface gives it.
    """
    from mini_iree.compiler.resolvers.generic import IdentityResolver
    from mini_iree.dialects.iree_encoding import IdentityResolverAttr

    resolver = resolver_for(target.get_config(RESOLVER_KEY), target)
    return resolver if resolver is not None else IdentityResolver(IdentityResolverAttr(), target)


def same_kind(a: Attribute, b: Attribute) -> bool:
    """Whether two resolver attributes (or serialized layout entries) are of one kind: the same class."""
    return type(a) is type(b)


def same_resolver_kind(layout: Attribute, resolver: LayoutResolver) -> bool:
    """Whether a serialized layout entry was written by a resolver of `resolver`'s kind."""
    return same_kind(layout, resolver.attr)
