// RUN: mini-iree-opt %s -p 'func.func(iree-codegen-materialize-encoding-into-padding)' --iree-gpu-test-target=gfx942 --split-input-file | filecheck %s

// The walkthrough-era padding pass: a padded binding keeps the dynamic dims its subspan
// has (padding pads static dims only), even when they do not account for its type, as
// IREE's pattern passes them through unchecked; its loads and stores keep their own.

#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32]>
#padded = #iree_encoding.layout<[#iree_encoding.padding<[0, 32]>]>
func.func @padded_binding_keeps_its_dims() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %n = arith.index_castui %0 : i32 to index
  %1 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n}
  %2 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x64xf32, #padded>>
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n} -> tensor<?x64xf32>
  %4 = iree_encoding.set_encoding %3 : tensor<?x64xf32> -> tensor<?x64xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %4, %2, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : tensor<?x64xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x64xf32, #padded>>{%n}
  return
}
// CHECK-LABEL: func.func @padded_binding_keeps_its_dims()
// CHECK:         %[[N:.+]] = arith.index_castui
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%[[N]]}
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x96xf32>>
// CHECK-NOT:     {
// CHECK:         %[[V:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]]
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[V]], %[[OUT]], offsets = [0, 0], sizes = [%[[N]], 64], strides = [1, 1] : tensor<?x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x96xf32>>{%[[N]]}

// -----

// With its dims attached, the padded binding is the same, its dim passed on.

#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32]>
#padded = #iree_encoding.layout<[#iree_encoding.padding<[0, 32]>]>
func.func @padded_binding_with_dims() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %n = arith.index_castui %0 : i32 to index
  %1 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n}
  %2 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x64xf32, #padded>>{%n}
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n} -> tensor<?x64xf32>
  %4 = iree_encoding.set_encoding %3 : tensor<?x64xf32> -> tensor<?x64xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %4, %2, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : tensor<?x64xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x64xf32, #padded>>{%n}
  return
}
// CHECK-LABEL: func.func @padded_binding_with_dims()
// CHECK:         %[[N:.+]] = arith.index_castui
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x96xf32>>{%[[N]]}
// CHECK:         iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[OUT]], offsets = [0, 0], sizes = [%[[N]], 64], strides = [1, 1] : tensor<?x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x96xf32>>{%[[N]]}
