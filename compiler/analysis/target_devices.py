"""Target devices from the names people type: ``gfx942``, ``vmvx,x86_64:+avx512f``.

A device is what a ``util.global private @__device_0 : !hal.device`` holds: a
``#hal.device.target<"ID", [executable targets]>``. The executable target comes
from ``resolvers.targets.parse_target``; the device id from the backend, as
IREE's target backends name their devices: ROCm executables run on ``"hip"``
devices, llvm-cpu and VMVX executables on ``"local"`` ones. For the AMD GPUs
IREE ships a default tuning spec for (gfx942, gfx950), the target records it in
``iree_codegen.default_tuning_spec``, as the walkthrough's dumps 09-17 print.

Targets are described as the run's era describes them (``compiler/era.py``;
IREE 3.13 prints more fields than the walkthrough), or as a name's own
``era=`` token says (``gfx942:era=3.13``).

When several devices share an id, each gets its ``ordinal`` (``{ordinal = 1 :
index}``), as a user writes ``local[1]``, so they stay distinct devices.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerAttr

from mini_iree.compiler.era import EraProfile
from mini_iree.dialects import hal

__all__ = ["device_targets", "split_target_list"]

# Backend -> the device id its executables run on.
_DEVICE_IDS = {"rocm": "hip", "llvm-cpu": "local", "vmvx": "local"}
# GPUs with a tuning spec built into IREE's ROCm backend.
_TUNING_SPEC_ARCHS = ("gfx942", "gfx950")
_TUNING_SPEC_KEY = "iree_codegen.default_tuning_spec"
# Tokens that belong to the target before them: features and target options.
_CONTINUATIONS = ("+", "-", "ukernels=", "era=", "encoding-layout-resolver=")


def split_target_list(text: str) -> list[str]:
    """The targets of a comma-separated list, keeping each target's features together.

    ``x86_64:+avx,+avx2,vmvx`` is two targets: a token starting with ``+``/``-``,
    ``ukernels=``, ``era=`` or ``encoding-layout-resolver=`` continues the previous
    target's list (``gfx942:encoding-layout-resolver=pad,era=3.13``). Commas
    inside ``#hal.executable.target<...>`` text (brackets, quotes) do not split.
    """
    pieces: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "<[{(":
            depth += 1
        elif not quoted and char in ">]})":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    targets: list[str] = []
    for piece in (p.strip() for p in pieces):
        if targets and piece.startswith(_CONTINUATIONS):
            targets[-1] += "," + piece
        else:
            targets.append(piece)
    return targets


def _with_tuning_spec(target: hal.ExecutableTargetAttr) -> hal.ExecutableTargetAttr:
    from mini_iree.compiler.resolvers.gpu import gpu_target_info
    from mini_iree.dialects.rocm import BuiltinTuningModuleAttr

    info = gpu_target_info(target)
    arch = info.arch.data if info is not None and hasattr(info, "arch") else None
    if target.backend.data != "rocm" or arch not in _TUNING_SPEC_ARCHS or target.has_config(_TUNING_SPEC_KEY):
        return target
    config = dict(target.config)
    config[_TUNING_SPEC_KEY] = BuiltinTuningModuleAttr(f"iree_default_tuning_spec_{arch}.mlir")
    return hal.ExecutableTargetAttr(target.backend, target.format, config)


def device_targets(names: Sequence[str], era: str | EraProfile | None = None) -> list[hal.DeviceTargetAttr]:
    """One ``#hal.device.target`` per target name; raises ValueError listing the accepted forms.

    Each target is described as ``era``'s IREE describes it (None: the run's
    era), unless its name carries an ``era=`` token.
    """
    from mini_iree.compiler.resolvers.targets import ACCEPTED_FORMS, parse_target

    executables: list[hal.ExecutableTargetAttr] = []
    for name in names:
        if not name:
            raise ValueError(f"empty target device name; {ACCEPTED_FORMS}")
        try:
            target = parse_target(name, era)
        except ValueError as err:
            message = str(err)
            raise ValueError(message if ACCEPTED_FORMS in message else f"{message}; {ACCEPTED_FORMS}") from None
        executables.append(_with_tuning_spec(target))
    ids = [_DEVICE_IDS.get(t.backend.data, t.backend.data) for t in executables]
    devices: list[hal.DeviceTargetAttr] = []
    for index, (device_id, target) in enumerate(zip(ids, executables)):
        config = {}
        if ids.count(device_id) > 1:
            config["ordinal"] = IntegerAttr(ids[:index].count(device_id), IndexType())
        devices.append(hal.DeviceTargetAttr(device_id, [target], config))
    return devices
