// RUN: mini-iree-opt %s --split-input-file | filecheck %s --check-prefix=ROUNDTRIP
// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s

// stream.tensor.clone prints as IREE prints it; canonicalization replaces a
// clone that keeps the resource type by its source: with one use
// (TensorCloneOp::fold) or when no use ties it (ElideUnneededTensorClones).

util.func public @one_use(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index) -> !stream.resource<*> {
  %0 = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %arg0 : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<*>{%arg4} -> tensor<?xf32>{%arg3} in !stream.resource<*>{%arg5}
  util.return %0 : !stream.resource<*>
}
// ROUNDTRIP-LABEL: util.func public @one_use(
// ROUNDTRIP:         %0 = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %arg0 : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<*>{%arg4} -> tensor<?xf32>{%arg3} in !stream.resource<*>{%arg5}
// CHECK-LABEL: util.func public @one_use(
// CHECK-NEXT:    util.return %arg0 : !stream.resource<*>

// -----

util.func public @untied_uses(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.clone %arg0 : tensor<2x3xf32> in !stream.resource<*>{%arg1} -> tensor<6xf32> in !stream.resource<*>{%arg2}
  util.return %0, %0 : !stream.resource<*>, !stream.resource<*>
}
// ROUNDTRIP-LABEL: util.func public @untied_uses(
// ROUNDTRIP:         stream.tensor.clone %arg0 : tensor<2x3xf32> in !stream.resource<*>{%arg1} -> tensor<6xf32> in !stream.resource<*>{%arg2}
// CHECK-LABEL: util.func public @untied_uses(
// CHECK-NEXT:    util.return %arg0, %arg0 : !stream.resource<*>, !stream.resource<*>

// -----

// Another resource type: a real copy, kept.
util.func public @other_lifetime(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<external> {
  %0 = stream.tensor.clone %arg0 : tensor<6xf32> in !stream.resource<*>{%arg1} -> tensor<6xf32> in !stream.resource<external>{%arg1}
  util.return %0 : !stream.resource<external>
}
// CHECK-LABEL: util.func public @other_lifetime(
// CHECK-NEXT:    %[[C:.+]] = stream.tensor.clone %arg0 : tensor<6xf32> in !stream.resource<*>{%arg1} -> tensor<6xf32> in !stream.resource<external>{%arg1}
// CHECK-NEXT:    util.return %[[C]]

// -----

// Tied by a dispatch and used again: kept (the dispatch must not write into
// the value the other use reads).
util.func public @tied_and_used(%arg0: !stream.resource<*>, %arg1: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.clone %arg0 : tensor<16xf32> in !stream.resource<*>{%arg1} -> tensor<4x4xf32> in !stream.resource<*>{%arg1}
  %1 = stream.tensor.dispatch @ex::@entry(%0) : (tensor<4x4xf32> in !stream.resource<*>{%arg1}) -> tensor<4x4xf32> in %0{%arg1}
  util.return %1, %0 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: util.func public @tied_and_used(
// CHECK-NEXT:    %[[C:.+]] = stream.tensor.clone %arg0
// CHECK-NEXT:    %[[D:.+]] = stream.tensor.dispatch @ex::@entry(%[[C]]) : (tensor<4x4xf32> in !stream.resource<*>{%arg1}) -> tensor<4x4xf32> in %[[C]]{%arg1}
// CHECK-NEXT:    util.return %[[D]], %[[C]]
