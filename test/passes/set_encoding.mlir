// RUN: mini-iree-opt %s -p iree-dispatch-creation-set-encoding --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-dims=true}' --split-input-file | filecheck %s --check-prefix=DIMS
// RUN: not mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-option=padding}' 2>&1 | filecheck %s --check-prefix=PADDING

// PADDING: error: invalid options for pass 'iree-dispatch-creation-set-encoding': encoding-option=padding (pad-only encodings) is not supported; use 'default'

func.func @matmul_static(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK:      #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
// CHECK-NEXT: #encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
// CHECK-NEXT: #encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
// CHECK-LABEL: func.func @matmul_static(
// CHECK-SAME:      %[[LHS:.+]]: tensor<16x32xf32>, %[[RHS:.+]]: tensor<32x8xf32>)
// CHECK-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[A:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<16x32xf32> -> tensor<16x32xf32, #encoding>
// CHECK-NEXT:    %[[B:.+]] = iree_encoding.set_encoding %[[RHS]] : tensor<32x8xf32> -> tensor<32x8xf32, #encoding1>
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<16x8xf32, #encoding2>
// CHECK-NEXT:    %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<16x8xf32, #encoding2>) -> tensor<16x8xf32, #encoding2>
// CHECK-NEXT:    %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<16x32xf32, #encoding>, tensor<32x8xf32, #encoding1>) outs(%[[F]] : tensor<16x8xf32, #encoding2>) -> tensor<16x8xf32, #encoding2>
// CHECK-NEXT:    %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<16x8xf32, #encoding2> -> tensor<16x8xf32>
// CHECK-NEXT:    return %[[U]] : tensor<16x8xf32>
// No dynamic loop, no encoding_dims.
// DIMS-LABEL: func.func @matmul_static(
// DIMS-NOT:     encoding_dims
// DIMS:         return

// -----

// The init is not a fill: it is encoded with set_encoding, and the result sizes are read from it.
func.func @matmul_dynamic_accumulate(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// CHECK:      #encoding = #iree_encoding.encoding<operand_index = 0 : index, {{.*}} iteration_sizes = [?, ?, ?]>
// CHECK-LABEL: func.func @matmul_dynamic_accumulate(
// CHECK-SAME:      %[[LHS:.+]]: tensor<?x?xf32>, %[[RHS:.+]]: tensor<?x?xf32>, %[[ACC:.+]]: tensor<?x?xf32>)
// CHECK-NEXT:    %[[A:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// CHECK-NEXT:    %[[B:.+]] = iree_encoding.set_encoding %[[RHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// CHECK-NEXT:    %[[C:.+]] = iree_encoding.set_encoding %[[ACC]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding2>
// CHECK-NEXT:    %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D0:.+]] = tensor.dim %[[ACC]], %[[C0]]
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D1:.+]] = tensor.dim %[[ACC]], %[[C1]]
// CHECK-NEXT:    %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[D0]], %[[D1]]}
// CHECK-NEXT:    return %[[U]]
// M and K from the LHS, N from the RHS; the dims are created in operand order.
// DIMS-LABEL: func.func @matmul_dynamic_accumulate(
// DIMS-SAME:      %[[LHS:.+]]: tensor<?x?xf32>, %[[RHS:.+]]: tensor<?x?xf32>, %[[ACC:.+]]: tensor<?x?xf32>)
// DIMS:         %[[M:.+]] = tensor.dim %[[LHS]], %{{.+}}
// DIMS:         %[[K:.+]] = tensor.dim %[[LHS]], %{{.+}}
// DIMS:         %[[N:.+]] = tensor.dim %[[RHS]], %{{.+}}
// DIMS-NEXT:    iree_encoding.set_encoding %[[LHS]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// DIMS-NEXT:    iree_encoding.set_encoding %[[RHS]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// DIMS-NEXT:    iree_encoding.set_encoding %[[ACC]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding2>
// DIMS:         iree_encoding.unset_encoding %{{.+}} encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{

// -----

func.func @batch_matmul(%lhs: tensor<2x?x32xf32>, %rhs: tensor<2x32x8xf32>, %acc: tensor<2x?x8xf32>) -> tensor<2x?x8xf32> {
  %0 = linalg.batch_matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<2x?x32xf32>, tensor<2x32x8xf32>) outs(%acc : tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
  return %0 : tensor<2x?x8xf32>
}
// CHECK:      #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, ?, 8, 32]>
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<2x?x32xf32> -> tensor<2x?x32xf32, #encoding>
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<2x32x8xf32> -> tensor<2x32x8xf32, #encoding1>
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<2x?x8xf32> -> tensor<2x?x8xf32, #encoding2>
// CHECK:         linalg.batch_matmul ins({{.*}} : tensor<2x?x32xf32, #encoding>, tensor<2x32x8xf32, #encoding1>) outs({{.*}} : tensor<2x?x8xf32, #encoding2>) -> tensor<2x?x8xf32, #encoding2>
// CHECK:         iree_encoding.unset_encoding {{.*}} : tensor<2x?x8xf32, #encoding2> -> tensor<2x?x8xf32>{%{{.+}}}
// DIMS-LABEL: func.func @batch_matmul(
// DIMS:         %[[M:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<2x?x32xf32>
// DIMS-NEXT:    iree_encoding.set_encoding %{{.+}} encoding_dims{%[[M]]} : tensor<2x?x32xf32>

