// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-encoding-into-nop | filecheck %s
// With the identity layout a binding holds its tensor as it is, so a load or store of any slice
// (offsets, sizes and strides) keeps that slice; only the encodings go.
#pipeline_layout = #hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
#enc = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>
func.func @strided_slices() {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : index
  %off = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : index
  %size = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32, #enc>>{%n}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x?xf32, #enc>>{%n}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [2, %off], sizes = [4, %size], strides = [3, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32, #enc>>{%n} -> tensor<4x?xf32, #enc>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [%off, 0], sizes = [4, %size], strides = [2, 2] : tensor<4x?xf32, #enc> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x?xf32, #enc>>{%n}
  return
}
// CHECK-LABEL: func.func @strided_slices()
// CHECK:         %[[N:.+]] = hal.interface.constant.load {{.+}} ordinal(0) : index
// CHECK:         %[[OFF:.+]] = hal.interface.constant.load {{.+}} ordinal(1) : index
// CHECK:         %[[SIZE:.+]] = hal.interface.constant.load {{.+}} ordinal(2) : index
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32>>{%[[N]]}
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x?xf32>>{%[[N]]}
// CHECK:         %[[LD:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [2, %[[OFF]]], sizes = [4, %[[SIZE]]], strides = [3, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32>>{%[[N]]} -> tensor<4x?xf32>
// CHECK-NEXT:    iree_tensor_ext.dispatch.tensor.store %[[LD]], %[[OUT]], offsets = [%[[OFF]], 0], sizes = [4, %[[SIZE]]], strides = [2, 2] : tensor<4x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x?xf32>>{%[[N]]}
// CHECK-NEXT:    return
