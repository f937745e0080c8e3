// RUN: mini-iree-opt %s --iree-era=3.13 --split-input-file -p 'func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})' --iree-gpu-test-target=gfx950 | filecheck %s --check-prefix=GFX950

// A block-scaled (MX) matmul: f4 values, one f8E8M0 scale per 32 of them along K.
// On gfx950 every operand is packed for the scaled MFMA (K unrolled 4 times, so
// each thread loads four scales at once) and the generic becomes one inner_tiled
// op over (m, n, k, kb).

#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#sa = #iree_encoding.encoding<operand_index = 2 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#sb = #iree_encoding.encoding<operand_index = 3 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#c = #iree_encoding.encoding<operand_index = 4 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
func.func @scaled_matmul(%a: tensor<20x5x32xf4E2M1FN>, %b: tensor<17x5x32xf4E2M1FN>, %sa: tensor<20x5xf8E8M0FNU>, %sb: tensor<17x5xf8E8M0FNU>, %c: tensor<20x17xf32>) -> tensor<20x17xf32> {
  %0 = iree_encoding.set_encoding %a : tensor<20x5x32xf4E2M1FN> -> tensor<20x5x32xf4E2M1FN, #a>
  %1 = iree_encoding.set_encoding %b : tensor<17x5x32xf4E2M1FN> -> tensor<17x5x32xf4E2M1FN, #b>
  %2 = iree_encoding.set_encoding %sa : tensor<20x5xf8E8M0FNU> -> tensor<20x5xf8E8M0FNU, #sa>
  %3 = iree_encoding.set_encoding %sb : tensor<17x5xf8E8M0FNU> -> tensor<17x5xf8E8M0FNU, #sb>
  %4 = iree_encoding.set_encoding %c : tensor<20x17xf32> -> tensor<20x17xf32, #c>
  %5 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%0, %1, %2, %3 : tensor<20x5x32xf4E2M1FN, #a>, tensor<17x5x32xf4E2M1FN, #b>, tensor<20x5xf8E8M0FNU, #sa>, tensor<17x5xf8E8M0FNU, #sb>)
      outs(%4 : tensor<20x17xf32, #c>) {
  ^bb0(%in: f4E2M1FN, %in_0: f4E2M1FN, %in_1: f8E8M0FNU, %in_2: f8E8M0FNU, %out: f32):
    %7 = arith.scaling_extf %in, %in_1 : f4E2M1FN, f8E8M0FNU to f32
    %8 = arith.scaling_extf %in_0, %in_2 : f4E2M1FN, f8E8M0FNU to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.addf %out, %9 : f32
    linalg.yield %10 : f32
  } -> tensor<20x17xf32, #c>
  %6 = iree_encoding.unset_encoding %5 : tensor<20x17xf32, #c> -> tensor<20x17xf32>
  return %6 : tensor<20x17xf32>
}
// GFX950-LABEL: func.func @scaled_matmul(
// The f4 LHS: M tiled by 16, K by 4 intrinsics of 4 blocks, each block of 32 f4 (padded with f4 zeros).
// GFX950:         linalg.pack %{{.+}} padding_value(%{{.+}} : f4E2M1FN) outer_dims_perm = [0, 1, 2] inner_dims_pos = [0, 1, 2] inner_tiles = [16, 16, 32]
// GFX950-SAME:      -> tensor<2x1x1x16x16x32xf4E2M1FN>
// The scales are padded with f8E8M0FNU values.
// GFX950:         linalg.pack %{{.+}} padding_value(%{{.+}} : f8E8M0FNU) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16]
// GFX950:         iree_codegen.inner_tiled ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) outs(%{{.+}})
// GFX950-SAME:      indexing_maps = [#{{[a-z0-9]+}}, #{{[a-z0-9]+}}, #{{[a-z0-9]+}}, #{{[a-z0-9]+}}, #{{[a-z0-9]+}}]
// GFX950-SAME:      iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>]
// GFX950-SAME:      kind = #iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32, intrinsics_k = 4, operands_interleaving_intrinsics_k = [2, 3]>
// GFX950:         linalg.unpack

// -----

// A CPU target lays out no scaled operand: the encodings are dropped and the
// generic stays as it is.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#sa = #iree_encoding.encoding<operand_index = 2 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#sb = #iree_encoding.encoding<operand_index = 3 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
#c = #iree_encoding.encoding<operand_index = 4 : index, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], user_indexing_maps = [#map, #map1, #map2, #map3, #map4], iteration_sizes = [20, 17, 5, 32]>
func.func @scaled_matmul_on_cpu(%a: tensor<20x5x32xf4E2M1FN, #a>, %b: tensor<17x5x32xf4E2M1FN, #b>, %sa: tensor<20x5xf8E8M0FNU, #sa>, %sb: tensor<17x5xf8E8M0FNU, #sb>, %c: tensor<20x17xf32, #c>) -> tensor<20x17xf32, #c> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b, %sa, %sb : tensor<20x5x32xf4E2M1FN, #a>, tensor<17x5x32xf4E2M1FN, #b>, tensor<20x5xf8E8M0FNU, #sa>, tensor<17x5xf8E8M0FNU, #sb>)
      outs(%c : tensor<20x17xf32, #c>) {
  ^bb0(%in: f4E2M1FN, %in_0: f4E2M1FN, %in_1: f8E8M0FNU, %in_2: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %in, %in_1 : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %in_0, %in_2 : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<20x17xf32, #c>
  return %0 : tensor<20x17xf32, #c>
}
// GFX950-LABEL: func.func @scaled_matmul_on_cpu(
// GFX950-SAME:    tensor<20x5x32xf4E2M1FN>, %{{.+}}: tensor<17x5x32xf4E2M1FN>, %{{.+}}: tensor<20x5xf8E8M0FNU>, %{{.+}}: tensor<17x5xf8E8M0FNU>, %{{.+}}: tensor<20x17xf32>)
// GFX950:         linalg.generic
// GFX950-SAME:      ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<20x5x32xf4E2M1FN>, tensor<17x5x32xf4E2M1FN>, tensor<20x5xf8E8M0FNU>, tensor<17x5xf8E8M0FNU>)
// GFX950-SAME:      outs(%{{.+}} : tensor<20x17xf32>)

// -----

// Two f16 values bitcast into each f32 (`original_element_type = f16`): the K
// tile of the RHS holds half as many f32 elements (16, not 32), and so does the
// innermost dim of its swizzle (4 x 4 rather than 4 x 8).
#bitcast = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f16, f16, f32], original_element_type = f16, user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @bitcast_rhs(%rhs: tensor<?x?xf32>, %m: index, %n: index, %k: index) -> tensor<?x?xf32, #bitcast> {
  %0 = iree_encoding.set_encoding %rhs encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #bitcast>
  return %0 : tensor<?x?xf32, #bitcast>
}
// GFX950-LABEL: func.func @bitcast_rhs(
// GFX950:         linalg.pack {{.+}} inner_tiles = [128, 16]
// GFX950:         tensor.expand_shape {{.+}} into tensor<?x?x2x4x16x4x4xf32>
