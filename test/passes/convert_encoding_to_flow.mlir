// RUN: mini-iree-opt %s -p iree-dispatch-creation-convert-encoding-to-flow --split-input-file | filecheck %s
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/03-hoist-encoding-ops.after.mlir -p iree-dispatch-creation-convert-encoding-to-flow,canonicalize | filecheck %s --check-prefix=SEED
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/07_FuseEncodingOpsIntoDispatchRegionsPass.mlir -p iree-dispatch-creation-convert-encoding-to-flow | filecheck %s --check-prefix=EW313

#encoding = #iree_encoding.testing<>
util.func public @set_encoding_static(%arg0: tensor<123x456xf32>) -> tensor<123x456xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 : tensor<123x456xf32> -> tensor<123x456xf32, #encoding>
  util.return %0 : tensor<123x456xf32, #encoding>
}
// CHECK-LABEL: @set_encoding_static(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]
// CHECK-NEXT:    %[[RES:.+]] = flow.tensor.encode %[[SRC]] : tensor<123x456xf32> -> tensor<123x456xf32, #encoding>
// CHECK-NEXT:    util.return %[[RES]]

// -----

// No sizes in the IR for a function argument: tensor.dim provides them.

#encoding = #iree_encoding.testing<>
util.func public @set_encoding_dynamic(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  util.return %0 : tensor<?x?xf32, #encoding>
}
// CHECK-LABEL: @set_encoding_dynamic(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[D0:.+]] = tensor.dim %[[SRC]], %[[C0]]
// CHECK-DAG:     %[[D1:.+]] = tensor.dim %[[SRC]], %[[C1]]
// CHECK:         flow.tensor.encode %[[SRC]] : tensor<?x?xf32>{%[[D0]], %[[D1]]} -> tensor<?x?xf32, #encoding>{%[[D0]], %[[D1]]}

// -----

// Sizes already in the IR are reused; encoding_dims have no counterpart on
// flow.tensor.encode and are dropped.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.func public @set_encoding_reuses_dims(%arg0: !hal.buffer_view, %n: index) -> tensor<?x?xf32, #encoding> {
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %2 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%0, %1}
  %3 = iree_encoding.set_encoding %2 encoding_dims{%0, %n, %1} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  util.return %3 : tensor<?x?xf32, #encoding>
}
// CHECK-LABEL: @set_encoding_reuses_dims(
// CHECK:         %[[D0:.+]] = hal.buffer_view.dim
// CHECK-NEXT:    %[[D1:.+]] = hal.buffer_view.dim
// CHECK-NEXT:    %[[T:.+]] = hal.tensor.import
// CHECK-NEXT:    flow.tensor.encode %[[T]] : tensor<?x?xf32>{%[[D0]], %[[D1]]} -> tensor<?x?xf32, #encoding>{%[[D0]], %[[D1]]}
// CHECK-NEXT:    util.return

// -----

#encoding = #iree_encoding.testing<>
util.func public @set_encoding_in_flow_region(%arg0: tensor<123x456xf32>) -> tensor<123x456xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<123x456xf32, #encoding>) {
    %1 = iree_encoding.set_encoding %arg0 : tensor<123x456xf32> -> tensor<123x456xf32, #encoding>
    flow.return %1 : tensor<123x456xf32, #encoding>
  }
  util.return %0 : tensor<123x456xf32, #encoding>
}
// CHECK-LABEL: @set_encoding_in_flow_region(
// CHECK-NOT:     flow.tensor.encode
// CHECK:         iree_encoding.set_encoding
// CHECK-NOT:     flow.tensor.encode
// CHECK:         util.return

// -----

#encoding = #iree_encoding.testing<>
util.func public @unset_encoding_static(%arg0: tensor<123x456xf32, #encoding>) -> tensor<123x456xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<123x456xf32, #encoding> -> tensor<123x456xf32>
  util.return %0 : tensor<123x456xf32>
}
// CHECK-LABEL: @unset_encoding_static(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]
// CHECK-NEXT:    %[[RES:.+]] = flow.tensor.encode %[[SRC]] : tensor<123x456xf32, #encoding> -> tensor<123x456xf32>
// CHECK-NEXT:    util.return %[[RES]]

// -----

// The operand keeps its own sizes and the result the unset_encoding's, which
// may be smaller (IREE gives both the result sizes).

