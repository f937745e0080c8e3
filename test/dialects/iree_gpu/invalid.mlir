// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @barrier_region_arg_count(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected the block argument count to match operand count}}
  %0 = iree_gpu.barrier_region ins(%arg0 : tensor<4xf32>) {
    %1 = "test.op"() : () -> tensor<4xf32>
    iree_gpu.yield %1 : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @barrier_region_arg_type(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected block argument types to match operand types}}
  %0 = iree_gpu.barrier_region ins(%arg0 : tensor<4xf32>) {
  ^bb0(%arg1: tensor<4xf16>):
    %1 = "test.op"() : () -> tensor<4xf32>
    iree_gpu.yield %1 : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @barrier_region_yield_count(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected body to yield same number of values as results}}
  %0 = iree_gpu.barrier_region ins(%arg0 : tensor<4xf32>) {
  ^bb0(%arg1: tensor<4xf32>):
    iree_gpu.yield %arg1, %arg1 : tensor<4xf32>, tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @barrier_region_yield_type(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected yielded value types to match result types}}
  %0 = iree_gpu.barrier_region ins(%arg0 : tensor<4xf32>) {
  ^bb0(%arg1: tensor<4xf32>):
    iree_gpu.yield %arg1 : tensor<4xf32>
  } : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-error @+1 {{promotion_types must be an array}}
func.func @lowering_config_promotion_types_not_array() attributes {c = #iree_gpu.lowering_config<{promote_operands = [0], promotion_types = 1}>} {
  return
}

// -----

// expected-error @+1 {{promotion_types requires promote_operands to be specified}}
func.func @lowering_config_promotion_types_alone() attributes {c = #iree_gpu.lowering_config<{promotion_types = [#iree_gpu.derived_thread_config]}>} {
  return
}

// -----

// expected-error @+1 {{promote_operands must be an array of integers}}
func.func @lowering_config_promote_operands_not_integers() attributes {c = #iree_gpu.lowering_config<{promote_operands = ["lhs"], promotion_types = [#iree_gpu.derived_thread_config]}>} {
  return
}

// -----

// expected-error @+1 {{promote_operands and promotion_types must have the same length}}
func.func @lowering_config_promotion_length() attributes {c = #iree_gpu.lowering_config<{promote_operands = [0, 1], promotion_types = [#iree_gpu.derived_thread_config]}>} {
  return
}

// -----

// expected-error @+1 {{expected a dictionary attribute}}
func.func @lowering_config_not_a_dictionary() attributes {c = #iree_gpu.lowering_config<[1, 64]>} {
  return
}

// -----

// expected-error @+1 {{expected encoding_info to be a dictionary with integer arrays innerDimsPos, innerTileSizes and outerDimsPerm, and an optional swizzle}}
func.func @gpu_encoding_resolver_bad_encoding_info() attributes {r = #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16]}}>} {
  return
}

// -----

// expected-error @+1 {{swizzle permutation size (4) does not match total expanded dimensions (3)}}
func.func @gpu_encoding_resolver_swizzle_permutation_size(%arg0: tensor<?x?xf32, #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [16, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 16 : i16]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 1, 2, 3]}}}>>) {
  return
}

// -----

// expected-error @+1 {{swizzle permutation is not a valid permutation}}
func.func @gpu_encoding_resolver_swizzle_not_permutation(%arg0: tensor<?x?xf32, #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [16, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 16 : i16]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 2, 2]}}}>>) {
  return
}

// -----

// expected-error @+1 {{expected cache_line_bytes to be a 32-bit unsigned integer}}
func.func @gpu_padding_resolver_negative() attributes {r = #iree_gpu.gpu_padding_resolver<cache_line_bytes = -128>} {
  return
}

// -----

// expected-error @+1 {{struct is missing required parameter: intrinsic}}
func.func @data_tiled_mma_layout_missing_intrinsic() attributes {k = #iree_gpu.data_tiled_mma_layout<intrinsics_m = 8>} {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: intrinsics_m}}
func.func @data_tiled_mma_layout_duplicate() attributes {k = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_m = 4>} {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: subgroups}}
func.func @data_tiled_mma_layout_unknown() attributes {k = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, subgroups = 4>} {
  return
}

// -----

// expected-error @+2 {{expected valid keyword}}
// expected-error @+1 {{expected a parameter name in struct}}
func.func @mma_semantics_no_name() attributes {s = #iree_gpu.mma_semantics<1, 0>} {
  return
}

// -----

// `subgroup` has no default, unlike `dot`.
// expected-error @+1 {{struct is missing required parameter: subgroup}}
func.func @target_wgp_missing_subgroup() attributes {t = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>>} {
  return
}

// -----

// expected-error @+2 {{swizzle expandShape size (1) does not match innerTileSizes size (2)}}
#layout = #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [16, 4], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 16 : i16]]], permutation = [0]}}}>
func.func @swizzle_groups_per_tile(%arg0: tensor<?x?xf32, #layout>) {
  return
}

// -----

