// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics --iree-era=3.13
// RUN: mini-iree-opt %s --split-input-file | filecheck %s --check-prefix=WALKTHROUGH

// IREE 3.13 carries the dynamic iteration sizes as encoding_dims and its
// verifier wants them all; the walkthrough's IREE printed the older form,
// `iteration_sizes = [?, ?, ?]` and no encoding_dims, which that era accepts.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_without_dims(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  // expected-error @+1 {{encoding expects 3 dynamic encoding dimension(s), but 0 provided}}
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}
// WALKTHROUGH-LABEL: func.func @set_encoding_without_dims(
// WALKTHROUGH:         iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @unset_encoding_without_dims(%arg0: tensor<?x?xf32, #encoding>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{encoding expects 3 dynamic encoding dimension(s), but 0 provided}}
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  return %0 : tensor<?x?xf32>
}
// WALKTHROUGH-LABEL: func.func @unset_encoding_without_dims(
// WALKTHROUGH:         iree_encoding.unset_encoding %arg0 : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%{{.+}}, %{{.+}}}
