// RUN: mini-iree-opt %s -p iree-codegen-materialize-device-encoding --split-input-file | filecheck %s

// Encoded function arguments and results take their materialized types, as
// IREE's signature conversion gives them (the form IREE's 2026 tests use):
// a returned set_encoding is a linalg.pack returned as the packed tensor.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [7, 7, 7]>
func.func @returns_packed(%a: tensor<7x7xf32>) -> tensor<7x7xf32, #lhs> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<7x7xf32> -> tensor<7x7xf32, #lhs>
  return %0 : tensor<7x7xf32, #lhs>
}
// CHECK-LABEL: func.func @returns_packed(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<7x7xf32>) -> tensor<1x7x8x1xf32>
// CHECK:         %[[PACK:.+]] = linalg.pack %[[A]] padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %{{.+}} : tensor<7x7xf32> -> tensor<1x7x8x1xf32>
// CHECK-NEXT:    return %[[PACK]] : tensor<1x7x8x1xf32>

// -----

// Dynamic encoded arguments: packed outer dims stay dynamic; the contraction
// reads the arguments' sizes with tensor.dim only where it needs them.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @matmul_on_encoded_arguments(%a: tensor<?x?xf32, #lhs>, %b: tensor<?x?xf32, #rhs>, %c: tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%c : tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res>
  return %0 : tensor<?x?xf32, #res>
}
// CHECK-LABEL: func.func @matmul_on_encoded_arguments(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<?x?x16x1xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<?x?x16x1xf32>, %[[C:[a-zA-Z0-9]+]]: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32>
// CHECK-NOT:     tensor.dim
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[A]], %[[B]] : tensor<?x?x16x1xf32>, tensor<?x?x16x1xf32>) outs(%[[C]] : tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32>
// CHECK-NEXT:    return %[[MMT4D]]

// -----

// An unsigned operand already extended before the contraction (the encoding
// names its narrow type, ui4) is not extended again.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [i16, ui4, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [i16, ui4, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [i16, ui4, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @extended_before(%n: index, %k: index, %a: tensor<?x?xi16, #lhs>, %b4: tensor<?x?xi4, #rhs>, %c: tensor<?x?xi32, #res>) -> tensor<?x?xi32, #res> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512vnni", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %e = tensor.empty(%k, %n) : tensor<?x?xi32, #rhs>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b4 : tensor<?x?xi4, #rhs>) outs(%e : tensor<?x?xi32, #rhs>) {
  ^bb0(%in: i4, %out: i32):
    %x = arith.extui %in : i4 to i32
    linalg.yield %x : i32
  } -> tensor<?x?xi32, #rhs>
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xi16, #lhs>, tensor<?x?xi32, #rhs>) outs(%c : tensor<?x?xi32, #res>) -> tensor<?x?xi32, #res>
  return %0 : tensor<?x?xi32, #res>
}
// CHECK-LABEL: func.func @extended_before(
// CHECK:         %[[EXT:.+]] = linalg.generic
// CHECK:           arith.extui %{{.+}} : i4 to i32
// CHECK-NOT:     arith.extui
// CHECK:         linalg.mmt4d ins(%{{.+}}, %[[EXT]] : tensor<?x?x1x8xi16>, tensor<?x?x32x8xi32>)


// -----

// Unsetting a swizzled, dynamically shaped argument: the inverse transpose's
// destination takes the packed argument's outer sizes (its tensor.dim), the
// unpack the sizes the unset_encoding names.

#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#res = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @unset_swizzled_argument(%c: tensor<?x?xf32, #res>, %m: index, %n: index) -> tensor<?x?xf32> attributes {hal.executable.target = #target} {
  %0 = iree_encoding.unset_encoding %c : tensor<?x?xf32, #res> -> tensor<?x?xf32>{%m, %n}
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @unset_swizzled_argument(
// CHECK-SAME:      %[[C:[a-zA-Z0-9]+]]: tensor<?x?x4x8x2x4x16x4xf32>, %[[M:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[D0:.+]] = tensor.dim %[[C]], %[[C0]] : tensor<?x?x4x8x2x4x16x4xf32>
// CHECK:         %[[D1:.+]] = tensor.dim %[[C]], %[[C1]] : tensor<?x?x4x8x2x4x16x4xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?x4x8x4x4x16x2xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[C]] : tensor<?x?x4x8x2x4x16x4xf32>) outs(%[[E]] : tensor<?x?x4x8x4x4x16x2xf32>) permutation = [0, 1, 5, 3, 7, 2, 6, 4]
// CHECK:         %[[COL:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1], [2, 3, 4], [5, 6, 7]] : tensor<?x?x4x8x4x4x16x2xf32> into tensor<?x?x128x128xf32>
// CHECK:         %[[DEST:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         %[[U:.+]] = linalg.unpack %[[COL]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %[[DEST]]
// CHECK:         return %[[U]]
