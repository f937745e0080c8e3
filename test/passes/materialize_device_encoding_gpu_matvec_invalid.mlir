// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics --iree-era=3.13 --iree-gpu-test-target=gfx942 -p 'func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})'

// IREE 3.13 types a GPU matvec's vector operands with the whole intrinsic tile,
// which no pack + reshape reaches: set_encoding and unset_encoding of such a
// vector fail where IREE's reshape between the pack and the swizzle fails its
// verifier, with that verifier's words.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40]>
func.func @set_vector(%x: tensor<40xf16>) -> tensor<40xf16, #rhs> {
  // expected-error @+1 {{'tensor.expand_shape' op expected collapsed rank (2) to equal the number of reassociation maps (3).}}
  %0 = iree_encoding.set_encoding %x : tensor<40xf16> -> tensor<40xf16, #rhs>
  return %0 : tensor<40xf16, #rhs>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#res = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40]>
func.func @unset_vector(%y: tensor<20xf32, #res>) -> tensor<20xf32> {
  // expected-error @+1 {{'tensor.collapse_shape' op expected collapsed rank (2) to equal the number of reassociation maps (3).}}
  %0 = iree_encoding.unset_encoding %y : tensor<20xf32, #res> -> tensor<20xf32>
  return %0 : tensor<20xf32>
}
