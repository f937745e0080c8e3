// RUN: mini-iree-opt %s -p iree-dispatch-creation-convert-encoding-to-flow --split-input-file | filecheck %s

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

// Both sides take the unset_encoding's own result sizes, as in IREE: an
// encoding keeps the logical shape, so no tensor.dim is needed.

#encoding = #iree_encoding.testing<>
util.func public @unset_encoding_dynamic(%arg0: tensor<?x?xf32, #encoding>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  util.return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: @unset_encoding_dynamic(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<?x?xf32, #encoding>, %[[D0:[a-zA-Z0-9]+]]: index, %[[D1:[a-zA-Z0-9]+]]: index
// CHECK-NOT:     tensor.dim
// CHECK:         flow.tensor.encode %[[SRC]] : tensor<?x?xf32, #encoding>{%[[D0]], %[[D1]]} -> tensor<?x?xf32>{%[[D0]], %[[D1]]}

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


// -----

// An unset_encoding whose result type makes a dynamic size static: its `{}`
// cannot size the operand, which takes its sizes from the IR instead.

#encoding = #iree_encoding.testing<>
util.func public @unset_encoding_refines_shape(%arg0: tensor<?x3xf32, #encoding>) -> tensor<6x3xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x3xf32, #encoding> -> tensor<6x3xf32>
  util.return %0 : tensor<6x3xf32>
}
// CHECK-LABEL: @unset_encoding_refines_shape(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<?x3xf32, #encoding>
// CHECK:         %[[D:.+]] = tensor.dim %[[SRC]], %{{.+}}
// CHECK:         flow.tensor.encode %[[SRC]] : tensor<?x3xf32, #encoding>{%[[D]]} -> tensor<6x3xf32>
