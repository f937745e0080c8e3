// RUN: mini-iree-opt %s -p iree-dispatch-creation-set-encoding --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-dims=true}' --split-input-file | filecheck %s --check-prefix=DIMS
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-option=matmulk}' --split-input-file | filecheck %s --check-prefix=MATMULK
// RUN: not mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-option=matmulk encoding-dims=true}' 2>&1 | filecheck %s --check-prefix=BADDIMS
// RUN: not mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-option=tiled}' 2>&1 | filecheck %s --check-prefix=BADOPTION

// encoding_dims are loop sizes: only the verbose encoding has loops to size.
// BADDIMS: <cmdline>:1:{{[0-9]+}}: error: invalid options for pass 'iree-dispatch-creation-set-encoding': encoding-dims=true needs encoding-option=default: 'matmulk' encodings carry no iteration sizes
// BADOPTION: error: invalid options for pass 'iree-dispatch-creation-set-encoding': unknown encoding-option 'tiled' (expected one of: default, matmulk, padding)

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
// matmulk: only where each operand's reduced (K) dimension is; the encoded fill still replaces the old one.
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [1]>
// MATMULK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = [0]>
// MATMULK-NEXT: #encoding2 = #iree_encoding.matmul_k<k_dims = []>
// MATMULK-LABEL: func.func @matmul_static(
// MATMULK-SAME:      %[[LHS:.+]]: tensor<16x32xf32>, %[[RHS:.+]]: tensor<32x8xf32>)
// MATMULK-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// MATMULK-NEXT:    %[[A:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<16x32xf32> -> tensor<16x32xf32, #encoding>
// MATMULK-NEXT:    %[[B:.+]] = iree_encoding.set_encoding %[[RHS]] : tensor<32x8xf32> -> tensor<32x8xf32, #encoding1>
// MATMULK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<16x8xf32, #encoding2>
// MATMULK-NEXT:    %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<16x8xf32, #encoding2>) -> tensor<16x8xf32, #encoding2>
// MATMULK-NEXT:    %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<16x32xf32, #encoding>, tensor<32x8xf32, #encoding1>) outs(%[[F]] : tensor<16x8xf32, #encoding2>) -> tensor<16x8xf32, #encoding2>
// MATMULK-NEXT:    %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<16x8xf32, #encoding2> -> tensor<16x8xf32>
// MATMULK-NEXT:    return %[[U]] : tensor<16x8xf32>

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
// Dynamic sizes do not show in matmul_k: the encodings are those of the static matmul.
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [1]>
// MATMULK-LABEL: func.func @matmul_dynamic_accumulate(
// MATMULK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding2>
// MATMULK:         iree_encoding.unset_encoding %{{.+}} : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%{{.+}}, %{{.+}}}

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
// The batch dimension comes first: K is dimension 2 of the LHS and 1 of the RHS.
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [2]>
// MATMULK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = [1]>
// MATMULK-NEXT: #encoding2 = #iree_encoding.matmul_k<k_dims = []>
// MATMULK-LABEL: func.func @batch_matmul(
// MATMULK:         linalg.batch_matmul ins({{.*}} : tensor<2x?x32xf32, #encoding>, tensor<2x32x8xf32, #encoding1>) outs({{.*}} : tensor<2x?x8xf32, #encoding2>)

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
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [1]>
// MATMULK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = [0]>
// MATMULK-NEXT: #encoding2 = #iree_encoding.matmul_k<k_dims = []>
// MATMULK-LABEL: func.func @matvec(
// MATMULK:         linalg.matvec ins({{.*}} : tensor<16x32xf32, #encoding>, tensor<32xf32, #encoding1>) outs({{.*}} : tensor<16xf32, #encoding2>)

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
// The vector and the matrix are both reduced along their first dimension: one alias for both.
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [0]>
// MATMULK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = []>
// MATMULK-LABEL: func.func @vecmat(
// MATMULK:         linalg.vecmat ins({{.*}} : tensor<32xf32, #encoding>, tensor<32x8xf32, #encoding>) outs({{.*}} : tensor<8xf32, #encoding1>)

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
// A transposed RHS is reduced along its second dimension, like the LHS.
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [1]>
// MATMULK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = []>
// MATMULK-LABEL: func.func @matmul_transpose_b_generic(
// MATMULK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x32xf32, #encoding>, tensor<8x32xf32, #encoding>) outs(%{{.+}} : tensor<16x8xf32, #encoding1>)

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
// MATMULK-LABEL: func.func @no_hint_no_encoding(
// MATMULK-NOT:     iree_encoding
// MATMULK:         return

// -----

