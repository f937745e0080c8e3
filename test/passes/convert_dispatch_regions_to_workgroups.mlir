// RUN: mini-iree-opt %s -p iree-dispatch-creation-convert-dispatch-regions-to-workgroups --split-input-file | filecheck %s

// The walkthrough's matmul dispatch: captured tensors come first, then their
// sizes; the result sizes are already among them. The captured constant is
// cloned into the body and every index operand is part of the workload. The
// dispatch tensors are loaded and stored as they are: tying them to their sizes
// is iree-flow-capture-dynamic-dims' work, later.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.func public @matmul_dynamic(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %2 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%0, %1}
  %3 = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[0] : index
  %4 = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index
  %5 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<?x?xf32>{%3, %4}
  %6 = flow.tensor.encode %2 : tensor<?x?xf32>{%0, %1} -> tensor<?x?xf32, #encoding>{%0, %1}
  %7 = flow.tensor.encode %5 : tensor<?x?xf32>{%3, %4} -> tensor<?x?xf32, #encoding1>{%3, %4}
  %8 = flow.dispatch.region -> (tensor<?x?xf32>{%0, %4}) {
    %10 = tensor.empty(%0, %4) : tensor<?x?xf32, #encoding2>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
    %12 = linalg.matmul ins(%6, %7 : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%11 : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
    %13 = iree_encoding.unset_encoding %12 : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%0, %4}
    flow.return %13 : tensor<?x?xf32>
  }
  %9 = hal.tensor.export %8 "output0" : tensor<?x?xf32>{%0, %4} -> !hal.buffer_view
  util.return %9 : !hal.buffer_view
}
// CHECK-LABEL: util.func public @matmul_dynamic(
// CHECK-NOT:     arith.constant
// CHECK:         %[[M:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view>[0]
// CHECK:         %[[K:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view>[1]
// CHECK:         %[[K2:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view>[0]
// CHECK:         %[[N:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view>[1]
// CHECK:         %[[LHS:.+]] = flow.tensor.encode
// CHECK:         %[[RHS:.+]] = flow.tensor.encode
// CHECK:         %[[RESULT:.+]] = flow.dispatch.workgroups[%[[M]], %[[K]], %[[K2]], %[[N]]](%[[LHS]], %[[RHS]], %[[M]], %[[K]], %[[K2]], %[[N]])
// CHECK-SAME:      : (tensor<?x?xf32, #encoding>{%[[M]], %[[K]]}, tensor<?x?xf32, #encoding1>{%[[K2]], %[[N]]}, index, index, index, index) -> tensor<?x?xf32>{%[[M]], %[[N]]} =
// CHECK-NEXT:      (%[[A0:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>, %[[A1:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>, %[[A2:.+]]: index, %[[A3:.+]]: index, %[[A4:.+]]: index, %[[A5:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
// CHECK-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[W0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A2]], 0 : index
// CHECK-NEXT:      %[[W1:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A3]], 1 : index
// CHECK-NEXT:      %[[W2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A4]], 2 : index
// CHECK-NEXT:      %[[W3:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A5]], 3 : index
// CHECK-NEXT:      %[[L0:.+]] = iree_tensor_ext.dispatch.tensor.load %[[A0]], offsets = [0, 0], sizes = [%[[W0]], %[[W1]]], strides = [1, 1]
// CHECK-NEXT:      %[[L1:.+]] = iree_tensor_ext.dispatch.tensor.load %[[A1]], offsets = [0, 0], sizes = [%[[W2]], %[[W3]]], strides = [1, 1]
// CHECK-NEXT:      %[[EMPTY:.+]] = tensor.empty(%[[W0]], %[[W3]]) : tensor<?x?xf32, #encoding2>
// CHECK-NEXT:      %[[FILL:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[EMPTY]] : tensor<?x?xf32, #encoding2>)
// CHECK-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[L0]], %[[L1]] : {{.*}}) outs(%[[FILL]] : {{.*}})
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %[[MM]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[W0]], %[[W3]]}
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[UNSET]], %[[OUT]], offsets = [0, 0], sizes = [%[[W0]], %[[W3]]], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[W0]], %[[W3]]}
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    } count(%[[C0:.+]]: index, %[[C1:.+]]: index, %[[C2:.+]]: index, %[[C3:.+]]: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[C0]], %[[C1]], %[[C2]], %[[C3]])
// CHECK-NEXT:      flow.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    hal.tensor.export %[[RESULT]] "output0"

// -----

// Static shapes: no sizes to pass, an empty workload, no tie_shape.

