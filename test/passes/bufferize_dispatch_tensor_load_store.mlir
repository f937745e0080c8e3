// RUN: mini-iree-opt %s -p iree-codegen-bufferize-dispatch-tensor-load-store --split-input-file | filecheck %s

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dispatch_tensor_load_and_store() {
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [16], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<16xf32>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  return
}
// The memref twin goes right before each subspan; the dispatch-tensor subspans stay, dead.
// CHECK-LABEL: func.func @dispatch_tensor_load_and_store()
// CHECK:         %[[INPUT:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
// CHECK-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
// CHECK-NEXT:    %[[OUTPUT:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
// CHECK-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(1) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
// CHECK-NEXT:    %[[LOAD:.+]] = iree_codegen.load_from_buffer %[[INPUT]] : memref<16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16xf32>
// CHECK-NEXT:    iree_codegen.store_to_buffer %[[LOAD]], %[[OUTPUT]] : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
// CHECK-NOT:     iree_tensor_ext.dispatch.tensor

// -----

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dispatch_tensor_load_and_store_slices() {
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [2], sizes = [12], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<12xf32>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [4], sizes = [12], strides = [1] : tensor<12xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  return
}
// The store's subview goes right after the values it needs, before the load's.
// CHECK-LABEL: func.func @dispatch_tensor_load_and_store_slices()
// CHECK:         %[[INPUT:.+]] = hal.interface.binding.subspan {{.*}} binding(0) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[OUTPUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[OUTPUT_SUBVIEW:.+]] = memref.subview %[[OUTPUT]][4] [12] [1] : memref<16xf32, #hal.descriptor_type<storage_buffer>> to memref<12xf32, strided<[1], offset: 4>, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[INPUT_SUBVIEW:.+]] = memref.subview %[[INPUT]][2] [12] [1] : memref<16xf32, #hal.descriptor_type<storage_buffer>> to memref<12xf32, strided<[1], offset: 2>, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[LOAD:.+]] = iree_codegen.load_from_buffer %[[INPUT_SUBVIEW]] : memref<12xf32, strided<[1], offset: 2>, #hal.descriptor_type<storage_buffer>> -> tensor<12xf32>
// CHECK:         iree_codegen.store_to_buffer %[[LOAD]], %[[OUTPUT_SUBVIEW]] : tensor<12xf32> into memref<12xf32, strided<[1], offset: 4>, #hal.descriptor_type<storage_buffer>>

// -----

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dynamic_dispatch_tensor_load_and_store(%offset: index, %size: index, %stride: index, %binding_size: index) {
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%binding_size}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%binding_size}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [%offset], sizes = [%size], strides = [%stride] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%binding_size} -> tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [%offset], sizes = [%size], strides = [%stride] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%binding_size}
  return
}
// CHECK-LABEL: func.func @dynamic_dispatch_tensor_load_and_store
// CHECK-SAME:    (%[[OFFSET:[a-zA-Z0-9_]+]]: index, %[[SIZE:[a-zA-Z0-9_]+]]: index, %[[STRIDE:[a-zA-Z0-9_]+]]: index, %[[BINDING_SIZE:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[INPUT:.+]] = hal.interface.binding.subspan {{.*}} binding(0) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%[[BINDING_SIZE]]}
// CHECK:         %[[OUTPUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%[[BINDING_SIZE]]}
// CHECK:         %[[OUTPUT_SUBVIEW:.+]] = memref.subview %[[OUTPUT]][%[[OFFSET]]] [%[[SIZE]]] [%[[STRIDE]]] : memref<?xf32, #hal.descriptor_type<storage_buffer>> to memref<?xf32, strided<[?], offset: ?>, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[INPUT_SUBVIEW:.+]] = memref.subview %[[INPUT]][%[[OFFSET]]] [%[[SIZE]]] [%[[STRIDE]]]
// CHECK:         %[[LOAD:.+]] = iree_codegen.load_from_buffer %[[INPUT_SUBVIEW]] : memref<?xf32, strided<[?], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<?xf32>
// CHECK:         iree_codegen.store_to_buffer %[[LOAD]], %[[OUTPUT_SUBVIEW]]

// -----

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @rank_reducing_slices() {
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x16xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 2], sizes = [1, 12], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x16xf32>> -> tensor<12xf32>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0, 4], sizes = [1, 12], strides = [1, 1] : tensor<12xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>
  return
}
// CHECK-LABEL: func.func @rank_reducing_slices()
// CHECK:         memref.subview %{{.+}}[0, 4] [1, 12] [1, 1] : memref<8x16xf32, #hal.descriptor_type<storage_buffer>> to memref<12xf32, strided<[1], offset: 4>, #hal.descriptor_type<storage_buffer>>
// CHECK:         memref.subview %{{.+}}[0, 2] [1, 12] [1, 1] : memref<8x16xf32, #hal.descriptor_type<storage_buffer>> to memref<12xf32, strided<[1], offset: 2>, #hal.descriptor_type<storage_buffer>>

// -----

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>]>
func.func @byte_offset_gives_strided_layout(%offset: index, %d: index) -> tensor<?x4x2xf32> {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%offset) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4x2xf32>>{%d}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4x2xf32>>{%d}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [%d, 4, 2], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4x2xf32>>{%d} -> tensor<?x4x2xf32>
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [%d, 4, 2], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4x2xf32>>{%d} -> tensor<?x4x2xf32>
  return %2 : tensor<?x4x2xf32>
}
// An unknown byte offset: strides from the shape, offset `?`; a known 0 offset: no layout.
// CHECK-LABEL: func.func @byte_offset_gives_strided_layout
// CHECK:         hal.interface.binding.subspan {{.*}} offset(%{{.+}}) flags(ReadOnly) : memref<?x4x2xf32, strided<[8, 2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>{%{{.+}}}
// CHECK:         hal.interface.binding.subspan {{.*}} offset(%c0) flags(ReadOnly) : memref<?x4x2xf32, #hal.descriptor_type<storage_buffer>>{%{{.+}}}
// CHECK:         iree_codegen.load_from_buffer %{{.+}} : memref<?x4x2xf32, strided<[8, 2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<?x4x2xf32>
// CHECK:         iree_codegen.load_from_buffer %{{.+}} : memref<?x4x2xf32, #hal.descriptor_type<storage_buffer>> -> tensor<?x4x2xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @two_loads_share_one_buffer() -> tensor<16xf32> {
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %1 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [16], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<16xf32>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [16], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<16xf32>
  %3 = arith.addf %1, %2 : tensor<16xf32>
  return %3 : tensor<16xf32>
}
// CHECK-LABEL: func.func @two_loads_share_one_buffer()
// CHECK:         %[[BUF:.+]] = hal.interface.binding.subspan {{.*}} : memref<16xf32, #hal.descriptor_type<storage_buffer>>
// CHECK-NOT:     memref<16xf32
// CHECK:         iree_codegen.load_from_buffer %[[BUF]]
// CHECK:         iree_codegen.load_from_buffer %[[BUF]]
