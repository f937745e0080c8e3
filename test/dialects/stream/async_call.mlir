// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// Async functions on resources and their calls, as IREE prints them: a result
// tied to an argument is written as the argument.

// CHECK: stream.async.func private @update_in_place(%arg0: !stream.resource<*>, %arg1: index) -> %arg0
// CHECK: stream.async.func private @make(%arg0: index) -> !stream.resource<transient>
// CHECK: stream.async.func private @two(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)
stream.async.func private @update_in_place(%arg0: !stream.resource<*>, %arg1: index) -> %arg0
stream.async.func private @make(%size: index) -> !stream.resource<transient>
stream.async.func private @two(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)

// CHECK-LABEL: util.func private @calls(
// CHECK:         %[[A:.+]] = stream.async.call @update_in_place(%arg0[%c0 to %arg1 for %arg1], %arg1) : (!stream.resource<external>{%arg1}, index) -> %arg0{%arg1}
// CHECK:         %[[B:.+]] = stream.async.call on(#hal.device.affinity<@dev>) @make(%arg1) : (index) -> !stream.resource<transient>{%arg1}
// CHECK:         %[[C:.+]]:2 = stream.async.call @two(%[[A]][%c0 to %arg1 for %arg1], %arg1) : (!stream.resource<external>{%arg1}, index) -> (%[[A]]{%arg1}, !stream.resource<external>{%arg1})
util.func private @calls(%r: !stream.resource<external>, %size: index) -> (!stream.resource<external>, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %0 = stream.async.call @update_in_place(%r[%c0 to %size for %size], %size) : (!stream.resource<external>{%size}, index) -> %r{%size}
  %1 = stream.async.call on(#hal.device.affinity<@dev>) @make(%size) : (index) -> !stream.resource<transient>{%size}
  %2:2 = stream.async.call @two(%0[%c0 to %size for %size], %size) : (!stream.resource<external>{%size}, index) -> (%0{%size}, !stream.resource<external>{%size})
  util.return %2#0, %1 : !stream.resource<external>, !stream.resource<transient>
}
