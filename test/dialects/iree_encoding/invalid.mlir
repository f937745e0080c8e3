// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// MLIR reports the missing keyword, then the struct's error, at the same place.
// expected-error @+2 {{expected valid keyword}}
// expected-error @+1 {{expected a parameter name in struct}}
#encoding = #iree_encoding.encoding<>
func.func @encoding_without_parameters(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{struct is missing required parameter: op_type}}
#encoding = #iree_encoding.encoding<operand_index = 0>
func.func @encoding_without_op_type(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{struct is missing required parameter: element_types}}
#encoding = #iree_encoding.encoding<operand_index = 0, op_type = matmul>
func.func @encoding_without_element_types(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: operand_index}}
#encoding = #iree_encoding.encoding<operand_index = 0, operand_index = 1, op_type = matmul, element_types = [f32, f32, f32]>
func.func @encoding_with_duplicate_parameter(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: bcast_map}}
#encoding = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], bcast_map = 1>
func.func @encoding_with_unknown_parameter(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{expected ::mlir::iree_compiler::IREE::Encoding::EncodingOpType to be one of: matmul, scaled_matmul, conv}}
#encoding = #iree_encoding.encoding<operand_index = 0, op_type = gemm, element_types = [f32, f32, f32]>
func.func @encoding_with_unknown_op_type(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// expected-error @+1 {{`operandIndex` exceeds the size of `user_indexing_maps`}}
#encoding = #iree_encoding.encoding<operand_index = 2 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1]>
func.func @operand_index_exceeding_indexing_maps(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// expected-error @+1 {{found a non-composable attribute in `user_indexing_maps` at index: 2}}
#encoding = #iree_encoding.encoding<operand_index = 2 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, 1]>
func.func @indexing_map_that_is_not_a_map(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// expected-error @+1 {{found a non-composable attribute in `user_indexing_maps` at index: 0}}
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [[[#map, #map1]]]>
func.func @indexing_maps_nested_too_deep(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (d1)>
// expected-error @+1 {{found a non-composable attribute in `user_indexing_maps` at index: 2}}
#encoding = #iree_encoding.encoding<operand_index = 2 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, [#map, #bcast]]>
func.func @indexing_map_chain_with_mismatching_dims(%arg0: tensor<?xf32, #encoding>) -> tensor<?xf32, #encoding> {
  return %arg0 : tensor<?xf32, #encoding>
}

// -----

// expected-error @+1 {{found `iteration_sizes` without any corresponding `user_indexing_maps`}}
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], iteration_sizes = [?, ?]>
func.func @iteration_sizes_without_indexing_maps(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// expected-error @+1 {{found an encoding with 2 iteration sizes, but expected 4 based on the user indexing maps}}
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?]>
func.func @wrong_number_of_iteration_sizes(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{expected non-empty layouts}}
#encoding = #iree_encoding.layout<[]>
func.func @layout_without_layouts(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{expected all the layout attributes to implement SerializableAttr}}
#encoding = #iree_encoding.layout<[#iree_encoding.unknown]>
func.func @layout_with_unknown_layout(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{expected all the layout attributes to implement SerializableAttr}}
#encoding = #iree_encoding.layout<[#iree_encoding.identity_resolver]>
func.func @layout_with_resolver(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{expected all padding values need to be non-negative or dynamic}}
#encoding = #iree_encoding.padding<[0, ?, -1]>
func.func @negative_padding(%arg0: tensor<?x?x?xf32, #encoding>) -> tensor<?x?x?xf32, #encoding> {
  return %arg0 : tensor<?x?x?xf32, #encoding>
}

// -----

// expected-error @+1 {{expected all padding values need to be non-negative or dynamic}}
#encoding = #iree_encoding.pad_encoding_layout<[-4]>
func.func @negative_pad_encoding_layout(%arg0: tensor<?xf32, #encoding>) -> tensor<?xf32, #encoding> {
  return %arg0 : tensor<?xf32, #encoding>
}

// -----

func.func @set_encoding_without_result_encoding(%arg0 : tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{result of set_encoding op expected to have a valid tensor encoding}}
  %0 = iree_encoding.set_encoding %arg0: tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @set_encoding_with_source_encoding(%arg0 : tensor<?x?xf32, #encoding>) -> tensor<?x?xf32> {
  // expected-error @+1 {{source of set_encoding op cannot have a tensor encoding}}
  %0 = iree_encoding.set_encoding %arg0: tensor<?x?xf32, #encoding> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @set_encoding_with_builtin_encoding(%arg0 : tensor<?x?xf32>) -> tensor<?x?xf32, "gemm_lhs"> {
  // expected-error @+1 {{result of set_encoding op expected to have a valid tensor encoding}}
  %0 = iree_encoding.set_encoding %arg0: tensor<?x?xf32> -> tensor<?x?xf32, "gemm_lhs">
  return %0 : tensor<?x?xf32, "gemm_lhs">
}

// -----

func.func @set_encoding_with_resolver_encoding(%arg0 : tensor<?x?xf32>) -> tensor<?x?xf32, #iree_encoding.specialization_resolver<1>> {
  // expected-error @+1 {{result of set_encoding op expected to have a valid tensor encoding}}
  %0 = iree_encoding.set_encoding %arg0: tensor<?x?xf32> -> tensor<?x?xf32, #iree_encoding.specialization_resolver<1>>
  return %0 : tensor<?x?xf32, #iree_encoding.specialization_resolver<1>>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @set_encoding_with_rank_change(%arg0 : tensor<?x?xf32>) -> tensor<?xf32, #encoding> {
  // expected-error @+1 {{cannot change the rank of the tensor}}
  %0 = iree_encoding.set_encoding %arg0: tensor<?x?xf32> -> tensor<?xf32, #encoding>
  return %0 : tensor<?xf32, #encoding>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @set_encoding_with_shape_change(%arg0 : tensor<10x20xf32>) -> tensor<20x30xf32, #encoding> {
  // expected-error @+1 {{expected to preserve the logical shape of the tensor}}
  %0 = iree_encoding.set_encoding %arg0: tensor<10x20xf32> -> tensor<20x30xf32, #encoding>
  return %0 : tensor<20x30xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_with_too_few_encoding_dims(%arg0 : tensor<?x?xf32>, %m: index) -> tensor<?x?xf32, #encoding> {
  // expected-error @+1 {{encoding expects 3 dynamic encoding dimension(s), but 1 provided}}
  %0 = iree_encoding.set_encoding %arg0 encoding_dims{%m}: tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map], round_dims_to = array<i64: 32, 32, 32>>
func.func @set_encoding_with_encoding_dims_but_static_encoding(%arg0 : tensor<?x?xf32>, %m: index) -> tensor<?x?xf32, #encoding> {
  // expected-error @+1 {{encoding expects 0 dynamic encoding dimension(s), but 1 provided}}
  %0 = iree_encoding.set_encoding %arg0 encoding_dims{%m}: tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}

// -----

func.func @unset_encoding_without_source_encoding(%arg0 : tensor<?x?xf32>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{source of unset_encoding op expected to have a valid tensor encoding}}
  %0 = iree_encoding.unset_encoding %arg0: tensor<?x?xf32> -> tensor<?x?xf32>{%d0, %d1}
  return %0 : tensor<?x?xf32>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @unset_encoding_with_result_encoding(%arg0 : tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  // expected-error @+1 {{result of unset_encoding op cannot have a tensor encoding}}
  %0 = iree_encoding.unset_encoding %arg0: tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}

// -----

func.func @unset_encoding_with_builtin_encoding(%arg0 : tensor<?x?xf32, "gemm_lhs">, %d0: index, %d1: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{source of unset_encoding op expected to have a valid tensor encoding}}
  %0 = iree_encoding.unset_encoding %arg0: tensor<?x?xf32, "gemm_lhs"> -> tensor<?x?xf32>{%d0, %d1}
  return %0 : tensor<?x?xf32>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @unset_encoding_with_rank_change(%arg0 : tensor<?x?xf32, #encoding>, %d0: index) -> tensor<?xf32> {
  // expected-error @+1 {{cannot change the rank of the tensor}}
  %0 = iree_encoding.unset_encoding %arg0: tensor<?x?xf32, #encoding> -> tensor<?xf32>{%d0}
  return %0 : tensor<?xf32>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @unset_encoding_with_shape_change(%arg0 : tensor<20x30xf32, #encoding>) -> tensor<10x20xf32> {
  // expected-error @+1 {{expected to preserve the logical shape of the tensor}}
  %0 = iree_encoding.unset_encoding %arg0: tensor<20x30xf32, #encoding> -> tensor<10x20xf32>
  return %0 : tensor<10x20xf32>
}

// -----

#encoding = #iree_encoding.testing<>
func.func @unset_encoding_without_result_dims(%arg0 : tensor<?x?xf32, #encoding>, %d0: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{result type set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = iree_encoding.unset_encoding %arg0: tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0}
  return %0 : tensor<?x?xf32>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map], iteration_sizes = [?, 1, ?]>
func.func @unset_encoding_with_too_few_encoding_dims(%arg0 : tensor<?x?xf32, #encoding>, %d0: index, %d1: index, %m: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{encoding expects 2 dynamic encoding dimension(s), but 1 provided}}
  %0 = iree_encoding.unset_encoding %arg0 encoding_dims{%m}: tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  return %0 : tensor<?x?xf32>
}

// -----

// The encoding of a tensor type is checked against the tensor it is attached to.
func.func @packed_storage_not_sub_byte() {
  // expected-error @+1 {{bit-width of the element type is 32 but packed_storage is currently only supported for sub-byte types}}
  %0 = "test.op"() : () -> tensor<4xf32, #iree_encoding.packed_storage>
  return
}

// -----

func.func @packed_storage_in_layout_not_power_of_two() {
  // expected-error @+1 {{bit-width of the element type is 3 but packed_storage currently only supports types with power-of-two bitwidth}}
  %0 = "test.op"() : () -> tensor<4xi3, #iree_encoding.layout<[#iree_encoding.packed_storage]>>
  return
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// expected-error @+1 {{expected all `iteration_sizes` to be non-negative or dynamic}}
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [-3, ?, 5]>
func.func @negative_iteration_size(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// A static size of 0 is a valid iteration size.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [0, ?, 5]>
func.func @zero_iteration_size(%arg0: tensor<0x5xf32, #encoding>) -> tensor<0x5xf32, #encoding> {
  return %arg0 : tensor<0x5xf32, #encoding>
}

// -----

// expected-error @+2 {{outerDimsPerm index 128 is out of bounds for tensor rank 2}}
#encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 128]}}>]>
func.func @layout_outer_dims_perm_out_of_range(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+2 {{innerDimsPos contains duplicate index 1}}
#encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
func.func @layout_inner_dims_pos_repeated(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+2 {{innerDimsPos size (2) does not match innerTileSizes size (1)}}
#encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8], outerDimsPerm = [0, 1]}}>]>
func.func @layout_tile_count(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+2 {{innerTileSizes[0] (0) must be positive}}
#encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [0, 1], outerDimsPerm = [0, 1]}}>]>
func.func @layout_zero_tile(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

// expected-error @+2 {{swizzle expandShape[0] product (16) does not match innerTileSizes[0] (8)}}
#encoding = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 4], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 4 : i16], ["CrossIntrinsic", 4 : i16]], [["CrossThread", 4 : i16]]], permutation = [0, 1, 2]}}}>]>
func.func @layout_swizzle_does_not_split_the_tile(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}

// -----

#encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
util.func public @layout_of_another_rank(%d0: index) -> index {
  // expected-error @+1 {{innerDimsPos index 1 is out of bounds for tensor rank 1}}
  %0 = stream.tensor.sizeof tensor<?xf32, #encoding>{%d0} : index
  util.return %0 : index
}

// -----

// Only an empty parameter list is accepted after a parameterless attribute.
// expected-error @+1 {{expected '>'}}
func.func @identity_with_parameters() attributes {layout = #iree_encoding.identity<0>} {
  return
}