// -----

func.func @matvec(%lhs: tensor<16x32xf32>, %rhs: tensor<32xf32>, %acc: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.matvec {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
// CHECK:      #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 32]>
// CHECK-LABEL: func.func @matvec(
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<16x32xf32> -> tensor<16x32xf32, #encoding>
// CHECK-NEXT:    iree_encoding.set_encoding %{{.+}} : tensor<32xf32> -> tensor<32xf32, #encoding1>
// CHECK-NEXT:    iree_encoding.set_encoding %{{.+}} : tensor<16xf32> -> tensor<16xf32, #encoding2>
// CHECK-NEXT:    linalg.matvec ins({{.*}}) outs({{.*}} : tensor<16xf32, #encoding2>) -> tensor<16xf32, #encoding2>
// CHECK-NEXT:    iree_encoding.unset_encoding {{.*}} : tensor<16xf32, #encoding2> -> tensor<16xf32>

// -----

func.func @vecmat(%lhs: tensor<32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.vecmat {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<32xf32>, tensor<32x8xf32>) outs(%acc : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// CHECK:      #map = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [8, 32]>
// CHECK-LABEL: func.func @vecmat(
// CHECK:         linalg.vecmat ins({{.*}} : tensor<32xf32, #encoding>, tensor<32x8xf32, #encoding1>) outs({{.*}} : tensor<8xf32, #encoding2>) -> tensor<8xf32, #encoding2>

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_transpose_b_generic(%lhs: tensor<16x32xf32>, %rhs: tensor<8x32xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x8xf32>) attrs = {iree.opt.data_tiling} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// The generic's own maps become the user_indexing_maps; the hint is gone, the body is kept.
// CHECK:      #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
// CHECK-LABEL: func.func @matmul_transpose_b_generic(
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<8x32xf32> -> tensor<8x32xf32, #encoding1>
// CHECK:         linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<16x32xf32, #encoding>, tensor<8x32xf32, #encoding1>) outs(%{{.+}} : tensor<16x8xf32, #encoding2>) {
// CHECK-NEXT:    ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    } -> tensor<16x8xf32, #encoding2>
// CHECK-NOT:     iree.opt.data_tiling

// -----

func.func @matmul_f16f16f32(%lhs: tensor<?x?xf16>, %rhs: tensor<?x?xf16>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<?x?xf16>, tensor<?x?xf16>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// CHECK:      #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// CHECK-LABEL: func.func @matmul_f16f16f32(
// CHECK:         linalg.matmul ins({{.*}} : tensor<?x?xf16, #encoding>, tensor<?x?xf16, #encoding1>) outs({{.*}} : tensor<?x?xf32, #encoding2>)

// -----

func.func @matmul_i8i8i32(%lhs: tensor<4x?xi8>, %rhs: tensor<?x8xi8>, %acc: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<4x?xi8>, tensor<?x8xi8>) outs(%acc : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}
// CHECK:      #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [4, 8, ?]>
// CHECK-LABEL: func.func @matmul_i8i8i32(
// CHECK:         linalg.matmul ins({{.*}} : tensor<4x?xi8, #encoding>, tensor<?x8xi8, #encoding1>) outs({{.*}} : tensor<4x8xi32, #encoding2>)
// CHECK:         iree_encoding.unset_encoding {{.*}} : tensor<4x8xi32, #encoding2> -> tensor<4x8xi32>
// DIMS-LABEL: func.func @matmul_i8i8i32(
// DIMS:         %[[K:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<4x?xi8>
// DIMS-NEXT:    iree_encoding.set_encoding %{{.+}} encoding_dims{%[[K]]} : tensor<4x?xi8>

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_unsigned_lhs(%lhs: tensor<16x32xi8>, %rhs: tensor<32x8xi8>, %acc: tensor<16x8xi32>) -> tensor<16x8xi32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<16x32xi8>, tensor<32x8xi8>) outs(%acc : tensor<16x8xi32>) attrs = {iree.opt.data_tiling} {
  ^bb0(%in: i8, %in_0: i8, %out: i32):
    %1 = arith.extui %in : i8 to i32
    %2 = arith.extsi %in_0 : i8 to i32
    %3 = arith.muli %1, %2 : i32
    %4 = arith.addi %out, %3 : i32
    linalg.yield %4 : i32
  } -> tensor<16x8xi32>
  return %0 : tensor<16x8xi32>
}
// The zero-extended LHS is recorded as ui8; the tensor types stay i8.
// CHECK:      #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [ui8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
// CHECK-LABEL: func.func @matmul_unsigned_lhs(
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<16x32xi8> -> tensor<16x32xi8, #encoding>
// CHECK:         arith.extui

// -----

// A fill of something other than tensor.empty is re-created on an encoded tensor.empty too:
// the fill overwrites every element.
func.func @fill_of_argument_init(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %init: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @fill_of_argument_init(
// CHECK-NEXT:    %[[CST:.+]] = arith.constant
// CHECK-NEXT:    iree_encoding.set_encoding
// CHECK-NEXT:    iree_encoding.set_encoding
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<16x8xf32, #encoding2>
// CHECK-NEXT:    linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<16x8xf32, #encoding2>)

// -----

// Ops without the hint are not touched.
func.func @no_hint_no_encoding(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_no_encoding(
// CHECK-NEXT:    linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x32xf32>, tensor<32x8xf32>) outs(%{{.+}} : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:    return