#encoding = #iree_encoding.testing<>
util.func public @unset_encoding_dynamic(%arg0: tensor<?x?xf32, #encoding>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  util.return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: @unset_encoding_dynamic(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<?x?xf32, #encoding>, %[[D0:[a-zA-Z0-9]+]]: index, %[[D1:[a-zA-Z0-9]+]]: index
// CHECK-DAG:     %[[S0:.+]] = tensor.dim %[[SRC]], %{{.+}}
// CHECK-DAG:     %[[S1:.+]] = tensor.dim %[[SRC]], %{{.+}}
// CHECK:         flow.tensor.encode %[[SRC]] : tensor<?x?xf32, #encoding>{%[[S0]], %[[S1]]} -> tensor<?x?xf32>{%[[D0]], %[[D1]]}

// -----

#encoding = #iree_encoding.testing<>
util.func public @unset_encoding_in_flow_region(%arg0: tensor<123x456xf32, #encoding>) -> tensor<123x456xf32> {
  %0 = flow.dispatch.region -> (tensor<123x456xf32>) {
    %1 = iree_encoding.unset_encoding %arg0 : tensor<123x456xf32, #encoding> -> tensor<123x456xf32>
    flow.return %1 : tensor<123x456xf32>
  }
  util.return %0 : tensor<123x456xf32>
}
// CHECK-LABEL: @unset_encoding_in_flow_region(
// CHECK-NOT:     flow.tensor.encode
// CHECK:         iree_encoding.unset_encoding
// CHECK-NOT:     flow.tensor.encode
// CHECK:         util.return

// Walkthrough dump 03 -> 06 (convert-encoding-to-flow, then canonicalize):
// line for line, `%cst` moved to the top of the function as MLIR's
// canonicalizer places constants.
// SEED-LABEL: util.func public @matmul_f32f32f32(
// SEED-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// SEED-NEXT:    %[[D0:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
// SEED-NEXT:    %[[D1:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
// SEED-NEXT:    %[[A:.+]] = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%[[D0]], %[[D1]]}
// SEED-NEXT:    %[[D3:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[0] : index
// SEED-NEXT:    %[[D4:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index
// SEED-NEXT:    %[[B:.+]] = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<?x?xf32>{%[[D3]], %[[D4]]}
// SEED-NEXT:    %[[LHS:.+]] = flow.tensor.encode %[[A]] : tensor<?x?xf32>{%[[D0]], %[[D1]]} -> tensor<?x?xf32, #encoding>{%[[D0]], %[[D1]]}
// SEED-NEXT:    %[[RHS:.+]] = flow.tensor.encode %[[B]] : tensor<?x?xf32>{%[[D3]], %[[D4]]} -> tensor<?x?xf32, #encoding1>{%[[D3]], %[[D4]]}
// SEED-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[D0]], %[[D4]]}) {
// SEED-NEXT:      %[[E:.+]] = tensor.empty(%[[D0]], %[[D4]]) : tensor<?x?xf32, #encoding2>
// SEED-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// SEED-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%[[F]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// SEED-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[MM]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[D0]], %[[D4]]}
// SEED-NEXT:      flow.return %[[U]] : tensor<?x?xf32>
// SEED-NEXT:    }
// SEED-NEXT:    %[[X:.+]] = hal.tensor.export %[[R]] "output0" : tensor<?x?xf32>{%[[D0]], %[[D4]]} -> !hal.buffer_view
// SEED-NEXT:    util.return %[[X]] : !hal.buffer_view

// IREE 3.13, elementwise-producer-consumer, 07 -> 08: the two set_encodings
// left outside dispatches become flow.tensor.encode in place; the one fused
// into the producer dispatch stays. IREE builds fresh tensor.dim ops for the
// sizes (folded by a later canonicalize); the sizes the compute barriers
// already carry are reused here.
// EW313-LABEL: util.func public @matmul_ew_both(
// EW313:         hal.tensor.import %{{.+}} "input2"
// EW313-NEXT:    %[[W:.+]] = iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?x?xf32>{%[[W0:.+]], %[[W1:.+]]} -> tensor<?x?xf32>
// EW313:         hal.tensor.import %{{.+}} "input3"
// EW313-NEXT:    %[[V:.+]] = iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?xf32>{%[[V0:.+]]} -> tensor<?xf32>
// EW313:         flow.dispatch.region -> (tensor<?x?xf32, #encoding>{%{{.+}}, %{{.+}}}) {
// EW313:           iree_encoding.set_encoding
// EW313-NEXT:      flow.return
// EW313-NEXT:    }
// EW313-NEXT:    arith.constant 1 : index
// EW313-NEXT:    tensor.dim
// EW313-NEXT:    %[[RHS:.+]] = flow.tensor.encode %[[W]] : tensor<?x?xf32>{%[[W0]], %[[W1]]} -> tensor<?x?xf32, #encoding1>{%[[W0]], %[[W1]]}
// EW313-NEXT:    %[[BIAS:.+]] = flow.tensor.encode %[[V]] : tensor<?xf32>{%[[V0]]} -> tensor<?xf32, #encoding3>{%[[V0]]}
// EW313-NEXT:    flow.dispatch.region
// EW313:           linalg.matmul ins(%{{.+}}, %[[RHS]] :
// EW313:           iree_encoding.unset_encoding
