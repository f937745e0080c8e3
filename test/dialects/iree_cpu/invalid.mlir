// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{expected encoding_info to be a dictionary with integer arrays innerDimsPos, innerTileSizes and outerDimsPerm, and an optional swizzle}}
func.func @cpu_encoding_resolver_missing_outer_dims_perm() attributes {r = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1]}}>} {
  return
}

// -----

// expected-error @+1 {{expected encoding_info to be a dictionary with integer arrays innerDimsPos, innerTileSizes and outerDimsPerm, and an optional swizzle}}
func.func @vmvx_encoding_resolver_bad_tile_sizes() attributes {r = #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = "8x1", outerDimsPerm = [0, 1]}}>} {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: config}}
func.func @cpu_encoding_resolver_unknown_parameter() attributes {r = #iree_cpu.cpu_encoding_resolver<config = {}>} {
  return
}

// -----

// A resolved layout is checked against the tensor type it is attached to (the
// resolver alone, in an executable target say, is not), as IREE checks it.
#layout = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 128]}}>
// expected-error @+1 {{outerDimsPerm index 128 is out of bounds for tensor rank 2}}
func.func @f(%arg0: tensor<?x?xf32, #layout>) {
  return
}

// -----

// A tiling level is a list of sizes (or {sizes = ..., interchange = ...}).
// expected-error @+1 {{expected '{'}}
#bad_level = #iree_cpu.lowering_config<distribution = 128 : i64>

// -----

// expected-error @+1 {{expected an InnerTileAlignment (Unknown|Multiple|Equal), got: Bogus}}
#bad_alignment = #iree_cpu.inner_tile_alignments<vector_common_parallel = [Bogus]>

// -----

// expected-error @+1 {{expected at least one tiling level}}
#no_levels = #iree_cpu.inner_tile_alignments<>

// -----

func.func @cpu_inner_tiled_wrong_tile(%lhs: tensor<1x1x16x1xf32>, %rhs: tensor<1x1x16x1xf32>, %acc: tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32> {
  // expected-error @+1 {{'iree_codegen.inner_tiled' op operand #0 inner tile 'tensor<16x1xf32>' is incompatible with expected MMA tile type 'vector<1x1xf32>'}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) {
    indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
    kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_1x16x1_F32_F32>,
    semantics = #iree_cpu.mma_semantics<>
  } : tensor<1x1x16x1xf32>, tensor<1x1x16x1xf32> into tensor<1x1x16x16xf32>
  return %0 : tensor<1x1x16x16xf32>
}

// -----

func.func @cpu_inner_tiled_sve_needs_dynamic(%lhs: tensor<1x1x1x1xf32>, %rhs: tensor<1x1x4x1xf32>, %acc: tensor<1x1x1x?xf32>) -> tensor<1x1x1x?xf32> {
  // expected-error @+1 {{'iree_codegen.inner_tiled' op operand #1 inner tile 'tensor<4x1xf32>' is incompatible with expected MMA tile type 'vector<[4]x1xf32>'}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) {
    indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
    kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_ARM_SVE_FMLA_1x4VLx1_F32_F32>,
    semantics = #iree_cpu.mma_semantics<>
  } : tensor<1x1x1x1xf32>, tensor<1x1x4x1xf32> into tensor<1x1x1x?xf32>
  return %0 : tensor<1x1x1x?xf32>
}
