// RUN: mini-iree-opt --iree-era=3.13 --split-input-file -p 'func.func(iree-codegen-materialize-device-encoding)' %s | filecheck %s
// RUN: mini-iree-opt --split-input-file -p 'func.func(iree-codegen-materialize-device-encoding)' %s | filecheck %s --check-prefix=WALK

// IREE 3.13 lowers a swizzle whose transpose only moves unit dims (the non-unit
// dims keep their order, so no data moves) to a single reshape: set_encoding is
// the pack and one tensor.expand_shape into the permuted tile, unset_encoding one
// tensor.collapse_shape and the unpack; a swizzle that changes no shape adds
// nothing. The walkthrough's IREE always wrote expand_shape + linalg.transpose.

// An f32 matmul on AVX-512 (MMA_X86_AVX512_1x16x1_F32_F32, 6 intrinsics in M):
// the LHS tile 6x1 becomes 6x1x1, the RHS swizzle is the identity on its 16x1
// tile, the ACC tile 6x16 becomes 6x1x16.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [6, 16, 3]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [6, 16, 3]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [6, 16, 3]>
func.func @matmul_unit_swizzles(%a: tensor<6x3xf32>, %b: tensor<3x16xf32>, %c: tensor<6x16xf32>) -> tensor<6x16xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<6x3xf32> -> tensor<6x3xf32, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<3x16xf32> -> tensor<3x16xf32, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<6x16xf32> -> tensor<6x16xf32, #res>
  %3 = linalg.matmul ins(%0, %1 : tensor<6x3xf32, #lhs>, tensor<3x16xf32, #rhs>) outs(%2 : tensor<6x16xf32, #res>) -> tensor<6x16xf32, #res>
  %4 = iree_encoding.unset_encoding %3 : tensor<6x16xf32, #res> -> tensor<6x16xf32>
  return %4 : tensor<6x16xf32>
}
// CHECK-LABEL: func.func @matmul_unit_swizzles(
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[PACK_A:.+]] = linalg.pack %{{.*}} inner_tiles = [6, 1] {{.*}} -> tensor<1x3x6x1xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[A:.+]] = tensor.expand_shape %[[PACK_A]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 3, 6, 1, 1] : tensor<1x3x6x1xf32> into tensor<1x3x6x1x1xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[B:.+]] = linalg.pack %{{.*}} inner_tiles = [16, 1] {{.*}} -> tensor<1x3x16x1xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[PACK_C:.+]] = linalg.pack %{{.*}} inner_tiles = [6, 16] {{.*}} -> tensor<1x1x6x16xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[C:.+]] = tensor.expand_shape %[[PACK_C]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 1, 6, 1, 16] : tensor<1x1x6x16xf32> into tensor<1x1x6x1x16xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[INNER:.+]] = iree_codegen.inner_tiled ins(%[[A]], %[[B]]) outs(%[[C]])
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[COLLAPSED:.+]] = tensor.collapse_shape %[[INNER]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x6x1x16xf32> into tensor<1x1x6x16xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.unpack %[[COLLAPSED]]
// WALK-LABEL: func.func @matmul_unit_swizzles(
//       WALK:   tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 3, 6, 1, 1]
//       WALK:   linalg.transpose {{.*}} permutation = [0, 1, 2, 3, 4]
//       WALK:   linalg.transpose {{.*}} permutation = [0, 1, 2, 3]
//       WALK:   linalg.transpose {{.*}} permutation = [0, 1, 2, 3, 4]
//       WALK:   iree_codegen.inner_tiled
//       WALK:   linalg.transpose {{.*}} permutation = [0, 1, 2, 3, 4]
//       WALK:   tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]]

// -----

// The ACC of a bf16 matmul on AVX2 (the generic scalar intrinsic, 2 x 4 intrinsics):
// the swizzle expands [[2, 1], [4, 1]] and permutes [0, 2, 1, 3], which moves only
// unit dims. set_encoding then unset_encoding without padding: the collapse_shape
// undoes the expand_shape and the unpack the pack (MLIR's folds, which IREE's
// clean-up runs), so nothing is left.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [bf16, bf16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 4, 8]>
func.func @acc_round_trip(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx2,+fma", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %arg0 : tensor<2x4xf32> -> tensor<2x4xf32, #res>
  %1 = iree_encoding.unset_encoding %0 : tensor<2x4xf32, #res> -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @acc_round_trip(
//  CHECK-SAME:     %[[ARG0:[a-zA-Z0-9]+]]
//  CHECK-NEXT:   return %[[ARG0]]
// WALK-LABEL: func.func @acc_round_trip(
//       WALK:   linalg.transpose {{.*}} permutation = [0, 1, 2, 4, 3, 5]
//       WALK:   linalg.transpose {{.*}} permutation = [0, 1, 2, 4, 3, 5]
//       WALK:   linalg.unpack

// -----

// The same with M = 3 (3 x 3 intrinsics): the pack pads N = 4 to 6, so the unpack
// does not undo it and stays; the reshapes between them still fold away.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [bf16, bf16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [3, 4, 8]>
func.func @acc_padded_round_trip(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx2,+fma", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %arg0 : tensor<3x4xf32> -> tensor<3x4xf32, #res>
  %1 = iree_encoding.unset_encoding %0 : tensor<3x4xf32, #res> -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
// CHECK-LABEL: func.func @acc_padded_round_trip(
//       CHECK:   %[[PACK:.+]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) {{.*}} inner_tiles = [3, 3]
//  CHECK-NEXT:   tensor.empty() : tensor<3x4xf32>
//  CHECK-NEXT:   %[[UNPACK:.+]] = linalg.unpack %[[PACK]] {{.*}} inner_tiles = [3, 3]
//  CHECK-NEXT:   return %[[UNPACK]]
// WALK-LABEL: func.func @acc_padded_round_trip(
//       WALK:   tensor.expand_shape
//       WALK:   linalg.transpose
//       WALK:   linalg.transpose
//       WALK:   tensor.collapse_shape