// Every set_encoding of a linalg.fill in the function becomes a fill of an
// encoded tensor.empty, whether or not this pass created it.
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32]>
func.func @encode_fill_result(%m: index) -> tensor<?x16xf32, #encoding> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty(%m) : tensor<?x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %0 = iree_encoding.set_encoding %f : tensor<?x16xf32> -> tensor<?x16xf32, #encoding>
  return %0 : tensor<?x16xf32, #encoding>
}
// CHECK-LABEL: func.func @encode_fill_result(
// CHECK-SAME:      %[[M:.+]]: index)
// CHECK-NEXT:    %[[CST:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[E:.+]] = tensor.empty(%[[M]]) : tensor<?x16xf32, #encoding>
// CHECK-NEXT:    %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x16xf32, #encoding>) -> tensor<?x16xf32, #encoding>
// CHECK-NEXT:    return %[[F]]
// MATMULK-LABEL: func.func @encode_fill_result(
// MATMULK-NOT:     iree_encoding.set_encoding
// MATMULK:         return

// -----

// A fill of a dynamic argument: the encoded tensor.empty is sized by the
// argument, and so is the unset_encoding (the fill's result measured on the
// tensor it fills).
func.func @fill_of_dynamic_argument(%lhs: tensor<?x32xf32>, %rhs: tensor<32x8xf32>, %init: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<?x32xf32>, tensor<32x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
// CHECK-LABEL: func.func @fill_of_dynamic_argument(
// CHECK-SAME:      %[[LHS:.+]]: tensor<?x32xf32>, %[[RHS:.+]]: tensor<32x8xf32>, %[[INIT:.+]]: tensor<?x8xf32>)
// CHECK:         iree_encoding.set_encoding %[[RHS]]
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.+]] = tensor.dim %[[INIT]], %[[C0]] : tensor<?x8xf32>
// CHECK-NEXT:    %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x8xf32, #encoding2>
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    %[[R:.+]] = linalg.matmul
// CHECK-NEXT:    %[[C0B:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DB:.+]] = tensor.dim %[[INIT]], %[[C0B]] : tensor<?x8xf32>
// CHECK-NEXT:    iree_encoding.unset_encoding %[[R]] : tensor<?x8xf32, #encoding2> -> tensor<?x8xf32>{%[[DB]]}

// -----

// A scaled (MX) contraction: five operands, each with a scaled_matmul encoding
// carrying all five element types. Under matmulk the data operands are reduced
// along the block loop and the loop inside a block, the scales along the block loop.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @scaled_matmul(%a: tensor<16x4x32xf4E2M1FN>, %b: tensor<8x4x32xf4E2M1FN>, %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<8x4xf8E8M0FNU>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b, %sa, %sb : tensor<16x4x32xf4E2M1FN>, tensor<8x4x32xf4E2M1FN>, tensor<16x4xf8E8M0FNU>, tensor<8x4xf8E8M0FNU>) outs(%acc : tensor<16x8xf32>) attrs = {iree.opt.data_tiling} {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %xs: f8E8M0FNU, %ys: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %x, %xs : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %y, %ys : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK:      #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [16, 8, 4, 32]>
// CHECK:      #encoding4 = #iree_encoding.encoding<operand_index = 4 : index, op_type = scaled_matmul,
// CHECK-LABEL: func.func @scaled_matmul(
// CHECK-SAME:      %[[A:.+]]: tensor<16x4x32xf4E2M1FN>, %[[B:.+]]: tensor<8x4x32xf4E2M1FN>, %[[SA:.+]]: tensor<16x4xf8E8M0FNU>, %[[SB:.+]]: tensor<8x4xf8E8M0FNU>, %[[ACC:.+]]: tensor<16x8xf32>)
// CHECK-NEXT:    %[[EA:.+]] = iree_encoding.set_encoding %[[A]] : tensor<16x4x32xf4E2M1FN> -> tensor<16x4x32xf4E2M1FN, #encoding>
// CHECK-NEXT:    %[[EB:.+]] = iree_encoding.set_encoding %[[B]] : tensor<8x4x32xf4E2M1FN> -> tensor<8x4x32xf4E2M1FN, #encoding1>
// CHECK-NEXT:    %[[ESA:.+]] = iree_encoding.set_encoding %[[SA]] : tensor<16x4xf8E8M0FNU> -> tensor<16x4xf8E8M0FNU, #encoding2>
// CHECK-NEXT:    %[[ESB:.+]] = iree_encoding.set_encoding %[[SB]] : tensor<8x4xf8E8M0FNU> -> tensor<8x4xf8E8M0FNU, #encoding3>
// CHECK-NEXT:    %[[EACC:.+]] = iree_encoding.set_encoding %[[ACC]] : tensor<16x8xf32> -> tensor<16x8xf32, #encoding4>
// CHECK-NEXT:    %[[R:.+]] = linalg.generic {{.*}} ins(%[[EA]], %[[EB]], %[[ESA]], %[[ESB]] : {{.*}}) outs(%[[EACC]] : tensor<16x8xf32, #encoding4>)
// CHECK:         iree_encoding.unset_encoding %[[R]] : tensor<16x8xf32, #encoding4> -> tensor<16x8xf32>
// MATMULK:      #encoding = #iree_encoding.matmul_k<k_dims = [1, 2]>
// MATMULK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = [1]>
// MATMULK-NEXT: #encoding2 = #iree_encoding.matmul_k<k_dims = []>
// MATMULK-LABEL: func.func @scaled_matmul(
// MATMULK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x4x32xf4E2M1FN, #encoding>, tensor<8x4x32xf4E2M1FN, #encoding>, tensor<16x4xf8E8M0FNU, #encoding1>, tensor<8x4xf8E8M0FNU, #encoding1>) outs(%{{.+}} : tensor<16x8xf32, #encoding2>)

