// RUN: mini-iree-opt %s --split-input-file --iree-era=3.13 --iree-gpu-test-target=gfx942 -p 'func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})' | filecheck %s
// RUN: not mini-iree-opt %s --split-input-file --iree-gpu-test-target=gfx942 -p 'func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})' 2>&1 | filecheck %s --check-prefix=WALK

// On a GPU, IREE 3.13 gives the vector operands of a matvec the whole tile of
// the data-tiled MMA: the 40-element vector is packed along K only (one outer
// dim of 2), but it is typed with the whole swizzled N x K tile, the swizzle
// group of N (which the matvec lacks) kept. The ACC vector likewise holds the
// whole M x N tile. The matvec then runs one intrinsic per tile, as a matmul
// does: iree_codegen.inner_tiled over the matvec's own two loops, each map
// naming the loops its operand has. The walkthrough's layouts drop the N group
// and refuse the contraction.

// CHECK-DAG: #[[$A:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$Y:.+]] = affine_map<(d0, d1) -> (d0)>

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40]>
#res = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40]>
func.func @matvec(%a: tensor<20x40xf16, #lhs>, %x: tensor<40xf16, #rhs>, %y: tensor<20xf32, #res>) -> tensor<20xf32, #res> {
  %0 = linalg.matvec ins(%a, %x : tensor<20x40xf16, #lhs>, tensor<40xf16, #rhs>) outs(%y : tensor<20xf32, #res>) -> tensor<20xf32, #res>
  return %0 : tensor<20xf32, #res>
}
// CHECK-LABEL: func.func @matvec(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<2x2x4x16x2x4xf16>, %[[X:[a-zA-Z0-9]+]]: tensor<2x4x16x2x4xf16>, %[[Y:[a-zA-Z0-9]+]]: tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
//  CHECK-NEXT:   %[[R:.+]] = iree_codegen.inner_tiled ins(%[[A]], %[[X]]) outs(%[[Y]]) <indexing_maps = [#[[$A]], #[[$X]], #[[$Y]]], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x16_F16, intrinsics_k = 2, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<2x2x4x16x2x4xf16>, tensor<2x4x16x2x4xf16> into tensor<2x4x16x4xf32>
//  CHECK-NEXT:   return %[[R]]
// WALK: error: 'linalg.matvec' op only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled

// -----

// A vecmat of i8: the LHS vector holds the whole M x K tile; the RHS (K x N,
// read N-major) and its map (d0, d1) name N before K, as IREE numbers the loops.

// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$B:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$Y:.+]] = affine_map<(d0, d1) -> (d0)>

#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [70, 50]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [70, 50]>
#res = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [70, 50]>
func.func @vecmat(%x: tensor<50xi8, #lhs>, %b: tensor<50x70xi8, #rhs>, %y: tensor<70xi32, #res>) -> tensor<70xi32, #res> {
  %0 = linalg.vecmat ins(%x, %b : tensor<50xi8, #lhs>, tensor<50x70xi8, #rhs>) outs(%y : tensor<70xi32, #res>) -> tensor<70xi32, #res>
  return %0 : tensor<70xi32, #res>
}
// CHECK-LABEL: func.func @vecmat(
//       CHECK:   iree_codegen.inner_tiled ins(%{{.*}}, %{{.*}}) outs(%{{.*}}) <indexing_maps = [#[[$X]], #[[$B]], #[[$Y]]], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_I32_16x16x32_I8
// WALK: error: 'linalg.vecmat' op only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled

// -----

// A batch matvec keeps its batch loop first.

// CHECK-DAG: #[[$A:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$Y:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>

#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [3, 20, 40]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [3, 20, 40]>
#res = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [3, 20, 40]>
func.func @batch_matvec(%a: tensor<3x20x40xf32, #lhs>, %x: tensor<3x40xf32, #rhs>, %y: tensor<3x20xf32, #res>) -> tensor<3x20xf32, #res> {
  %0 = linalg.batch_matvec ins(%a, %x : tensor<3x20x40xf32, #lhs>, tensor<3x40xf32, #rhs>) outs(%y : tensor<3x20xf32, #res>) -> tensor<3x20xf32, #res>
  return %0 : tensor<3x20xf32, #res>
}
// CHECK-LABEL: func.func @batch_matvec(
//       CHECK:   iree_codegen.inner_tiled {{.*}} <indexing_maps = [#[[$A]], #[[$X]], #[[$Y]]], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]
// WALK: error: 'linalg.batch_matvec' op only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled
