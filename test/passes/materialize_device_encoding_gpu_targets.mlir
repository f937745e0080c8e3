// RUN: mini-iree-opt %s --iree-era=3.13 --split-input-file -p 'func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})' --iree-gpu-test-target=gfx1100 | filecheck %s --check-prefix=RDNA3
// RUN: mini-iree-opt %s --iree-era=3.13 --split-input-file -p 'func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})' --iree-gpu-test-target=gfx908 | filecheck %s --check-prefix=CDNA1

// The older AMD GPUs: RDNA3 (gfx1100) multiplies f16 with its WMMA intrinsic, whose
// accumulator rows are spread over 8 registers of 2 lane halves; CDNA1 (gfx908) only has the
// first MFMA generation: f16 and i8 take its 16x16x16 intrinsics (i8 has no 16x16x32 there).

#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#acc = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @f16_matmul(%a: tensor<?x?xf16, #lhs>, %b: tensor<?x?xf16, #rhs>, %c: tensor<?x?xf32, #acc>) -> tensor<?x?xf32, #acc> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf16, #lhs>, tensor<?x?xf16, #rhs>) outs(%c : tensor<?x?xf32, #acc>) -> tensor<?x?xf32, #acc>
  return %0 : tensor<?x?xf32, #acc>
}
// RDNA3-LABEL: func.func @f16_matmul(
// RDNA3-SAME:    tensor<?x?x2x2x1x16x16xf16>, %{{.+}}: tensor<?x?x2x2x1x16x16xf16>, %{{.+}}: tensor<?x?x2x2x2x2x8x2x16xf32>
// RDNA3:         iree_codegen.inner_tiled
// RDNA3-SAME:      kind = #iree_gpu.data_tiled_mma_layout<intrinsic = WMMAR3_F32_16x16x16_F16, intrinsics_m = 2, subgroups_m = 2, intrinsics_n = 2, subgroups_n = 2, operands_interleaving_intrinsics_k = [0, 1]>
// CDNA1-LABEL: func.func @f16_matmul(
// CDNA1:         kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x16_F16, intrinsics_m = 4, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 2,

// -----

#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#acc = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @i8_matmul(%a: tensor<?x?xi8, #lhs>, %b: tensor<?x?xi8, #rhs>, %c: tensor<?x?xi32, #acc>) -> tensor<?x?xi32, #acc> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xi8, #lhs>, tensor<?x?xi8, #rhs>) outs(%c : tensor<?x?xi32, #acc>) -> tensor<?x?xi32, #acc>
  return %0 : tensor<?x?xi32, #acc>
}
// RDNA3-LABEL: func.func @i8_matmul(
// RDNA3:         intrinsic = WMMAR3_I32_16x16x16_I8
// CDNA1-LABEL: func.func @i8_matmul(
// CDNA1-SAME:    tensor<?x?x4x4x16x4x4xi8>, %{{.+}}: tensor<?x?x4x2x4x16x4x4xi8>, %{{.+}}: tensor<?x?x4x4x2x4x16x4xi32>
// CDNA1:         kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_I32_16x16x16_I8, intrinsics_m = 4, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>

// -----

// A whole matmul on plain tensors: packed, multiplied on the swizzled tiles and unpacked again.
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [37, 21, 45]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [37, 21, 45]>
#acc = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [37, 21, 45]>
func.func @packed_matmul(%a: tensor<37x45xi8>, %b: tensor<45x21xi8>, %c: tensor<37x21xi32>) -> tensor<37x21xi32> {
  %0 = iree_encoding.set_encoding %a : tensor<37x45xi8> -> tensor<37x45xi8, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<45x21xi8> -> tensor<45x21xi8, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<37x21xi32> -> tensor<37x21xi32, #acc>
  %3 = linalg.matmul ins(%0, %1 : tensor<37x45xi8, #lhs>, tensor<45x21xi8, #rhs>) outs(%2 : tensor<37x21xi32, #acc>) -> tensor<37x21xi32, #acc>
  %4 = iree_encoding.unset_encoding %3 : tensor<37x21xi32, #acc> -> tensor<37x21xi32>
  return %4 : tensor<37x21xi32>
}
// RDNA3-LABEL: func.func @packed_matmul(
// RDNA3:         iree_codegen.inner_tiled
// RDNA3-SAME:      intrinsic = WMMAR3_I32_16x16x16_I8
// RDNA3:         linalg.unpack
// CDNA1-LABEL: func.func @packed_matmul(
// CDNA1:         iree_codegen.inner_tiled
// CDNA1-SAME:      intrinsic = MFMA_I32_16x16x16_I8
// CDNA1:         linalg.unpack
