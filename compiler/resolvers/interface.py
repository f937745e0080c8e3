"""What every encoding resolver answers: IREE's LayoutResolverAttr / SerializableAttr / LayoutMaterializerAttr.

IREE asks a target's `iree.encoding.resolver` a few questions through attribute
interfaces, and each backend answers them in an external model
(Codegen/ExternalInterfaces/*EncodingExternalModels.cpp):

* the layout of an encoded tensor type (`LayoutResolverAttr::getLayout`), which
  encoding specialization stores as `#iree_encoding.layout<[...]>`;
* the packed layout of an encoding (`getEncodingInfo`: inner tiles, outer
  permutation, swizzle), or that the resolver packs nothing;
* the padding of a tensor (`getPadLayout`), for a resolver that pads;
* how a contraction on its packed operands is lowered (`LayoutMaterializerAttr::lowerOp`).

`LayoutResolver` is that interface; `registry.resolver_of(target)` and
`registry.resolver_for(attr)` give the implementation of a resolver
attribute, and they are the only place that looks at the attribute's class.
Passes hold a `LayoutResolver` and ask it; they never ask which backend it is.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from mini_iree.compiler.era import EraProfile
from mini_iree.dialects import hal
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import EncodingAttr, PaddingAttr

__all__ = ["LayoutResolver"]


@dataclass(frozen=True)
class LayoutResolver:
    """One resolver attribute, with the executable target it was configured from (None: read off a layout).

    Two resolvers are equal when their attribute, target and kind are: a device
    with two identical targets has one resolver.
    """

    attr: Attribute
    target: hal.ExecutableTargetAttr | None = None

    packs: ClassVar[bool] = False
    """Its layouts are packed tiles (an `encoding_info`): the data-tiling resolvers."""
    pads: ClassVar[bool] = False
    """Its layouts pad the innermost dim (`#iree_encoding.padding<[...]>`)."""
    has_runtime_tiles: ClassVar[bool] = False
    """Its tiles may be left to the runtime (`?` inner tiles, chosen by a tile query)."""

    # -- LayoutResolverAttr ------------------------------------------------------

    def get_layout(self, type_: TensorType, era: EraProfile) -> Attribute | None:
        """The serialized layout of an encoded tensor type, one entry of `#iree_encoding.layout<[...]>`.

        None: the resolver knows the encoding but gives it no layout (IREE's
        "failed to resolve recognized layout").
        """
        return None

    # -- getEncodingInfo ---------------------------------------------------------

    def encoding_info(self, encoding: EncodingAttr, era: EraProfile) -> MaterializeEncodingInfo | None:
        """The packed layout this resolver chooses for `encoding`; None when it packs nothing at all.

        An identity (empty) info means the resolver packs, but has no tile for
        this encoding: the encoding is dropped.
        """
        return None

    def serialized_info(self, layout: Attribute) -> MaterializeEncodingInfo | None:
        """The packed layout a serialized layout of this resolver records (`configuration = {encoding_info}`)."""
        return None

    def runtime_encoding_info(self, encoding: EncodingAttr) -> MaterializeEncodingInfo | None:
        """The layout the runtime's tile query gives `encoding` when the resolver left its tiles dynamic."""
        return None

    def runtime_source(self, layout: Attribute) -> Attribute | None:
        """The encoding a serialized layout of this resolver records for the runtime's tile query."""
        return None

    # -- getPadLayout ------------------------------------------------------------

    def padding_layout(self, tensor: TensorType) -> PaddingAttr | None:
        """The padding of `tensor` (`#iree_encoding.padding<[0, ..., N]>`); None: no padding layout."""
        return None

    # -- LayoutMaterializerAttr::lowerOp -----------------------------------------

    def lower_contraction(
        self,
        builder,
        op: Operation,
        encodings: Sequence[EncodingAttr],
        infos: Sequence[MaterializeEncodingInfo],
        operands: Sequence[SSAValue],
        sizes: Sequence[object | None],
        era: EraProfile,
    ) -> SSAValue:
        """A contraction on packed operands, as this resolver's backend computes it: `linalg.mmt4d`.

        `builder` is a `materialize_encoding.builders.Builder` at `op`; `sizes`
        holds the packed sizes of each operand (None: unknown). The GPU
        resolver overrides this with `iree_codegen.inner_tiled`.
        """
        from mini_iree.compiler.ir.diagnostics import OpError
        from mini_iree.compiler.materialize_encoding.contraction import lower_to_mmt4d

        if any(s is None for s in sizes):
            raise OpError(op, "operand sizes of the packed operands are unknown")
        result, _ = lower_to_mmt4d(builder, op, encodings, infos, operands, sizes)  # type: ignore[arg-type]
        return result


@dataclass(frozen=True)
class DataTilingResolver(LayoutResolver, ABC):
    """A resolver that packs encoded tensors into tiles (the CPU, VMVX and GPU data-tiling resolvers).

    Its layout of a tensor is the resolver attribute itself holding the chosen
    tiles, `#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {...}}>`;
    a tensor whose encoding is not a data-tiling one gets the identity
    (empty) `encoding_info`, as IREE's getEncodingInfo gives it.
    """

    packs: ClassVar[bool] = True

    @abstractmethod
    def encoding_info(self, encoding: EncodingAttr, era: EraProfile) -> MaterializeEncodingInfo | None:
        """The target's layout of ``encoding`` (None: it has none for it)."""

    def get_layout(self, type_: TensorType, era: EraProfile) -> Attribute | None:
        encoding = type_.encoding
        if isinstance(encoding, EncodingAttr):
            return self.serialize(encoding, era)
        return type(self.attr).with_encoding_info(MaterializeEncodingInfo())  # type: ignore[attr-defined]

    def serialize(self, encoding: EncodingAttr, era: EraProfile) -> Attribute:
        """The resolver attribute with `configuration = {encoding_info = ...}` for `encoding`."""
        from xdsl.dialects.builtin import DictionaryAttr

        info = self.encoding_info(encoding, era)
        assert info is not None
        return type(self.attr)(DictionaryAttr(self._configuration(encoding, self._info_attr(info, era))))

    def _info_attr(self, info: MaterializeEncodingInfo, era: EraProfile) -> Attribute:
        """`encoding_info` as the era prints it."""
        return info.to_attr()

    def _configuration(self, encoding: EncodingAttr, info_attr: Attribute) -> dict[str, Attribute]:
        """What a serialized layout records besides the tiles (nothing, unless the backend needs more)."""
        return {"encoding_info": info_attr}

    def serialized_info(self, layout: Attribute) -> MaterializeEncodingInfo | None:
        return layout.encoding_info  # type: ignore[attr-defined]