// -----

// Padding a fill with the fill's own value is a fill of the padded shape
// (linalg.fill's canonicalization, run with the rewrite), which then takes the
// encoding directly. A pad with another value stays, encoded as it is.
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>
func.func @encode_padded_fill(%m: index, %hi: index) -> (tensor<?x24xf32, #encoding>, tensor<?x24xf32, #encoding>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%m) : tensor<?x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x20xf32>) -> tensor<?x20xf32>
  %same = tensor.pad %f low[0, 0] high[%hi, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x20xf32> to tensor<?x24xf32>
  %other = tensor.pad %f low[0, 0] high[%hi, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<?x20xf32> to tensor<?x24xf32>
  %0 = iree_encoding.set_encoding %same : tensor<?x24xf32> -> tensor<?x24xf32, #encoding>
  %1 = iree_encoding.set_encoding %other : tensor<?x24xf32> -> tensor<?x24xf32, #encoding>
  return %0, %1 : tensor<?x24xf32, #encoding>, tensor<?x24xf32, #encoding>
}
// CHECK-LABEL: func.func @encode_padded_fill(
// CHECK-SAME:      %[[M:.+]]: index, %[[HI:.+]]: index)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<?x20xf32>)
// CHECK-NEXT:    %[[ROWS:.+]] = arith.addi %[[M]], %[[HI]] : index
// CHECK-NEXT:    %[[OTHER:.+]] = tensor.pad %[[F]] low[0, 0] high[%[[HI]], 4] {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      tensor.yield %[[ONE]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[E:.+]] = tensor.empty(%[[ROWS]]) : tensor<?x24xf32, #encoding>
// CHECK-NEXT:    %[[SAME:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?x24xf32, #encoding>) -> tensor<?x24xf32, #encoding>
// CHECK-NEXT:    %[[ENC:.+]] = iree_encoding.set_encoding %[[OTHER]] : tensor<?x24xf32> -> tensor<?x24xf32, #encoding>
// CHECK-NEXT:    return %[[SAME]], %[[ENC]]

// -----

// With encoding_dims, a size read off an operand produced by a linalg op is
// read where MLIR's reifyResultShapes reads it: on the producer's operand that
// carries the loop (the broadcast's input, a function argument here), or, for
// a loop only its init carries (the batch), the init's tensor.empty size.
#bcast_in = affine_map<(d0, d1, d2) -> (d1, d2)>
#bcast_out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @sizes_through_broadcast(%a: tensor<?x?xf32>, %b: tensor<?x?x?xf32>, %batch: index, %m: index, %k: index, %n: index) -> tensor<?x?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%batch, %m, %k) : tensor<?x?x?xf32>
  %lhs = linalg.generic {indexing_maps = [#bcast_in, #bcast_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x?x?xf32>
  %init = tensor.empty(%batch, %m, %n) : tensor<?x?x?xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %0 = linalg.batch_matmul {iree.opt.data_tiling} ins(%lhs, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%fill : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
// DIMS-LABEL: func.func @sizes_through_broadcast(
// DIMS-SAME:      %[[A:[a-zA-Z0-9]+]]: tensor<?x?xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>, %[[BATCH:[a-zA-Z0-9]+]]: index
// DIMS-DAG:     %[[C0:.+]] = arith.constant 0 : index
// DIMS-DAG:     %[[C1:.+]] = arith.constant 1 : index
// DIMS-DAG:     %[[M:.+]] = tensor.dim %[[A]], %[[C0]]
// DIMS-DAG:     %[[K:.+]] = tensor.dim %[[A]], %[[C1]]
// DIMS-DAG:     %[[N:.+]] = tensor.dim %[[B]], %{{.+}}
// DIMS:         iree_encoding.set_encoding %{{.+}} encoding_dims{%[[BATCH]], %[[M]], %[[N]], %[[K]]}
