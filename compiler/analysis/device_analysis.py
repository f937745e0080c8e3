"""Which devices, and which executable targets, an op may run on (IREE's ``DeviceAnalysis``).

An op's affinity is its own ``affinity`` (``stream.async.dispatch
on(#hal.device.affinity<@__device_0>)``), else the ``stream.affinity`` of the
nearest ancestor that has one, else the nearest ``stream.affinity.default``.
An affinity names a device global (``#hal.device.affinity<@__device_0>``); a
device global is a ``util.global`` initialized with
``#hal.device.target<"hip", [targets...]>``, whose executable targets are what
code dispatched there must be compiled for. Without a device affinity IREE
falls back to the legacy ``hal.device.targets`` attribute of an ancestor.

Source: IREE ``compiler/src/iree/compiler/Dialect/HAL/Analysis/DeviceAnalysis.cpp``
(``gatherRequiredExecutableTargets``) and ``Stream::AffinityAttr::lookup``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Attribute, Operation

from mini_iree.dialects import hal, util

__all__ = ["DeviceAnalysis", "lookup_affinity"]


def lookup_affinity(op: Operation) -> Attribute | None:
    """The affinity ``op`` executes with, or None when nothing says (``AffinityAttr::lookupOrDefault``).

    First the nearest op (``op`` included) with an ``affinity`` of its own or a
    ``stream.affinity`` attribute, then the nearest ``stream.affinity.default``.
    """
    current: Operation | None = op
    while current is not None:
        if (own := current.properties.get("affinity")) is not None:
            return own
        if (affinity := current.attributes.get("stream.affinity")) is not None:
            return affinity
        current = current.parent_op()
    current = op
    while current is not None:
        if (default := current.attributes.get("stream.affinity.default")) is not None:
            return default
        current = current.parent_op()
    return None


def _legacy_device_targets(op: Operation) -> list[hal.DeviceTargetAttr]:
    """The nearest ``hal.device.targets = [#hal.device.target<...>, ...]`` (IREE's fallback without an affinity)."""
    current: Operation | None = op
    while current is not None:
        if isinstance(targets := current.attributes.get("hal.device.targets"), ArrayAttr):
            return [t for t in targets.data if isinstance(t, hal.DeviceTargetAttr)]
        current = current.parent_op()
    return []


class DeviceAnalysis:
    """The device globals of a module and the executable targets of affinities."""

    def __init__(self, module: ModuleOp):
        self.device_globals: dict[str, hal.DeviceTargetAttr] = {}
        for op in module.ops:
            if isinstance(op, util.GlobalOp) and isinstance(op.initial_value, hal.DeviceTargetAttr):
                self.device_globals[op.sym_name.data] = op.initial_value

    def all_executable_targets(self) -> list[hal.ExecutableTargetAttr]:
        """The executable targets of every device global, in order, without repeats."""
        found: list[hal.ExecutableTargetAttr] = []
        for device in self.device_globals.values():
            found += [t for t in device.executable_targets.data if t not in found]
        return found

    def executable_targets(self, affinity: Attribute) -> list[hal.ExecutableTargetAttr]:
        """The executable targets of the device a ``#hal.device.affinity`` names, in order (none if unknown)."""
        if not isinstance(affinity, hal.DeviceAffinityAttr):
            return []
        device = self.device_globals.get(affinity.device.root_reference.data)
        return list(device.executable_targets.data) if device is not None else []

    def required_executable_targets(self, op: Operation) -> list[hal.ExecutableTargetAttr]:
        """What code ``op`` dispatches must be compiled for (``gatherRequiredExecutableTargets``).

        The executable targets of the device its affinity names, in order and
        without repeats. An op without a ``#hal.device.affinity`` falls back to
        the legacy ``hal.device.targets`` attribute of an ancestor.
        """
        affinity = lookup_affinity(op)
        if isinstance(affinity, hal.DeviceAffinityAttr):
            device = self.device_globals.get(affinity.device.root_reference.data)
            devices = [device] if device is not None else []
        else:
            devices = _legacy_device_targets(op)
        found: list[hal.ExecutableTargetAttr] = []
        for device in devices:
            for target in device.executable_targets.data:
                if target not in found:
                    found.append(target)
        return found
