// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @load_from_buffer_shape_mismatch(%arg0: memref<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{buffer and tensor shapes must be compatible and element types must match}}
  %0 = iree_codegen.load_from_buffer %arg0 : memref<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @load_from_buffer_element_type_mismatch(%arg0: memref<?xf32>) -> tensor<?xf16> {
  // expected-error @+1 {{buffer and tensor shapes must be compatible and element types must match}}
  %0 = iree_codegen.load_from_buffer %arg0 : memref<?xf32> -> tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

func.func @store_to_buffer_rank_mismatch(%arg0: tensor<?x?xf32>, %arg1: memref<?xf32>) {
  // expected-error @+1 {{tensor and buffer shapes must be compatible and element types must match}}
  iree_codegen.store_to_buffer %arg0, %arg1 : tensor<?x?xf32> into memref<?xf32>
  return
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_kind_not_a_tile_description(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{expected kind to implement InnerTileDescAttrInterface, but got #iree_gpu.mma_semantics<distributed = false, opaque = false>}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_too_few_inputs(%lhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{number of inputs (1) doesn't match expected number from kind (2)}}
  %0 = iree_codegen.inner_tiled ins(%lhs) outs(%acc) <indexing_maps = [#map, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_too_many_outputs(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{number of outputs (2) doesn't match expected number from kind (1)}}
  %0:2 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc, %acc) <indexing_maps = [#map, #map1, #map2, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>, tensor<?x?x16x16xf32>
  return %0#0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_result_type(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf16> {
  // expected-error @+1 {{expected result types to match the output types}}
  %0 = "iree_codegen.inner_tiled"(%lhs, %rhs, %acc) <{indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, operandSegmentSizes = array<i32: 2, 1>}> : (tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32>, tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf16>
  return %0 : tensor<?x?x16x16xf16>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_bad_iterator_type(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{expected iterator_types to be #linalg.iterator_type attributes, but got "parallel"}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @inner_tiled_missing_map(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{expected an indexing map for each operand}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2)[s0] -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_map_with_symbol(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{expected indexing map 0 to have no symbols}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_map_dim_count(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{expected indexing map 1 to have 3 input dims}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_no_inner_tile(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{expected indexing map 2 to have fewer than 2 results}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0 + d2, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_map_not_permutation(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{expected indexing map 0 to be a projected permutation}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_outer_shape_mismatch(%lhs: tensor<4x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<8x?x16x16xf32>) -> tensor<8x?x16x16xf32> {
  // expected-error @+1 {{shape does not match iteration bounds}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>> : tensor<4x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<8x?x16x16xf32>
  return %0 : tensor<8x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_permutation_count(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{mismatch between the number of permutations (2) and the number of operands (3)}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, permutations = [array<i64: 0, 1>, array<i64: 1, 0>]> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_permutation_length(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{permutation #1 length 3 does not match the inner rank 2 of the corresponding operand of type tensor<?x?x16x4xf32>}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, permutations = [array<i64: 0, 1>, array<i64: 2, 1, 0>, array<i64: 0, 1>]> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_permutation_not_permutation(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{permutation #2 is not a permutation vector}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, permutations = [array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 1, 1>]> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

// Without the RHS permutation its 16x4 tile is not the intrinsic's 4x16 tile.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_tile_mismatch(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  // expected-error @+1 {{operand #1 inner tile 'tensor<16x4xf32>' is incompatible with expected MMA tile type 'vector<4x16xf32>'}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

// A data-tiled layout's tiles are its swizzled shapes: 2x4x4x16x4 here.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_data_tiled_mismatch(%lhs: tensor<?x?x128x16xf32>, %rhs: tensor<?x?x2x4x4x16x4xf32>, %acc: tensor<?x?x2x2x4x4x4x16x4xf32>) -> tensor<?x?x2x2x4x4x4x16x4xf32> {
  // expected-error @+1 {{operand #0 inner tile 'tensor<128x16xf32>' is incompatible with expected MMA tile type 'vector<2x4x4x16x4xf32>'}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x128x16xf32>, tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x2x4x4x4x16x4xf32>
  return %0 : tensor<?x?x2x2x4x4x4x16x4xf32>
}

// -----

// Opaque semantics only compare the element count: 128x16 holds the 2048
// elements of the LHS tile.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @inner_tiled_opaque_count_mismatch(%lhs: tensor<?x?x128x16xf32>, %rhs: tensor<?x?x128x8xf32>, %acc: tensor<?x?x128x128xf32>) -> tensor<?x?x128x128xf32> {
  // expected-error @+1 {{operand #1 inner tile 'tensor<128x8xf32>' is incompatible with expected MMA tile type 'vector<2x4x4x16x4xf32>'}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = true>> : tensor<?x?x128x16xf32>, tensor<?x?x128x8xf32> into tensor<?x?x128x128xf32>
  return %0 : tensor<?x?x128x128xf32>
}

// -----

// expected-error @+1 {{illegal to use `delinearizationDim` for x}}
func.func @workgroup_mapping_delinearized_x() attributes {mapping = [#iree_codegen.workgroup_mapping<x:1>]} {
  return
}

// -----

// expected-error @+1 {{pass pipeline must implement PipelineAttrInterface}}
func.func @translation_info_bad_pipeline() attributes {translation_info = #iree_codegen.translation_info<pipeline = "TileAndFuse">} {
  return
}

// -----

// expected-error @+1 {{transform dialect codegen spec requires transform dialect codegen pipeline}}
func.func @translation_info_codegen_spec() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> codegen_spec = @spec>} {
  return
}

// -----

// expected-error @+1 {{workgroup size cannot have more than 3 entries}}
func.func @translation_info_workgroup_size_rank() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{workgroup size value has to be greater than zero}}
func.func @translation_info_workgroup_size_zero() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 0, 1]>} {
  return
}

// -----

// expected-error @+1 {{subgroup size value cannot be negative}}
func.func @translation_info_negative_subgroup_size() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> subgroup_size = -1>} {
  return
}

// -----

// expected-error @+1 {{missing translation info}}
#compilation = #iree_codegen.compilation_info<lowering_config = #iree_codegen.lowering_config<tile_sizes = [[0]]>, translation_info = 1 : i32>
func.func @compilation_info_without_translation_info() attributes {compilation_info = #compilation} {
  return
}

// -----

// expected-error @+1 {{missing lowering config}}
#compilation = #iree_codegen.compilation_info<lowering_config = 1 : i32, translation_info = #iree_codegen.translation_info<pipeline = CPUDefault>>
func.func @compilation_info_without_lowering_config() attributes {compilation_info = #compilation} {
  return
}

// -----

// expected-error @+1 {{failed to parse DispatchLoweringPassPipelineAttr: unknown pipeline 'CPUFastest'}}
#translation = #iree_codegen.translation_info<pipeline = CPUFastest>
func.func @unknown_pipeline() attributes {translation_info = #translation} {
  return
}

// -----

// expected-error @+1 {{workgroup_size must have 1 to 3 entries, got 4}}
iree_codegen.dispatch_config @big workgroup_size = [64, 1, 1, 1] {
  %c1 = arith.constant 1 : index
  iree_codegen.yield %c1, %c1, %c1 : index, index, index
}

// -----

// expected-error @+1 {{expected terminator to yield exactly 3 operands (workgroup count x, y, z), got 0}}
iree_codegen.dispatch_config @empty {
}

// -----

// expected-error @+1 {{expected terminator operand #1 to be index type, got i32}}
iree_codegen.dispatch_config @typed {
  %c1 = arith.constant 1 : index
  %i = arith.constant 1 : i32
  iree_codegen.yield %c1, %i, %c1 : index, i32, index
}

// -----

// expected-error @+1 {{transform dialect codegen spec requires transform dialect codegen pipeline}}
#spec = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline codegen_spec = @foo>

// -----

// expected-error @+1 {{expected workgroup size to have atmost 3 entries}}
#export = #iree_codegen.export_config<workgroup_size = [4, 1, 1, 1]>

// -----

func.func @ukernel_result_type(%out: tensor<10xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{expected type of operand #0 ('tensor<10xf32>') to match type of corresponding result ('tensor<?xf32>')}}
  %0 = iree_codegen.ukernel.generic "foo" outs(%out : tensor<10xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @query_tile_sizes_non_index_result() -> i32 {
  // expected-error @+1 {{result #0 must be variadic of index, but got 'i32'}}
  %0 = iree_codegen.query_tile_sizes tensor<?x?xf32> -> i32
  return %0 : i32
}

// -----

func.func @query_tile_sizes_of_a_memref() -> index {
  // expected-error @+1 {{attribute 'tensor_type' failed to satisfy constraint: Tensor type attribute}}
  %0 = "iree_codegen.query_tile_sizes"() <{tensor_type = memref<?xf32>}> : () -> index
  return %0 : index
}
