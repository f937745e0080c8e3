// RUN: mini-iree-opt %s -p 'iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling}' --iree-gpu-test-target=gfx942 | filecheck %s
// The walkthrough era's spelling of the same option, as its IREE tests write it:
// RUN: mini-iree-opt %s --iree-codegen-materialize-device-encoding=test-cl-gpu-target --iree-gpu-test-target=gfx942 | filecheck %s

// IREE's test option for functions without a target: the --iree-gpu-test-target GPU with its data-tiling
// resolver, here the walkthrough's gfx942 LHS layout (128x16 tiles, swizzled 8x4x4x4x4).

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>
func.func @set_encoding() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<255x513xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<255x513xf32, #encoding>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [255, 513], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<255x513xf32>> -> tensor<255x513xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<255x513xf32> -> tensor<255x513xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [255, 513], strides = [1, 1] : tensor<255x513xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<255x513xf32, #encoding>>
  return
}
// CHECK-LABEL: func.func @set_encoding()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x33x8x4x4x4x4xf32>>
// CHECK:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 16]
// CHECK:         tensor.expand_shape {{.+}} output_shape [2, 33, 4, 8, 4, 4, 4]
// CHECK:         linalg.transpose {{.+}} permutation = [0, 1, 3, 6, 2, 4, 5]
