"""assign-target-devices + materialize-target-devices: the program still runs; bad names are clean errors."""

from __future__ import annotations

import pytest
from conftest import REPO, run_opt

MATMUL = str(REPO / "examples" / "matmul.mlir")


@pytest.mark.parametrize("devices", ["gfx942", "vmvx,x86_64:+avx512f", "aarch64:+sve,riscv64", "x86_64:+avx,+avx2,+fma"])
def test_devices_keep_results(devices: str):
    pipeline = f"iree-hal-assign-target-devices{{targetDevices={devices}}},iree-hal-materialize-target-devices"
    result = run_opt([MATMUL, "-p", pipeline, "--verify-each-with-interpreter", "--interpreter-dynamic-size=4"])
    assert result.returncode == 0, result.stderr
    count = len(devices.replace(",+", "+").split(","))
    for index in range(count):
        assert f"util.global private @__device_{index} = #device_target_" in result.stdout
    assert f"@__device_{count} " not in result.stdout
    assert "stream.affinity.default = #hal.device.affinity<@__device_0>" in result.stdout


@pytest.mark.parametrize("bad", ["gfx1234", "x86_64:avx", "sparc", "vmvx:+avx"])
def test_bad_target_is_a_cmdline_error(bad: str):
    result = run_opt([MATMUL, "-p", f"iree-hal-assign-target-devices{{targetDevices={bad}}}"])
    assert result.returncode == 1
    assert result.stderr.startswith("<cmdline>:1:1: error: invalid options for pass 'iree-hal-assign-target-devices'")
    assert "accepted targets:" in result.stderr
    assert "Traceback" not in result.stderr


def test_named_devices_become_named_globals():
    pipeline = "iree-hal-assign-target-devices{targetDevices=gpu=gfx942,cpu=x86_64},iree-hal-materialize-target-devices"
    result = run_opt([MATMUL, "-p", pipeline, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    # In the order given: the first named device is the default.
    gpu = result.stdout.index("util.global private @gpu = #device_target_hip")
    cpu = result.stdout.index("util.global private @cpu = #device_target_local")
    assert gpu < cpu
    assert "stream.affinity.default = #hal.device.affinity<@gpu>" in result.stdout
