// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// Collectives over a !stream.channel: the kind (with its reduction) and element
// type, and the rank operand the kind names.

// CHECK-LABEL: util.func private @collectives(
// CHECK:         %[[G:.+]] = stream.async.collective<all_gather : f32>[%arg4] channel(%arg0) %arg2[%c0 to %arg3 for %arg3], %arg5[%c0 to %arg3 for %arg3] : !stream.resource<*>{%arg3} -> %arg5 as !stream.resource<*>{%arg3}
// CHECK:         %[[R:.+]] = stream.async.collective<all_reduce with sum : si32>[%arg4] on(#hal.device.affinity<@dev>) channel(%arg0) %arg2[%c0 to %arg3 for %arg3], %[[G]][%c0 to %arg3 for %arg3] : !stream.resource<*>{%arg3} -> %[[G]] as !stream.resource<*>{%arg3}
// CHECK:         stream.async.collective<broadcast : bf16>[%arg4] channel(%arg0) source(%arg1) %arg2[%c0 to %arg3 for %arg3], %[[R]][%c0 to %arg3 for %arg3] : !stream.resource<*>{%arg3} -> %[[R]] as !stream.resource<*>{%arg3}
util.func private @collectives(%channel: !stream.channel, %rank: i32, %send: !stream.resource<*>, %size: index, %count: index, %recv: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %0 = stream.async.collective<all_gather : f32>[%count] channel(%channel) %send[%c0 to %size for %size], %recv[%c0 to %size for %size] : !stream.resource<*>{%size} -> %recv as !stream.resource<*>{%size}
  %1 = stream.async.collective<all_reduce with sum : si32>[%count] on(#hal.device.affinity<@dev>) channel(%channel) %send[%c0 to %size for %size], %0[%c0 to %size for %size] : !stream.resource<*>{%size} -> %0 as !stream.resource<*>{%size}
  %2 = stream.async.collective<broadcast : bf16>[%count] channel(%channel) source(%rank) %send[%c0 to %size for %size], %1[%c0 to %size for %size] : !stream.resource<*>{%size} -> %1 as !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}
