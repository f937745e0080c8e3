// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @store_descriptor_type
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
func.func @store_descriptor_type(%m: memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>, %v: f32,
                                 %a: index, %b: index, %c: index, %d: index, %e: index, %f: index, %g: index) {
  memref.store %v, %m[%a, %b, %c, %d, %e, %f, %g] : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A strided layout with a dynamic offset and a memory space.
// CHECK-LABEL: func.func @strided_layout
// CHECK-SAME: memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
func.func @strided_layout(%m: memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>,
                          %v: f32, %i: index) {
  memref.store %v, %m[%i, %i, %i, %i, %i, %i, %i] : memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  return
}
