// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The stream async ops that write byte ranges of resources, as IREE prints them.

// CHECK-LABEL: util.func public @async_ops(
// CHECK:         %[[SPLAT:.+]] = stream.async.splat on(#hal.device.affinity<@device_a>) await(%arg3) %arg4 : i8 -> !stream.resource<*>{%arg1}
// CHECK:         %[[FILL:.+]] = stream.async.fill on(#hal.device.affinity<@device_a>) %arg5, %[[SPLAT]][%c0 to %c8 for %c8] : i32 -> %[[SPLAT]] as !stream.resource<*>{%arg1}
// CHECK:         %[[SLICE:.+]] = stream.async.slice %[[FILL]][%c0 to %c8] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%c8} attributes {foo}
// CHECK:         %[[UPDATE:.+]] = stream.async.update %arg2, %arg0[%c0 to %c8] : !stream.resource<transient>{%c8} -> %arg0 as !stream.resource<*>{%arg1}
// CHECK:         stream.async.copy %[[SLICE]][%c0 to %c8], %[[UPDATE]][%c0 to %c8], %c8 : !stream.resource<*>{%c8} -> %[[UPDATE]] as !stream.resource<*>{%arg1}
util.func public @async_ops(%r: !stream.resource<*>, %size: index, %u: !stream.resource<transient>, %t: !stream.timepoint, %b: i8, %w: i32) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %0 = stream.async.splat on(#hal.device.affinity<@device_a>) await(%t) %b : i8 -> !stream.resource<*>{%size}
  %1 = stream.async.fill on(#hal.device.affinity<@device_a>) %w, %0[%c0 to %c8 for %c8] : i32 -> %0 as !stream.resource<*>{%size}
  %2 = stream.async.slice %1[%c0 to %c8] : !stream.resource<*>{%size} -> !stream.resource<*>{%c8} attributes {foo}
  %3 = stream.async.update %u, %r[%c0 to %c8] : !stream.resource<transient>{%c8} -> %r as !stream.resource<*>{%size}
  %4 = stream.async.copy %2[%c0 to %c8], %3[%c0 to %c8], %c8 : !stream.resource<*>{%c8} -> %3 as !stream.resource<*>{%size}
  util.return %4 : !stream.resource<*>
}

// -----

// Loads and stores of one element of a staging resource, at tensor indices and at byte offsets.
// CHECK-LABEL: util.func public @load_store(
// CHECK:         stream.tensor.load %arg0[%c0, %arg2] : tensor<?x4xf32>{%arg1} in !stream.resource<staging>{%arg3} -> f32
// CHECK:         stream.tensor.load %arg0 : tensor<f32> in !stream.resource<staging>{%arg3} -> f32
// CHECK:         stream.tensor.store %arg4, %arg0[%c0, %arg2] : f32 -> tensor<?x4xf32>{%arg1} in %arg0 as !stream.resource<staging>{%arg3}
// CHECK:         stream.async.load %arg0[%c0] : !stream.resource<staging>{%arg3} -> f32
// CHECK:         stream.async.store %arg4, %arg0[%c0] : f32 -> %arg0 as !stream.resource<staging>{%arg3}
util.func public @load_store(%r: !stream.resource<staging>, %d: index, %j: index, %size: index, %v: f32) -> (f32, f32, f32, !stream.resource<staging>, !stream.resource<staging>) {
  %c0 = arith.constant 0 : index
  %0 = stream.tensor.load %r[%c0, %j] : tensor<?x4xf32>{%d} in !stream.resource<staging>{%size} -> f32
  %1 = stream.tensor.load %r : tensor<f32> in !stream.resource<staging>{%size} -> f32
  %2 = stream.tensor.store %v, %r[%c0, %j] : f32 -> tensor<?x4xf32>{%d} in %r as !stream.resource<staging>{%size}
  %3 = stream.async.load %r[%c0] : !stream.resource<staging>{%size} -> f32
  %4 = stream.async.store %v, %r[%c0] : f32 -> %r as !stream.resource<staging>{%size}
  util.return %0, %1, %3, %2, %4 : f32, f32, f32, !stream.resource<staging>, !stream.resource<staging>
}
