// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @pack_zero_tile(%src: tensor<16x16xf32>, %dest: tensor<16x16x0x1xf32>) -> tensor<16x16x0x1xf32> {
  // expected-error @+1 {{invalid zero tile factor}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [0, 1] into %dest : tensor<16x16xf32> -> tensor<16x16x0x1xf32>
  return %0 : tensor<16x16x0x1xf32>
}

// -----

func.func @pack_zero_constant_tile(%src: tensor<16x16xf32>, %dest: tensor<16x16x?x1xf32>) -> tensor<16x16x?x1xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{invalid zero tile factor}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [%c0, 1] into %dest : tensor<16x16xf32> -> tensor<16x16x?x1xf32>
  return %0 : tensor<16x16x?x1xf32>
}

// -----

func.func @pack_invalid_inner_dims_pos(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>) -> tensor<2x16x8x1xf32> {
  // expected-error @+1 {{invalid inner_dims_pos vector}}
  %0 = linalg.pack %src inner_dims_pos = [0, 0] inner_tiles = [8, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8x1xf32>
  return %0 : tensor<2x16x8x1xf32>
}

// -----

func.func @pack_invalid_outer_dims_perm(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>) -> tensor<2x16x8x1xf32> {
  // expected-error @+1 {{invalid outer_dims_perm vector}}
  %0 = linalg.pack %src outer_dims_perm = [0, 2] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8x1xf32>
  return %0 : tensor<2x16x8x1xf32>
}

// -----

func.func @pack_partial_outer_dims_perm(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>) -> tensor<2x16x8x1xf32> {
  // expected-error @+1 {{outer_dims_perm must be a permutation or empty}}
  %0 = linalg.pack %src outer_dims_perm = [0] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8x1xf32>
  return %0 : tensor<2x16x8x1xf32>
}

// -----

func.func @pack_more_tiles_than_rank(%src: tensor<16xf32>, %dest: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  // expected-error @+1 {{tiling factors must be less than or equal to the input rank for pack or output rank for unpack}}
  %0 = linalg.pack %src inner_dims_pos = [0] inner_tiles = [8, 8] into %dest : tensor<16xf32> -> tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}

// -----

func.func @pack_tiles_dims_mismatch(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>) -> tensor<2x16x8x1xf32> {
  // expected-error @+1 {{tiling factors must equal the number of dimensions to tile}}
  %0 = linalg.pack %src inner_dims_pos = [0] inner_tiles = [8, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8x1xf32>
  return %0 : tensor<2x16x8x1xf32>
}

// -----

func.func @pack_packed_rank(%src: tensor<16x16xf32>, %dest: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{packed rank != (unpacked rank + num tiling factors), got 3 != 4}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}

// -----

func.func @pack_tile_dim_mismatch(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x2xf32>) -> tensor<2x16x8x2xf32> {
  // expected-error @+1 {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8x2xf32>
  return %0 : tensor<2x16x8x2xf32>
}

// -----

func.func @pack_dynamic_tile_static_dim(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>, %t: index) -> tensor<2x16x8x1xf32> {
  // expected-error @+1 {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [%t, 1] into %dest : tensor<16x16xf32> -> tensor<2x16x8x1xf32>
  return %0 : tensor<2x16x8x1xf32>
}

// -----

func.func @pack_wrong_outer_shape(%src: tensor<256x512xf32>, %dest: tensor<30x512x8x1xf32>) -> tensor<30x512x8x1xf32> {
  // expected-error @+1 {{expected 'tensor<32x512x8x1xf32>' for the packed domain value, got 'tensor<30x512x8x1xf32>'}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %dest : tensor<256x512xf32> -> tensor<30x512x8x1xf32>
  return %0 : tensor<30x512x8x1xf32>
}

// -----

func.func @pack_padding_value_type(%src: tensor<13x15xf32>, %dest: tensor<2x8x8x2xf32>, %pad: i32) -> tensor<2x8x8x2xf32> {
  // expected-error @+1 {{expected padding_value has 'f32' but got: 'i32'}}
  %0 = linalg.pack %src padding_value(%pad : i32) inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<13x15xf32> -> tensor<2x8x8x2xf32>
  return %0 : tensor<2x8x8x2xf32>
}

// -----

func.func @pack_partial_tiles_without_padding(%src: tensor<13x15xf32>, %dest: tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32> {
  // expected-error @+1 {{invalid tile factor or output size provided. Only full tiles are supported when padding_value is not set}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<13x15xf32> -> tensor<2x8x8x2xf32>
  return %0 : tensor<2x8x8x2xf32>
}

// -----

// As in MLIR, the error points at the token where `->` was expected.
func.func @pack_missing_dest_type(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>) {
  // expected-error @+2 {{pack/unpack requires '->' and destination type}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %dest : tensor<16x16xf32>
  return
}

// -----

func.func @pack_result_type(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x1xf32>) {
  // expected-error @+1 {{failed to verify that result type matches type of dest}}
  %0 = "linalg.pack"(%src, %dest) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_inner_tiles = array<i64: 8, 1>}> : (tensor<16x16xf32>, tensor<2x16x8x1xf32>) -> tensor<?x?x8x1xf32>
  return
}

// -----

// For unpack the unpacked side is the destination.
func.func @unpack_wrong_outer_shape(%src: tensor<4x?x8x8xf32>, %dest: tensor<?x512xf32>) -> tensor<?x512xf32> {
  // expected-error @+1 {{expected 'tensor<64x?x8x8xf32>' for the packed domain value, got 'tensor<4x?x8x8xf32>'}}
  %0 = linalg.unpack %src outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 8] into %dest : tensor<4x?x8x8xf32> -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

func.func @unpack_invalid_inner_dims_pos(%src: tensor<2x16x8x1xf32>, %dest: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{invalid inner_dims_pos vector}}
  %0 = linalg.unpack %src inner_dims_pos = [2, 0] inner_tiles = [8, 1] into %dest : tensor<2x16x8x1xf32> -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

func.func @matmul_shape_mismatch(%a: tensor<4x8xf32>, %b: tensor<9x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #0 to be 8, but found 9}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<9x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_operand_rank(%a: tensor<8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expected operand rank (1) to match the result rank of indexing_map #0 (2)}}
  %0 = linalg.matmul ins(%a, %b : tensor<8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_result_type(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{expected type of operand #2 ('tensor<4x16xf32>') to match type of corresponding result ('tensor<?x16xf32>')}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

func.func @matmul_missing_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>)
  return
}

// -----

func.func @matmul_mixed_semantics(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expected to have pure tensor or buffer semantics}}
  %0 = linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_one_input(%a: tensor<4x8xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{[parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got 2}}
  %0 = linalg.matmul ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_maps_not_affine(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{element of indexing_maps array is not an affine_map}}
  %0 = linalg.matmul indexing_maps = [1, 2, 3] ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_unexpected_dim(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{Unexpected dim expression in map result.}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_invalid_broadcast(%a: tensor<4xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{Invalid broadcast requested, should be (d2).}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_maps_non_invertible(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{invalid indexing maps are non-invertible: ((d0, d1, d2, d3) -> (d0, d2, d2, d1, d0, d1))}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch_matmul_num_maps(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{Indexing_map attribute must have 3 affine maps.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_unexpected_dim(%a: tensor<2x16x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{Unexpected result dim expression (outside the set of default result dims).}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x16x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_too_many_results(%a: tensor<2x4x8x2xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{no. of result dim expressions exceeds 3.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x4x8x2xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_invalid_broadcast(%a: tensor<2x4xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{Invalid broadcast requested.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x4xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_invalid_batch_dim(%a: tensor<4x2x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{Invalid batch dimension expression.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<4x2x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_output_rank(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expects 3 dims, but got (2).}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch_matmul_output_dims(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<4x2x16xf32>) -> tensor<4x2x16xf32> {
  // expected-error @+1 {{Invalid output map result dimension.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  return %0 : tensor<4x2x16xf32>
}

// -----

func.func @mmt4d_inner_tile_mismatch(%lhs: tensor<2x3x8x1xf32>, %rhs: tensor<4x3x8x1xf32>, %acc: tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32> {
  // expected-error @+1 {{inferred input/output operand #2 has shape's dimension #3 to be 8, but found 4}}
  %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<2x3x8x1xf32>, tensor<4x3x8x1xf32>) outs(%acc : tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32>
  return %0 : tensor<2x4x8x4xf32>
}

// -----

func.func @mmt4d_rank(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?x8x1xf32>, %acc: tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32> {
  // expected-error @+1 {{expected operand rank (2) to match the result rank of indexing_map #0 (4)}}
  %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?x8x1xf32>) outs(%acc : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
  return %0 : tensor<?x?x8x8xf32>
}

// -----

func.func @transpose_invalid_permutation(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{permutation is not valid}}
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [0, 0]
  return %0 : tensor<8x4xf32>
}

// -----

func.func @transpose_rank_mismatch(%a: tensor<4x8xf32>, %b: tensor<8x4x2xf32>) -> tensor<8x4x2xf32> {
  // expected-error @+1 {{input rank 2 does not match init rank 3}}
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4x2xf32>) permutation = [1, 0]
  return %0 : tensor<8x4x2xf32>
}

// -----

func.func @transpose_permutation_size(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{size of permutation 3 does not match the argument rank 2}}
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0, 2]
  return %0 : tensor<8x4xf32>
}

// -----

func.func @transpose_dim_mismatch(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{dim(result, 0) = 4 doesn't match dim(input, permutation[0]) = 8}}
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) permutation = [1, 0]
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_rank_mismatch(%a: tensor<4xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{input rank plus added dimensions does not match init rank. input rank: 1, dimensions size: 2, init rank: 2}}
  %0 = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x8xf32>) dimensions = [0, 1]
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_dimension_out_of_range(%a: tensor<4xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{dimension 0 is out of range. expected range: [0, 1], got: 2}}
  %0 = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x8xf32>) dimensions = [2]
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_dim_mismatch(%a: tensor<8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{input dim 0 should match init dim 0. input: 8, init: 4}}
  %0 = linalg.broadcast ins(%a : tensor<8xf32>) outs(%b : tensor<4x8xf32>) dimensions = [1]
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_unsorted_dimensions(%a: tensor<4xf32>, %b: tensor<4x8x2xf32>) -> tensor<4x8x2xf32> {
  // expected-error @+1 {{attribute 'dimensions' failed to satisfy constraint: i64 dense array attribute should be in increasing order}}
  %0 = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x8x2xf32>) dimensions = [2, 1]
  return %0 : tensor<4x8x2xf32>
}

// -----

func.func @reduce_dimension_out_of_range(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{dimensions for reduction should be in the range [0, 1].}}
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [2]
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_init_rank(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{number of dimensions after reduction 1 doesn't match the init rank 2}}
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) dimensions = [1]
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reduce_init_shape(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{init dimensions [8] doesn't match input dimensions after reduction [4]}}
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%b : tensor<8xf32>) dimensions = [1]
  return %0 : tensor<8xf32>
}

// -----

func.func @reduce_inputs_shapes(%a: tensor<4x8xf32>, %b: tensor<4x7xf32>, %c: tensor<4xf32>, %d: tensor<4xf32>) {
  // expected-error @+1 {{expects all inputs to have the same shapes. Shape at input-index 1 is not equal to the shape at input-index 0.}}
  %0, %1 = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x7xf32>) outs(%c, %d : tensor<4xf32>, tensor<4xf32>) dimensions = [1]
    (%in: f32, %in_0: f32, %init: f32, %init_1: f32) {
      linalg.yield %in, %in_0 : f32, f32
    }
  return
}

// -----

func.func @reduce_input_block_arg_type(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{input element type 'f32' does not match corresponding block argument type 'f16'}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
    (%in: f16, %init: f32) {
      linalg.yield %init : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_output_block_arg_type(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{output element type 'f32' does not match corresponding block argument type 'f16'}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f16) {
      linalg.yield %in : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_block_args(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{mismatching number of operands and block arguments}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
    (%in: f32) {
      linalg.yield %in : f32
    }
  return %0 : tensor<4xf32>
}

// -----

// MLIR reports this one on the `linalg.yield`; here it is reported on the
// enclosing op.
func.func @reduce_yield_type(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{type of yield operand 1 ('f16') doesn't match the element type of the enclosing linalg.generic op ('f32')}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %h = arith.truncf %in : f32 to f16
      linalg.yield %h : f16
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_yield_count(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      linalg.yield %in, %init : f32, f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @elementwise_unknown_kind(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected ::mlir::linalg::ElementwiseKind to be one of: exp, log, abs}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<dive> ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @elementwise_too_many_args(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{[parseNamedStructuredOpRegion] ods-gen generated region expects 2 args, got 3}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>
func.func @elementwise_missing_map(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected the number of indexing_map (2) to be equal to the number of input/output operands (3)}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [#map, #map] ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
func.func @elementwise_map_dims(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected indexing_map #1 to have 1 dim(s) to match the number of loops}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [#map, #map2, #map] ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @index_past_the_loops(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error @+1 {{'linalg.index' op expected dim (256) to be lower than the number of loops (2) of the enclosing LinalgOp}}
    %i = linalg.index 256 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

func.func @negative_index(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error @+1 {{'linalg.index' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
    %i = linalg.index -1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @map_arity(%a: tensor<4xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.map' op expects number of operands to match the arity of mapper, but got: 2 and 1}}
  %m = linalg.map ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>)
    (%x: f32) {
      linalg.yield %x : f32
    }
  return %m : tensor<4xf32>
}

// -----

func.func @map_element_type(%a: tensor<4xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.map' op expected element type of input 'f32' to match bbArg type 'i32'}}
  %m = linalg.map ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>)
    (%x: i32, %y: f32) {
      linalg.yield %y : f32
    }
  return %m : tensor<4xf32>
}

// -----

func.func @map_shape(%a: tensor<4x?xf32>, %i: tensor<5x?xf32>) -> tensor<5x?xf32> {
  // expected-error @+1 {{'linalg.map' op expected shape of input (4, -9223372036854775808) to match shape of output (5, -9223372036854775808)}}
  %m = linalg.map { math.absf } ins(%a : tensor<4x?xf32>) outs(%i : tensor<5x?xf32>)
  return %m : tensor<5x?xf32>
}
