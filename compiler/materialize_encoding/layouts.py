"""The target of a dispatch function and the packed layout of each encoded tensor type.

IREE's MaterializeDeviceEncoding reads the resolver from the enclosing
`hal.executable.variant`'s target (`iree.encoding.resolver` in its
configuration). Before interfaces are materialized a dispatch function lives in
a `stream.executable`; then the target is the one the module's devices
(`util.global @__device_0 = #hal.device.target<..., [#hal.executable.target...]>`)
list whose resolver serialized the layouts on the function's bindings.

A tensor type's layout is
  * its own `#iree_encoding.layout<[#resolver<configuration = {encoding_info}>]>`
    (serialized: bindings, and the encoding dispatches' set/unset results), or
    the older `#iree_encoding.encoding<..., layouts = [...]>`;
  * an `#iree_encoding.encoding<...>` resolved by the target's resolver
    (`compiler/resolvers`), as the type converter asks the resolver;
  * nothing (identity) for `#iree_encoding.identity` or an identity layout.

A padding layout (`#iree_encoding.padding<[0, 64]>`, from the GPU padding
resolver) is not packed: every tensor in the function keeps its logical shape
and only bindings take the padded shape (`LayoutSource.padding`), so for ops
it is the identity layout too.

Every question about a resolver goes through its `LayoutResolver`
(`compiler/resolvers/interface.py`): this module never asks which backend a
resolver belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.era import EraProfile, era_profile
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.resolvers.cpu import has_ukernel
from mini_iree.compiler.resolvers.interface import LayoutResolver
from mini_iree.compiler.resolvers.registry import resolver_for, resolver_of, same_kind, same_resolver_kind
from mini_iree.dialects import hal, iree_encoding, iree_tensor_ext
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

TARGET_ATTR = "hal.executable.target"


def _variant_target(op: Operation) -> hal.ExecutableTargetAttr | None:
    parent = op.parent_op()
    while parent is not None:
        if parent.name == "hal.executable.variant":
            target = parent.properties.get("target") or parent.attributes.get("target")
            if isinstance(target, hal.ExecutableTargetAttr):
                return target
        parent = parent.parent_op()
    return None


def _top_module(op: Operation) -> ModuleOp | None:
    top: ModuleOp | None = None
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ModuleOp):
            top = parent
        parent = parent.parent_op()
    return top


def _device_targets(op: Operation) -> list[hal.ExecutableTargetAttr]:
    """Every executable target of the devices the module declares as globals."""
    module = _top_module(op)
    if module is None:
        return []
    targets: list[hal.ExecutableTargetAttr] = []
    for global_op in module.body.block.ops:
        value = global_op.properties.get("initial_value") if global_op.name == "util.global" else None
        if isinstance(value, hal.DeviceTargetAttr):
            targets += [t for t in value.executable_targets.data if t not in targets]
    return targets


def adjust_tile_sizes_for_bitcast(
    encoding: iree_encoding.EncodingAttr, storage_type: Attribute, info: MaterializeEncodingInfo
) -> MaterializeEncodingInfo:
    """The layout of a tensor stored in wider elements than the encoding's (IREE's adjustTileSizesForBitcast).

    An `original_element_type` records the type before sub-byte values were
    packed into wider storage (two f16 per f32, two i4 per i8). The innermost
    tile, where the packing happened, then holds fewer storage elements:
    scaled by original bits / storage bits, as is the innermost dim of its
    swizzle. Layouts chosen by the resolver only; a serialized layout was
    already chosen for the storage type.
    """
    import dataclasses

    from mini_iree.dialects.iree_codegen import TileSwizzle

    original = encoding.original_element_type
    if isinstance(original, NoneAttr) or original == storage_type or not info.inner_tile_sizes:
        return info
    original_bits = getattr(original, "bitwidth", None)
    storage_bits = getattr(storage_type, "bitwidth", None)
    if not isinstance(original_bits, int) or not isinstance(storage_bits, int):
        return info
    if info.inner_tile_sizes[-1] == DYNAMIC_INDEX:
        return info

    def scaled(size: int) -> int:
        if (size * original_bits) % storage_bits:
            raise ValueError(f"a tile of {size} {original} elements does not fill whole {storage_type} elements")
        return size * original_bits // storage_bits

    tiles = [*info.inner_tile_sizes[:-1], scaled(info.inner_tile_sizes[-1])]
    swizzle = info.swizzle
    if swizzle is not None and swizzle.expand_shape:
        groups = [list(group) for group in swizzle.expand_shape]
        groups[-1][-1] = dataclasses.replace(groups[-1][-1], size=scaled(groups[-1][-1].size))
        swizzle = TileSwizzle(groups, list(swizzle.permutation))
    return dataclasses.replace(info, inner_tile_sizes=tiles, swizzle=swizzle)


def _layouts_of(encoding: Attribute) -> list[Attribute] | None:
    """The serialized layouts an encoding carries (`#iree_encoding.layout<[...]>`, or the older
    `#iree_encoding.encoding<..., layouts = [...]>`); None when it carries none."""
    if isinstance(encoding, iree_encoding.LayoutAttr | iree_encoding.EncodingAttr) and isinstance(
        encoding.layouts, ArrayAttr
    ):
        return list(encoding.layouts.data)
    return None


def binding_layouts(func: Operation) -> list[Attribute]:
    """The serialized layouts on the function's bindings, each kind once, in order of appearance."""
    layouts: list[Attribute] = []
    for op in func.walk():
        for result in op.results:
            ty = result.type
            if isinstance(ty, iree_tensor_ext.DispatchTensorTypeBase):
                bound = ty.bound_type
                encoding = bound.encoding if isinstance(bound, TensorType) else None
                for layout in _layouts_of(encoding) or []:
                    if not any(same_kind(layout, seen) for seen in layouts):
                        layouts.append(layout)
    return layouts


