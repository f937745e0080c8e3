"""``iree-hal-materialize-target-devices``: the module's target devices become ``!hal.device`` globals.

Reads and removes the module attribute ``hal.device.targets`` that
``iree-hal-assign-target-devices`` (or the user) set: an array gives
``util.global private @__device_0 = #hal.device.target<...>``, ``@__device_1``...
in order, a dictionary one global per name. The default device (the first one,
or the one ``hal.device.default`` / the ``defaultDevice`` option names, by
ordinal or by name) becomes the module's ``stream.affinity.default =
#hal.device.affinity<@__device_0>``, where every op without a placement of its
own will run.

A module without ``hal.device.targets`` gets no new globals, so running the
pass again, or on a module whose devices already exist, changes nothing (unless
``defaultDevice`` is given). Several devices for one global
(``#hal.device.select``) are not supported and are reported as an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.locations import give_location
from mini_iree.dialects import hal, util

__all__ = ["MaterializeTargetDevicesPass"]

_INVALID_TARGETS = (
    "module has invalid device targets specified; expected hal.device.targets to be an array of "
    "!hal.device initialization attributes or a dictionary with named values"
)


def _device_value(module: ModuleOp, attr: Attribute) -> Attribute:
    """The initial value of a device global: a ``!hal.device`` attribute (or a one-element list of it)."""
    if isinstance(attr, ArrayAttr):
        if len(attr.data) != 1:
            raise OpError(module, "selecting among several devices (#hal.device.select) is not supported")
        attr = attr.data[0]
    if not isinstance(getattr(attr, "type", None), hal.DeviceType):
        raise OpError(module, _INVALID_TARGETS, prefix_op_name=False)
    return attr


def _create_device_globals(module: ModuleOp, targets: Attribute) -> SymbolRefAttr | None:
    """One global per device, at the top of the module, in order; returns the first."""
    if isinstance(targets, DictionaryAttr):
        named = list(targets.data.items())
    elif isinstance(targets, ArrayAttr):
        named = [(f"__device_{i}", attr) for i, attr in enumerate(targets.data)]
    else:
        raise OpError(
            module,
            "unexpected `hal.device.targets` attribute; must be a dictionary of named devices or an array of "
            "devices to use by ordinal",
        )
    globals_ = [util.GlobalOp(name, hal.DeviceType(), initial_value=_device_value(module, attr)) for name, attr in named]
    if not globals_:
        return None
    # The devices are the module's: IREE creates their globals at its location.
    give_location(globals_, module)
    first = module.body.block.first_op
    point = InsertPoint.before(first) if first is not None else InsertPoint.at_end(module.body.block)
    Rewriter.insert_op(globals_, point)
    return SymbolRefAttr(globals_[0].sym_name.data)


def _default_device_ref(module: ModuleOp, value: Attribute) -> SymbolRefAttr:
    """``hal.device.default``: an ordinal names ``@__device_N``, a string names a device global."""
    if isinstance(value, IntegerAttr):
        return SymbolRefAttr(f"__device_{value.value.data}")
    if isinstance(value, StringAttr):
        return SymbolRefAttr(value.data)
    raise OpError(module, "invalid `hal.device.default` value, must be an ordinal or a name")


@dataclass(frozen=True)
class MaterializeTargetDevicesPass(ModulePass):
    """Creates the device globals named by ``hal.device.targets`` and the module's default affinity."""

    name = "iree-hal-materialize-target-devices"

    defaultDevice: str = ""  # noqa: N815 - IREE's option name

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        default: SymbolRefAttr | None = None
        targets = op.attributes.pop("hal.device.targets", None)
        if targets is not None:
            default = _create_device_globals(op, targets)
        if (explicit := op.attributes.pop("hal.device.default", None)) is not None:
            default = _default_device_ref(op, explicit)
        elif self.defaultDevice:
            name = self.defaultDevice
            default = SymbolRefAttr(f"__device_{name}" if name.isdigit() else name)
        if default is not None:
            op.attributes["stream.affinity.default"] = hal.DeviceAffinityAttr(default)