// A scale may only use the indices of the operand it scales.
func.func @scaled_scale_map(%l: vector<2x3x1x32xf4E2M1FN>, %r: vector<3x1x5x32xf4E2M1FN>, %ls: vector<2x5x1xf8E8M0FNU>, %rs: vector<3x5x1xf8E8M0FNU>, %a: vector<2x5x4xf32>) -> vector<2x5x4xf32> {
  // expected-error @+1 {{failed to verify indexing maps}}
  %0 = iree_codegen.inner_tiled ins(%l, %r, %ls, %rs) outs(%a) {
    indexing_maps = [affine_map<(i, j, k, b) -> (i, k, b)>, affine_map<(i, j, k, b) -> (k, b, j)>,
                     affine_map<(i, j, k, b) -> (i, j)>, affine_map<(i, j, k, b) -> (k, j)>,
                     affine_map<(i, j, k, b) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>],
    kind = #iree_gpu.scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>,
    semantics = #iree_gpu.mma_semantics<distributed = true, opaque = false>
  } : vector<2x3x1x32xf4E2M1FN>, vector<3x1x5x32xf4E2M1FN>, vector<2x5x1xf8E8M0FNU>, vector<3x5x1xf8E8M0FNU> into vector<2x5x4xf32>
  return %0 : vector<2x5x4xf32>
}

// -----

// Swizzled LHS scales: the interleaved K unrolling is innermost (2x4x16x4).
func.func @data_tiled_scaled_wrong_scales(%lhs: tensor<?x?x1x2x4x4x16x32xf4E2M1FN>, %rhs: tensor<?x?x1x2x4x4x16x32xf4E2M1FN>, %ls: tensor<?x?x2x4x4x16xf8E8M0FNU>, %rs: tensor<?x?x2x4x16x4xf8E8M0FNU>, %acc: tensor<?x?x2x2x4x16x4xf32>) -> tensor<?x?x2x2x4x16x4xf32> {
  // expected-error @+1 {{'iree_codegen.inner_tiled' op operand #2 inner tile 'tensor<2x4x4x16xf8E8M0FNU>' is incompatible with expected MMA tile type 'vector<2x4x16x4xf8E8M0FNU>'}}
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs, %ls, %rs) outs(%acc) {
    indexing_maps = [affine_map<(m, n, k, kb) -> (m, k, kb)>, affine_map<(m, n, k, kb) -> (n, k, kb)>,
                     affine_map<(m, n, k, kb) -> (m, k)>, affine_map<(m, n, k, kb) -> (n, k)>,
                     affine_map<(m, n, k, kb) -> (m, n)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>],
    kind = #iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32, subgroups_m = 2, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [2, 3]>,
    semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>
  } : tensor<?x?x1x2x4x4x16x32xf4E2M1FN>, tensor<?x?x1x2x4x4x16x32xf4E2M1FN>, tensor<?x?x2x4x4x16xf8E8M0FNU>, tensor<?x?x2x4x16x4xf8E8M0FNU> into tensor<?x?x2x2x4x16x4xf32>
  return %0 : tensor<?x?x2x2x4x16x4xf32>
}

// -----

// expected-error @+1 {{promotion_types elements must implement IREE::GPU::PromotionAttr}}
#bad_promotion = #iree_gpu.lowering_config<{promote_operands = [0], promotion_types = [#iree_gpu.lane_constant<4>]}>

// -----

// expected-error @+1 {{conditional_transpose must have non-zeros parameters}}
#no_cus = #iree_gpu.conditional_transpose<8, 0>

// -----

// expected-error @+1 {{'step' specified more than once}}
#two_steps = #iree_gpu.lane_increment<4, step = 2, step = 2>

// -----

// expected-error @+1 {{expected access width to divide row width}}
#bad_shuffle = #iree_codegen.xor_shuffle<256, 24>

// -----

func.func @value_barrier_mixed(%v: vector<8xf16>, %t: tensor<8xf16>) {
  // expected-error @+1 {{All inputs should be either of tensor or vector type}}
  %0:2 = iree_gpu.value_barrier %v, %t : vector<8xf16>, tensor<8xf16>
  return
}

// -----

func.func @async_dma_gather_size(%m: memref<1024x64xf16>, %md: memref<1x64xf16>, %g: vector<2xindex>, %i: index) {
  // expected-error @+1 {{gather index size (2) for source dimension 0 must match transfer_type size (1) in dest dimension 0}}
  iree_gpu.async_dma %m[%g, %i] to %md[%i, %i], vector<1x64xf16> : memref<1024x64xf16> [vector<2xindex>, index], memref<1x64xf16>
  return
}

// -----

func.func @async_dma_needs_map(%src: tensor<20x64xf16>, %dest: tensor<64xf16>, %i: index) -> tensor<64xf16> {
  // expected-error @+1 {{permutation_map is required when source rank (2) differs from dest rank (1)}}
  %0 = iree_gpu.async_dma %src[%i, %i] to %dest[%i], vector<64xf16> : tensor<20x64xf16>, tensor<64xf16> -> tensor<64xf16>
  return %0 : tensor<64xf16>
}

// -----

func.func @gather_batch(%idx: vector<32xi32>, %src: memref<4096xf32>, %dst: memref<64xf32>, %lane: index) {
  // expected-error @+1 {{expected batch size (length of index vectors: 32) to match first destination dimension (64)}}
  iree_gpu.coalesced_gather_dma %src[%idx] into %dst lane(%lane) : memref<4096xf32>, vector<32xi32>, memref<64xf32>, index
  return
}

// -----

func.func @scan_cluster(%x: f32, %zero: f32) -> f32 {
  // expected-error @+1 {{cluster_size must be a power of 2}}
  %s, %t = iree_gpu.subgroup_scan(%x, identity = %zero : f32) cluster(size = 3) {
  ^bb0(%lhs: f32, %rhs: f32):
    %add = arith.addf %lhs, %rhs : f32
    iree_gpu.yield %add : f32
  } : f32
  return %s : f32
}
