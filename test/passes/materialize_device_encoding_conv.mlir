// RUN: mini-iree-opt %s -p iree-codegen-materialize-device-encoding | filecheck %s

// A convolution on conv encodings, x86_64 with AVX-512: the channels are tiled by 16
// (IREE's enumerateCPUConvTiles), input and output packed on their channel dim,
// the filter on both channel dims, and the convolution becomes IREE's 9-D data-tiled
// linalg.generic on the packed operands.

#map_in = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh + fh, ow + fw, ic)>
#map_f = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (fh, fw, ic, oc)>
#map_out = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh, ow, oc)>
#in = #iree_encoding.encoding<operand_index = 0, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [1, 14, 14, 8, 3, 3, 4]>
#f = #iree_encoding.encoding<operand_index = 1, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [1, 14, 14, 8, 3, 3, 4]>
#out = #iree_encoding.encoding<operand_index = 2, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [1, 14, 14, 8, 3, 3, 4]>
func.func @conv(%arg0: tensor<1x16x16x4xf32>, %arg1: tensor<3x3x4x8xf32>, %arg2: tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="x86_64-xyz-xyz", cpu_features="+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %arg0 : tensor<1x16x16x4xf32> -> tensor<1x16x16x4xf32, #in>
  %1 = iree_encoding.set_encoding %arg1 : tensor<3x3x4x8xf32> -> tensor<3x3x4x8xf32, #f>
  %2 = iree_encoding.set_encoding %arg2 : tensor<1x14x14x8xf32> -> tensor<1x14x14x8xf32, #out>
  %3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%0, %1 : tensor<1x16x16x4xf32, #in>, tensor<3x3x4x8xf32, #f>) outs(%2 : tensor<1x14x14x8xf32, #out>) -> tensor<1x14x14x8xf32, #out>
  %4 = iree_encoding.unset_encoding %3 : tensor<1x14x14x8xf32, #out> -> tensor<1x14x14x8xf32>
  return %4 : tensor<1x14x14x8xf32>
}

// CHECK-LABEL: func.func @conv(
// CHECK:         %[[IN:.+]] = linalg.pack %arg0 padding_value(%{{.+}} : f32) outer_dims_perm = [0, 3, 1, 2] inner_dims_pos = [3] inner_tiles = [16] into %{{.+}} : tensor<1x16x16x4xf32> -> tensor<1x1x16x16x16xf32>
// CHECK:         %[[F:.+]] = linalg.pack %arg1 padding_value(%{{.+}} : f32) outer_dims_perm = [3, 2, 0, 1] inner_dims_pos = [2, 3] inner_tiles = [16, 16] into %{{.+}} : tensor<3x3x4x8xf32> -> tensor<1x1x3x3x16x16xf32>
// CHECK:         %[[OUT:.+]] = linalg.pack %arg2 padding_value(%{{.+}} : f32) outer_dims_perm = [0, 3, 1, 2] inner_dims_pos = [3] inner_tiles = [16] into %{{.+}} : tensor<1x14x14x8xf32> -> tensor<1x1x14x14x16xf32>
// CHECK:         %[[CONV:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[IN]], %[[F]] : tensor<1x1x16x16x16xf32>, tensor<1x1x3x3x16x16xf32>) outs(%[[OUT]] : tensor<1x1x14x14x16xf32>)
// CHECK:         linalg.unpack %[[CONV]] outer_dims_perm = [0, 3, 1, 2] inner_dims_pos = [3] inner_tiles = [16] into %{{.+}} : tensor<1x1x14x14x16xf32> -> tensor<1x14x14x8xf32>
