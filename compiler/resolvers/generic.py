"""The resolvers of the `iree_encoding` dialect itself: identity, unsupported, specialization.

IREE gives a target without an `iree.encoding.resolver` the identity resolver
(the tensor is stored as it is), and tests encoding specialization with
resolvers that give no layout (`unsupported_resolver`) or a layout recording the
type (`specialization_resolver<N>`). The older spellings
(`#iree_encoding.identity_encoding`, `unsupported_encoding`,
`unspecialized_encoding<N>`) answer the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from mini_iree.compiler.era import EraProfile
from mini_iree.compiler.resolvers.interface import LayoutResolver
from mini_iree.dialects import iree_encoding

__all__ = ["IdentityResolver", "SpecializationResolver", "UnspecializedEncodingResolver", "UnsupportedResolver"]


def _drop_encoding(type_: TensorType) -> TensorType:
    return TensorType(type_.element_type, type_.get_shape())


@dataclass(frozen=True)
class IdentityResolver(LayoutResolver):
    """`#iree_encoding.identity_resolver`: every encoded tensor is stored like the plain one."""

    def get_layout(self, type_: TensorType, era: EraProfile) -> Attribute | None:
        return iree_encoding.IdentityAttr()


@dataclass(frozen=True)
class UnsupportedResolver(LayoutResolver):
    """`#iree_encoding.unsupported_resolver`: knows encodings but gives none of them a layout."""


@dataclass(frozen=True)
class SpecializationResolver(LayoutResolver):
    """`#iree_encoding.specialization_resolver<N>`: the layout records the seed and the plain type."""

    def get_layout(self, type_: TensorType, era: EraProfile) -> Attribute | None:
        return iree_encoding.SpecializedAttr(self.attr.seed, _drop_encoding(type_))  # type: ignore[attr-defined]


@dataclass(frozen=True)
class UnspecializedEncodingResolver(LayoutResolver):
    """`#iree_encoding.unspecialized_encoding<N>`, the older spelling: `specialized_encoding<N, type>`."""

    def get_layout(self, type_: TensorType, era: EraProfile) -> Attribute | None:
        seed = self.attr.seed  # type: ignore[attr-defined]
        return iree_encoding.SpecializedEncodingAttr(seed, _drop_encoding(type_))