def find_target(func: Operation) -> hal.ExecutableTargetAttr | None:
    """The executable target `func` is compiled for, or None when nothing says."""
    target = _variant_target(func)
    if target is not None:
        return target
    attr = func.attributes.get(TARGET_ATTR)
    if isinstance(attr, hal.ExecutableTargetAttr):
        return attr
    layouts = binding_layouts(func)
    candidates = [resolver_of(t) for t in _device_targets(func)]
    candidates = [r for r in candidates if r.packs]
    if layouts:
        candidates = [r for r in candidates if any(same_resolver_kind(layout, r) for layout in layouts)]
    return candidates[0].target if len(candidates) == 1 else None


@dataclass
class LayoutSource:
    """Answers "what is the packed layout of this tensor type" for one function."""

    target: hal.ExecutableTargetAttr | None
    era: str | EraProfile | None = None
    """The era whose GPU heuristics resolve encodings (None: the run's)."""
    padding_resolver: Attribute | None = None
    """The target's padding resolver, configured with its L1 cache (IREE's padding materialization)."""
    _cache: dict[tuple[Attribute, Attribute], MaterializeEncodingInfo] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.era = era_profile(self.era)

    @property
    def profile(self) -> EraProfile:
        assert isinstance(self.era, EraProfile)
        return self.era

    @property
    def resolver(self) -> LayoutResolver | None:
        """The target's resolver (the identity resolver when it names none); None without a target."""
        return None if self.target is None else resolver_of(self.target)

    def padding(self, op: Operation, ty: Attribute) -> list[int] | None:
        """The pad of each dim of a padding layout (IREE's getPadLayout); None: not a padding layout.

        A serialized `#iree_encoding.layout<[#iree_encoding.padding<[...]>]>` says it
        itself; any other encoding is asked of the padding resolver, when the
        target has one.
        """
        if not isinstance(ty, TensorType) or isinstance(ty.encoding, NoneAttr):
            return None
        encoding = ty.encoding
        if isinstance(encoding, iree_encoding.LayoutAttr):
            layouts = encoding.layouts.data
            if len(layouts) == 1 and isinstance(layouts[0], iree_encoding.PaddingAttr):
                return self._static_padding(op, layouts[0])
            return None
        if self.padding_resolver is None:
            return None
        resolver = resolver_for(self.padding_resolver, self.target)
        assert resolver is not None and resolver.pads
        layout = resolver.padding_layout(ty)
        return None if layout is None else self._static_padding(op, layout)

    @staticmethod
    def _static_padding(op: Operation, layout: iree_encoding.PaddingAttr) -> list[int]:
        pads = layout.get_padding()
        if not layout.is_serialized():
            raise OpError(op, f"has an unresolved padding {layout}: no padding resolver decides its amount")
        return pads

    def contraction_resolver(self, func: Operation) -> LayoutResolver | None:
        """The resolver whose backend computes the function's contractions (IREE's LayoutMaterializerAttr).

        The target's data-tiling resolver; without one, the resolver that wrote
        the bindings' layouts, when they are all of one kind.
        """
        resolver = self.resolver
        if resolver is not None and resolver.packs:
            return resolver
        layouts = binding_layouts(func)
        return resolver_for(layouts[0], self.target) if len(layouts) == 1 else None

    def info(self, op: Operation, ty: Attribute) -> MaterializeEncodingInfo | None:
        """The layout of `ty` (None: a plain tensor). Identity layouts come back empty."""
        if not isinstance(ty, TensorType) or isinstance(ty.encoding, NoneAttr):
            return None
        encoding = ty.encoding
        key = (encoding, ty.get_element_type())
        if key in self._cache:
            return self._cache[key]
        info = self._resolve(op, encoding)
        if isinstance(encoding, iree_encoding.EncodingAttr) and _layouts_of(encoding) is None:
            info = adjust_tile_sizes_for_bitcast(encoding, ty.get_element_type(), info)
        self._cache[key] = info
        return info

    def has_runtime_tiles(self) -> bool:
        """Whether a dynamic inner tile may be asked of the runtime (`iree_codegen.query_tile_sizes`):
        IREE's getInnerTileSizesOfr allows it only for a VMVX target with microkernels."""
        resolver = self.resolver
        return resolver is not None and resolver.has_runtime_tiles and self.target is not None and has_ukernel(self.target)


    def _resolve(self, op: Operation, encoding: Attribute) -> MaterializeEncodingInfo:
        if isinstance(encoding, iree_encoding.IdentityAttr | iree_encoding.PaddingAttr):
            # A padding encoding on an op: the tensor keeps its shape, only its binding is padded.
            return MaterializeEncodingInfo()
        if isinstance(encoding, iree_encoding.MatmulKAttr):
            # IREE's CPU and GPU resolvers lay out only `#iree_encoding.encoding`; any other
            # encoding gets an empty MaterializeEncodingInfo, so the ops just drop it.
            return MaterializeEncodingInfo()
        if self.padding_resolver is not None and isinstance(encoding, iree_encoding.EncodingAttr):
            # The padding materialization drops every other encoding from tensors (IREE's
            # MaterializePadEncodingTypeConverter).
            return MaterializeEncodingInfo()
        # An encoding with `layouts = [...]` is the older spelling of a serialized layout.
        layouts = _layouts_of(encoding)
        if layouts is not None:
            resolver = self.resolver
            if len(layouts) > 1 and resolver is not None and resolver.packs:
                layouts = [layout for layout in layouts if same_resolver_kind(layout, resolver)] or layouts
            if len(layouts) != 1:
                raise OpError(op, f"cannot tell which of the layouts of {encoding} this target uses")
            layout = layouts[0]
            if isinstance(layout, iree_encoding.IdentityAttr | iree_encoding.PaddingAttr):
                return MaterializeEncodingInfo()
            writer = resolver_for(layout)
            if writer is not None and writer.packs:
                info = writer.serialized_info(layout)
                if info is None:
                    raise OpError(op, f"layout {layout} has no encoding_info to materialize")
                return info
            raise OpError(op, f"unsupported layout {layout}: only packed (encoding_info) layouts are materialized")
        if isinstance(encoding, iree_encoding.EncodingAttr):
            if self.target is None:
                raise OpError(
                    op,
                    "has an unresolved encoding but no executable target (hal.executable.variant, "
                    f"'{TARGET_ATTR}' or a device global) names an encoding resolver",
                )
            info = resolver_of(self.target).encoding_info(encoding, self.profile)
            # A target without a resolver (`encoding-layout-resolver=none`) gets IREE's
            # identity_resolver: the encodings are dropped and the ops run as they are.
            return MaterializeEncodingInfo() if info is None else info
        raise OpError(op, f"unsupported tensor encoding {encoding}")


