// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The stream tensor ops that fill, slice and update resources, as IREE prints them.

// CHECK-LABEL: util.func public @tensor_ops(
// CHECK:         stream.tensor.splat on(#hal.device.affinity<@device_a>) %arg2 : f32 -> tensor<?x3xf32>{%arg0} in !stream.resource<*>{%arg1}
// CHECK:         stream.tensor.fill on(#hal.device.affinity<@device_a>) %arg2, %arg3[%c0, %c1 for %c1, %c2] : f32 -> tensor<?x3xf32>{%arg0} in %arg3 as !stream.resource<*>{%arg1}
// CHECK:         stream.tensor.slice on(#hal.device.affinity<@device_a>) %arg3[%c0, %c1 for %c1, %c2] : tensor<?x3xf32>{%arg0} in !stream.resource<*>{%arg1} -> tensor<1x2xf32> in !stream.resource<*>{%c8}
// CHECK:         stream.tensor.update on(#hal.device.affinity<@device_a>) %arg4, %arg3[%c0, %c1] : tensor<1x2xf32> in !stream.resource<*>{%c8} -> tensor<?x3xf32>{%arg0} in %arg3 as !stream.resource<*>{%arg1}
util.func public @tensor_ops(%d: index, %size: index, %f: f32, %r: !stream.resource<*>, %u: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %0 = stream.tensor.splat on(#hal.device.affinity<@device_a>) %f : f32 -> tensor<?x3xf32>{%d} in !stream.resource<*>{%size}
  %1 = stream.tensor.fill on(#hal.device.affinity<@device_a>) %f, %r[%c0, %c1 for %c1, %c2] : f32 -> tensor<?x3xf32>{%d} in %r as !stream.resource<*>{%size}
  %2 = stream.tensor.slice on(#hal.device.affinity<@device_a>) %r[%c0, %c1 for %c1, %c2] : tensor<?x3xf32>{%d} in !stream.resource<*>{%size} -> tensor<1x2xf32> in !stream.resource<*>{%c8}
  %3 = stream.tensor.update on(#hal.device.affinity<@device_a>) %u, %r[%c0, %c1] : tensor<1x2xf32> in !stream.resource<*>{%c8} -> tensor<?x3xf32>{%d} in %r as !stream.resource<*>{%size}
  util.return %0, %1, %2, %3 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @whole_fill(
// CHECK:         stream.tensor.fill %arg1, %arg0 : f32 -> tensor<4xf32> in %arg0 as !stream.resource<*>{%arg2}
util.func public @whole_fill(%r: !stream.resource<*>, %f: f32, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.fill %f, %r : f32 -> tensor<4xf32> in %r as !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @trace(
// CHECK:         stream.tensor.trace "FOO" = [
// CHECK-NEXT:      %arg0 : tensor<5xf32> in !stream.resource<staging>{%arg1},
// CHECK-NEXT:      %arg2 : tensor<?x3x?xi32>{%arg3, %arg4} in !stream.resource<staging>{%arg1}
// CHECK-NEXT:    ]
util.func public @trace(%a: !stream.resource<staging>, %size: index, %b: !stream.resource<staging>, %d0: index, %d2: index) {
  stream.tensor.trace "FOO" = [%a : tensor<5xf32> in !stream.resource<staging>{%size}, %b : tensor<?x3x?xi32>{%d0, %d2} in !stream.resource<staging>{%size}]
  util.return
}
