// RUN: mini-iree-opt --split-input-file -p 'func.func(iree-codegen-materialize-device-encoding)' %s | filecheck %s

// `enable_inner_tiled = true` on an AVX-512 target: a static f32 matmul is packed
// for MMA_X86_AVX512_1x16x1_F32_F32 unrolled 5 times in M (M = 5 caps it) and twice
// in N (N = 20 caps it), and computed by one iree_codegen.inner_tiled with the CPU
// data-tiled kind; the RHS is read N-major, as mmt4d reads it.

// CHECK-DAG: #[[$LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$ACC:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [5, 20, 7]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [5, 20, 7]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [5, 20, 7]>
func.func @matmul_avx512(%a: tensor<5x7xf32>, %b: tensor<7x20xf32>, %c: tensor<5x20xf32>) -> tensor<5x20xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<5x7xf32> -> tensor<5x7xf32, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<7x20xf32> -> tensor<7x20xf32, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<5x20xf32> -> tensor<5x20xf32, #res>
  %3 = linalg.matmul ins(%0, %1 : tensor<5x7xf32, #lhs>, tensor<7x20xf32, #rhs>) outs(%2 : tensor<5x20xf32, #res>) -> tensor<5x20xf32, #res>
  %4 = iree_encoding.unset_encoding %3 : tensor<5x20xf32, #res> -> tensor<5x20xf32>
  return %4 : tensor<5x20xf32>
}
// CHECK-LABEL: func.func @matmul_avx512(
//       CHECK:   %[[PACK_A:.+]] = linalg.pack %{{.*}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [5, 1] into %{{.*}} : tensor<5x7xf32> -> tensor<1x7x5x1xf32>
//       CHECK:   tensor.expand_shape %[[PACK_A]] {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 7, 5, 1, 1] : tensor<1x7x5x1xf32> into tensor<1x7x5x1x1xf32>
//       CHECK:   %[[PACK_B:.+]] = linalg.pack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %{{.*}} : tensor<7x20xf32> -> tensor<1x7x32x1xf32>
//       CHECK:   tensor.expand_shape %[[PACK_B]] {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 7, 2, 16, 1] : tensor<1x7x32x1xf32> into tensor<1x7x2x16x1xf32>
//       CHECK:   %[[PACK_C:.+]] = linalg.pack %{{.*}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [5, 32] into %{{.*}} : tensor<5x20xf32> -> tensor<1x1x5x32xf32>
//       CHECK:   %[[EXPAND_C:.+]] = tensor.expand_shape %[[PACK_C]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [1, 1, 5, 1, 2, 16] : tensor<1x1x5x32xf32> into tensor<1x1x5x1x2x16xf32>
//       CHECK:   %[[ACC:.+]] = linalg.transpose ins(%[[EXPAND_C]] : tensor<1x1x5x1x2x16xf32>) outs(%{{.*}} : tensor<1x1x5x2x1x16xf32>) permutation = [0, 1, 2, 4, 3, 5]
//       CHECK:   %[[INNER:.+]] = iree_codegen.inner_tiled ins(%{{.*}}, %{{.*}}) outs(%[[ACC]]) <indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$ACC]]], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_1x16x1_F32_F32, intrinsics_m = 5, intrinsics_n = 2>, semantics = #iree_cpu.mma_semantics<>> : tensor<1x7x5x1x1xf32>, tensor<1x7x2x16x1xf32> into tensor<1x1x5x2x1x16xf32>
//       CHECK:   linalg.transpose ins(%[[INNER]] : tensor<1x1x5x2x1x16xf32>) outs(%{{.*}} : tensor<1x1x5x1x2x16xf32>) permutation = [0, 1, 2, 4, 3, 5]
//       CHECK:   tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x1x5x1x2x16xf32> into tensor<1x1x5x32xf32>
//       CHECK:   linalg.unpack %{{.*}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [5, 32] into %{{.*}} : tensor<1x1x5x32xf32> -> tensor<5x20xf32>

// -----