def runtime_tile_sizes(ty: TensorType) -> list[int] | None:
    """The inner tile sizes the VMVX runtime answers `iree_codegen.query_tile_sizes` on `ty` with.

    The runtime chooses them from the contraction encoding: the tensor's own, or
    the one a VMVX layout records (`encoding_attr`), as IREE's lowering of the
    query to the `query_tile_sizes.2d` microkernel reads it. None: no such encoding.
    """
    encoding: Attribute | None = ty.encoding
    layouts = _layouts_of(encoding)  # type: ignore[arg-type]
    resolver = None
    if layouts is not None:
        writers = [(layout, resolver_for(layout)) for layout in layouts]
        runtime = [(layout, r) for layout, r in writers if r is not None and r.has_runtime_tiles]
        if len(runtime) != 1:
            return None
        layout, resolver = runtime[0]
        encoding = resolver.runtime_source(layout)
    if not isinstance(encoding, iree_encoding.EncodingAttr) or isinstance(encoding.layouts, ArrayAttr):
        return None
    from mini_iree.compiler.resolvers.cpu import vmvx_runtime_encoding_info

    info = vmvx_runtime_encoding_info(encoding) if resolver is None else resolver.runtime_encoding_info(encoding)
    return None if info is None or info.is_identity() else list(info.inner_tile_sizes)
