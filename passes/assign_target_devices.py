"""``iree-hal-assign-target-devices{targetDevices=...}``: record which devices the program targets.

Sets the module attribute ``hal.device.targets`` to one ``#hal.device.target``
per listed device, in order (``iree-hal-materialize-target-devices`` then turns
them into ``@__device_N`` globals). Devices are written as target short names:
``gfx942``, ``vmvx,x86_64:+avx512f`` (see ``compiler/analysis/target_devices.py``).

IREE's pass records ``#hal.device.alias<"name">`` placeholders and a later pass
(ResolveDeviceAliases) asks each target backend for its default device; here the
alias is resolved on the spot, so the attribute already holds the full device.
A device may be named, ``targetDevices=gpu=gfx942,cpu=x86_64:+avx512f``: the
attribute is then a dictionary and the globals take those names (all devices
named or none, as in IREE). The targets are described as the era's IREE
describes them: the run's era when the pass is built (``compiler/era.py``),
or a name's ``era=`` token (``gfx942:era=3.13``). Like IREE, the pass does
nothing when no devices are given, when the module already has
``hal.device.targets``, or when it already declares a ``!hal.device`` global.
An unknown name is a command-line error listing the accepted forms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.target_devices import device_targets, split_target_list
from mini_iree.compiler.era import run_era
from mini_iree.dialects import hal, util

__all__ = ["AssignTargetDevicesPass", "declares_devices"]

# `name=target`: IREE's name prefix (letters, digits, `_`). `ukernels=` is a
# feature token of the previous target, never a device name.
_NAMED = re.compile(r"([A-Za-z0-9_]+)=(.+)")


def declares_devices(module: ModuleOp) -> bool:
    """Whether ``module`` already has a ``!hal.device`` global (devices the user materialized)."""
    return any(isinstance(op, util.GlobalOp) and isinstance(op.type, hal.DeviceType) for op in module.ops)


@dataclass(frozen=True)
class AssignTargetDevicesPass(ModulePass):
    """Sets ``hal.device.targets`` on the module from the ``targetDevices`` list."""

    name = "iree-hal-assign-target-devices"

    targetDevices: str = ""  # noqa: N815 - IREE's option name
    # Not an option: the run's era when the pass is built, which describes the targets.
    target_era: str = field(init=False, default_factory=lambda: run_era().name)

    def __post_init__(self) -> None:
        # Checked when the pipeline is built, so a bad name is a <cmdline> error.
        self.devices()

    def devices(self) -> ArrayAttr | DictionaryAttr | None:
        """The ``hal.device.targets`` value: a list, or a dictionary if the devices are named."""
        text = self.targetDevices.strip().strip("\"'")
        if not text:
            return None
        names: list[str | None] = []
        specs: list[str] = []
        for spec in split_target_list(text):
            match = _NAMED.fullmatch(spec)
            named = match is not None and match.group(1) != "ukernels"
            names.append(match.group(1) if named and match else None)
            specs.append(match.group(2) if named and match else spec)
        devices = device_targets(specs, self.target_era)
        if all(name is None for name in names):
            return ArrayAttr(devices)
        if any(name is None for name in names):
            raise ValueError("if any target device spec has a name then all must be named")
        # A repeated name overrides the earlier assignment, as in IREE.
        return DictionaryAttr(dict(zip((n for n in names if n is not None), devices)))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        devices = self.devices()
        if devices is None or "hal.device.targets" in op.attributes or declares_devices(op):
            return
        op.attributes["hal.device.targets"] = devices
