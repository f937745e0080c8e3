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

// -----

// linalg.index in a generic on a packed result: index d is rebuilt from the
// packed loops, outer * tile + the tile's swizzle pieces (innermost first).
// The 16 rows of an accumulator tile are split as the intrinsic's layout says:
// 8 x 2 on RDNA3 (WMMA), 4 x 4 on CDNA1 (MFMA), with the columns whole.
#acc = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [37, 21, 64]>
func.func @lower_triangle(%x: tensor<37x21xf32>) -> tensor<37x21xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = iree_encoding.set_encoding %x : tensor<37x21xf32> -> tensor<37x21xf32, #acc>
  %1 = tensor.empty() : tensor<37x21xf32, #acc>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<37x21xf32, #acc>) outs(%1 : tensor<37x21xf32, #acc>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sge, %i, %j : index
    %v = arith.select %keep, %in, %zero : f32
    linalg.yield %v : f32
  } -> tensor<37x21xf32, #acc>
  %3 = iree_encoding.unset_encoding %2 : tensor<37x21xf32, #acc> -> tensor<37x21xf32>
  return %3 : tensor<37x21xf32>
}
// RDNA3-LABEL: func.func @lower_triangle(
// RDNA3-DAG:     %[[C16:.+]] = arith.constant 16 : index
// RDNA3-DAG:     %[[C2:.+]] = arith.constant 2 : index
// RDNA3:         linalg.generic
// RDNA3-SAME:      outs(%{{.+}} : tensor<3x2x8x2x16xf32>)
// RDNA3:           %[[D0:.+]] = linalg.index 0 : index
// RDNA3:           %[[D3:.+]] = linalg.index 3 : index
// RDNA3:           %[[D2:.+]] = linalg.index 2 : index
// RDNA3:           %[[MUL:.+]] = arith.muli %[[D2]], %[[C2]] : index
// RDNA3:           %[[INNER:.+]] = arith.addi %[[D3]], %[[MUL]] : index
// RDNA3:           %[[OUTER:.+]] = arith.muli %[[D0]], %[[C16]] : index
// RDNA3:           %[[I:.+]] = arith.addi %[[OUTER]], %[[INNER]] : index
// RDNA3:           %[[D1:.+]] = linalg.index 1 : index
// RDNA3:           %[[D4:.+]] = linalg.index 4 : index
// RDNA3:           %[[OUTER1:.+]] = arith.muli %[[D1]], %[[C16]] : index
// RDNA3:           %[[J:.+]] = arith.addi %[[OUTER1]], %[[D4]] : index
// RDNA3:           arith.cmpi sge, %[[I]], %[[J]] : index
// CDNA1-LABEL: func.func @lower_triangle(
// CDNA1-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CDNA1-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CDNA1:         linalg.generic
// CDNA1-SAME:      outs(%{{.+}} : tensor<3x2x4x16x4xf32>)
// CDNA1:           %[[D0:.+]] = linalg.index 0 : index
// CDNA1:           %[[D4:.+]] = linalg.index 4 : index
// CDNA1:           %[[D2:.+]] = linalg.index 2 : index
// CDNA1:           %[[MUL:.+]] = arith.muli %[[D2]], %[[C4]] : index
// CDNA1:           %[[INNER:.+]] = arith.addi %[[D4]], %[[MUL]] : index
// CDNA1:           %[[OUTER:.+]] = arith.muli %[[D0]], %[[C16]] : index
// CDNA1:           %[[I:.+]] = arith.addi %[[OUTER]], %[[INNER]] : index
// CDNA1:           %[[D1:.+]] = linalg.index 1 : index
// CDNA1:           %[[D3:.+]] = linalg.index 3 : index
// CDNA1:           %[[OUTER1:.+]] = arith.muli %[[D1]], %[[C16]] : index
// CDNA1:           %[[J:.+]] = arith.addi %[[OUTER1]], %[[D3]] : index
// CDNA1:           arith.cmpi sge, %[[I]], %[[J]] : index