util.func public @matmul_static(%a: tensor<5x10xf32>, %b: tensor<10x11xf32>) -> tensor<5x11xf32> {
  %r = flow.dispatch.region -> (tensor<5x11xf32>) attributes {stream.affinity = #hal.device.affinity<@device>} {
    %zero = arith.constant 0.0 : f32
    %0 = tensor.empty() : tensor<5x11xf32>
    %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<5x11xf32>) -> tensor<5x11xf32>
    %2 = linalg.matmul ins(%a, %b : tensor<5x10xf32>, tensor<10x11xf32>) outs(%1 : tensor<5x11xf32>) -> tensor<5x11xf32>
    flow.return %2 : tensor<5x11xf32>
  }
  util.return %r : tensor<5x11xf32>
}
// CHECK-LABEL: util.func public @matmul_static(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<5x10xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<10x11xf32>
// CHECK:         flow.dispatch.workgroups(%[[A]], %[[B]]) : (tensor<5x10xf32>, tensor<10x11xf32>) -> tensor<5x11xf32>
// CHECK-SAME:      stream.affinity = #hal.device.affinity<@device>
// CHECK-NEXT:      (%[[IA:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<5x10xf32>>, %[[IB:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<10x11xf32>>, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x11xf32>>)
// CHECK-NOT:       flow.dispatch.tie_shape
// CHECK:           iree_tensor_ext.dispatch.tensor.load %[[IA]], offsets = [0, 0], sizes = [5, 10], strides = [1, 1]
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[OUT]], offsets = [0, 0], sizes = [5, 11], strides = [1, 1]
// CHECK:         } count() -> (index, index, index) {
// CHECK-NEXT:      iree_tensor_ext.dispatch.workgroup_count_from_slice()

// -----

// A region returning a captured tensor (or computing into it through `outs`)
// updates that tensor in place: the result is tied to it and it is readwrite.

util.func public @tied_result(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.dispatch.region -> (tensor<4xf32>) {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %in, %out : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    flow.return %0 : tensor<4xf32>
  }
  util.return %r : tensor<4xf32>
}
// CHECK-LABEL: util.func public @tied_result(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<4xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<4xf32>
// CHECK:         flow.dispatch.workgroups(%[[A]], %[[B]]) : (tensor<4xf32>, tensor<4xf32>) -> %[[B]] =
// CHECK-NEXT:      (%[[IA:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %[[IB:.+]]: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>) {
// CHECK:           %[[LB:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IB]]
// CHECK:           %[[G:.+]] = linalg.generic
// CHECK-SAME:        outs(%[[LB]] : tensor<4xf32>)
// CHECK:           iree_tensor_ext.dispatch.tensor.store %[[G]], %[[IB]]

// -----

// A captured index value that is no tensor's size is still an operand and part
// of the workload; an index constant is cloned in instead. The size of a
// function argument is not in the IR: tensor.dim provides it.

util.func public @captured_index(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %r = flow.dispatch.region -> (tensor<?xf32>{%n}) {
    %0 = tensor.extract_slice %a[%c0] [%n] [1] : tensor<?xf32> to tensor<?xf32>
    flow.return %0 : tensor<?xf32>
  }
  util.return %r : tensor<?xf32>
}
// CHECK-LABEL: util.func public @captured_index(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<?xf32>, %[[N:[a-zA-Z0-9]+]]: index
// CHECK:         %[[D:.+]] = tensor.dim %[[A]]
// CHECK:         flow.dispatch.workgroups[%[[D]], %[[N]]](%[[A]], %[[D]], %[[N]]) : (tensor<?xf32>{%[[D]]}, index, index) -> tensor<?xf32>{%[[N]]} =
// CHECK:           arith.constant 0 : index
// CHECK:           iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:           iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index

// -----

// A region using the result of an earlier dispatch takes its size from that
// dispatch's `{...}` (IREE's findDynamicDims), not from a new tensor.dim.

util.func public @chained(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %r0 = flow.dispatch.region -> (tensor<?xf32>{%n}) {
    %0 = tensor.extract_slice %a[0] [%n] [1] : tensor<?xf32> to tensor<?xf32>
    flow.return %0 : tensor<?xf32>
  }
  %r1 = flow.dispatch.region -> (tensor<?xf32>{%n}) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r0 : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.addf %in, %in : f32
      linalg.yield %2 : f32
    } -> tensor<?xf32>
    flow.return %1 : tensor<?xf32>
  }
  util.return %r1 : tensor<?xf32>
}
// CHECK-LABEL: util.func public @chained(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<?xf32>, %[[N:[a-zA-Z0-9]+]]: index
// CHECK:         %[[R0:.+]] = flow.dispatch.workgroups
// CHECK-NOT:     tensor.dim
// CHECK:         flow.dispatch.workgroups[%[[N]]](%[[R0]], %[[N]]) : (tensor<?xf32>{%[[N]]}, index) -> tensor<?xf32>{%[[N]]} =
