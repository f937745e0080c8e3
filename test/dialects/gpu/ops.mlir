// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The gpu attributes IREE's codegen prints: loop mappings and address spaces.

// CHECK-LABEL: func.func @thread_mapping
// CHECK-SAME:    mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>, #gpu.thread<x>, #gpu.warp<y>, #gpu.block<z>]
func.func @thread_mapping() attributes {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>, #gpu.thread<x>, #gpu.warp<y>, #gpu.block<z>]} {
  return
}

// -----

// CHECK-LABEL: func.func @workgroup_memory
// CHECK-SAME:    memref<16x16xf32, #gpu.address_space<workgroup>>
func.func @workgroup_memory(%m: memref<16x16xf32, #gpu.address_space<workgroup>>) {
  return
}