// A narrow N (4) on AVX-512: the M/N-swapped MMA_X86_AVX512_16x1x1_F32_F32 uses all
// 16 lanes; N is unrolled 4 times and M twice, and the result tile is not transposed
// into a narrow M as the mmt4d path does.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 4, 3]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 4, 3]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 4, 3]>
func.func @matmul_narrow_n(%a: tensor<20x3xf32>, %b: tensor<3x4xf32>, %c: tensor<20x4xf32>) -> tensor<20x4xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<20x3xf32> -> tensor<20x3xf32, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<3x4xf32> -> tensor<3x4xf32, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<20x4xf32> -> tensor<20x4xf32, #res>
  %3 = linalg.matmul ins(%0, %1 : tensor<20x3xf32, #lhs>, tensor<3x4xf32, #rhs>) outs(%2 : tensor<20x4xf32, #res>) -> tensor<20x4xf32, #res>
  %4 = iree_encoding.unset_encoding %3 : tensor<20x4xf32, #res> -> tensor<20x4xf32>
  return %4 : tensor<20x4xf32>
}
// CHECK-LABEL: func.func @matmul_narrow_n(
//       CHECK:   iree_codegen.inner_tiled
//  CHECK-SAME:     kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_16x1x1_F32_F32, intrinsics_m = 2, intrinsics_n = 4>
//       CHECK:   linalg.unpack %{{.*}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 4]

// -----

// No AVX: i8 x i8 -> i32 runs on the generic scalar intrinsic, which carries its
// element types. 16 registers: 3 x 3 accumulators + 3 + 3 inputs (M = 6 and N = 9
// allow it); whole bytes need no K grouping.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [6, 9, 5]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [6, 9, 5]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [6, 9, 5]>
func.func @matmul_i8_generic(%a: tensor<6x5xi8, #lhs>, %b: tensor<5x9xi8, #rhs>, %c: tensor<6x9xi32, #res>) -> tensor<6x9xi32, #res> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = linalg.matmul ins(%a, %b : tensor<6x5xi8, #lhs>, tensor<5x9xi8, #rhs>) outs(%c : tensor<6x9xi32, #res>) -> tensor<6x9xi32, #res>
  return %0 : tensor<6x9xi32, #res>
}
// CHECK-LABEL: func.func @matmul_i8_generic(
//       CHECK:   iree_codegen.inner_tiled
//  CHECK-SAME:     kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_GENERIC_SCALAR_1x1x1_REG16, intrinsics_m = 3, intrinsics_n = 3, lhs_type = i8, rhs_type = i8, acc_type = i32>

// -----

// Sub-byte inputs on the generic scalar intrinsic: K is grouped by two so that each
// group of i4 is a whole byte (2 x 3 accumulators + 2 x 2 + 3 x 2 inputs = 16 registers).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [i4, i4, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_i4_generic(%a: tensor<9x10xi4>) -> tensor<9x10xi4, #lhs> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx2,+fma", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<9x10xi4> -> tensor<9x10xi4, #lhs>
  return %0 : tensor<9x10xi4, #lhs>
}
// CHECK-LABEL: func.func @set_encoding_i4_generic(
//       CHECK:   linalg.pack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %{{.*}} : tensor<9x10xi4> -> tensor<5x5x2x2xi4>
//       CHECK:   tensor.expand_shape %{{.*}} : tensor<5x5x2x2xi4> into tensor<5x5x2x1x2x1xi4>
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<5x5x2x1x2x1xi4>) outs(%{{.*}} : tensor<5x5x2x2x1x1xi4>) permutation = [0, 1, 2, 4, 3, 5]

// -----

// Without `enable_inner_tiled` the same target keeps the mmt4d path.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @matmul_disabled(%a: tensor<?x?xf32, #lhs>, %b: tensor<?x?xf32, #rhs>, %c: tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f", enable_inner_tiled = false, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%c : tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res>
  return %0 : tensor<?x?xf32, #res>
}
// CHECK-LABEL: func.func @matmul_disabled(
//   CHECK-NOT:   iree_codegen.inner_tiled
//       CHECK:   linalg.mmt4d
