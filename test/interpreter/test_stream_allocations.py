"""``stream.async.alloca``, ``stream.async.clone`` and ``stream.tensor.empty`` read, print and run as IREE 3.13's.

The printed forms are what IREE 3.13's ``iree-opt`` prints for the same ops
(``stream.async.alloca`` puts other attributes before the colon,
``stream.async.clone`` after ``attributes``; ``stream.tensor.empty`` names its
result ``%empty``).
"""

from __future__ import annotations

import numpy as np
from conftest import run_opt

from mini_iree.compiler.interpreter import run

PROGRAM = """\
util.global private @__device_0 : !hal.device
util.func public @alloca_then_clone(%arg0: index) -> (index, index) {
  %0 = stream.async.alloca on(#hal.device.affinity<@__device_0>) : !stream.resource<*>{%arg0}
  %1 = stream.async.clone on(#hal.device.affinity<@__device_0>) %0 : !stream.resource<*>{%arg0} -> !stream.resource<constant>{%arg0}
  %2 = stream.async.alloca {foo} : !stream.resource<transient>{%arg0}
  %3 = stream.resource.size %1 : !stream.resource<constant>
  %4 = stream.resource.size %2 : !stream.resource<transient>
  util.return %3, %4 : index, index
}
"""


def test_prints_as_iree():
    result = run_opt(["-"], stdin=PROGRAM.encode())
    assert result.returncode == 0, result.stderr
    assert (
        "%0 = stream.async.alloca on(#hal.device.affinity<@__device_0>) : !stream.resource<*>{%arg0}" in result.stdout
    )
    assert "%2 = stream.async.alloca {foo} : !stream.resource<transient>{%arg0}" in result.stdout
    generic = run_opt(["-", "--mlir-print-op-generic"], stdin=PROGRAM.encode())
    assert (
        '"stream.async.alloca"(%arg0) <{affinity = #hal.device.affinity<@__device_0>}> : (index) -> !stream.resource<*>'
        in generic.stdout
    )
    again = run_opt(["-"], stdin=result.stdout.encode())
    assert again.stdout == result.stdout


def test_alloca_has_the_size_asked_for():
    sizes = run(PROGRAM, "alloca_then_clone", 12)
    assert [int(np.asarray(s)) for s in sizes] == [12, 12]


def test_alloca_needs_an_index_size():
    # As IREE: the size is an index (`operand #0 must be index, but got 'i32'`).
    bad = """\
util.func public @f(%arg0: i32) -> !stream.resource<*> {
  %0 = "stream.async.alloca"(%arg0) : (i32) -> !stream.resource<*>
  util.return %0 : !stream.resource<*>
}
"""
    result = run_opt(["-"], stdin=bad.encode())
    assert result.returncode == 1
    assert "'stream.async.alloca' op operand" in result.stderr


EMPTY = """\
util.func public @empty(%arg0: index) -> index {
  %c16 = arith.constant 16 : index
  %0 = arith.muli %arg0, %c16 : index
  %1 = stream.tensor.empty : tensor<?x4xf32>{%arg0} in !stream.resource<*>{%0}
  %2 = stream.tensor.empty : tensor<?x4xf32>{%arg0} in !stream.resource<*>{%0}
  %3 = stream.resource.size %2 : !stream.resource<*>
  util.return %3 : index
}
"""


def test_tensor_empty_prints_runs_and_merges():
    result = run_opt(["-", "-p", "cse"], stdin=EMPTY.encode())
    assert result.returncode == 0, result.stderr
    # Pure, as IREE's: CSE keeps one.
    assert result.stdout.count("%empty = stream.tensor.empty : tensor<?x4xf32>{%arg0} in !stream.resource<*>{%0}") == 1
    assert int(np.asarray(run(EMPTY, "empty", 3)[0])) == 48


def test_tensor_empty_checks_its_dims():
    bad = EMPTY.replace("tensor<?x4xf32>{%arg0} in", "tensor<?x4xf32>{%arg0, %arg0} in", 1)
    result = run_opt(["-"], stdin=bad.encode())
    assert result.returncode == 1
    assert (
        "'stream.tensor.empty' op type set has 1 dynamic dimensions but only 2 dimension values are attached"
        in result.stderr
    )
