// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// memref comes from xDSL; its messages are xDSL's.

func.func @store_with_too_few_indices(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{'memref.store' op Expected an index for each dimension}}
  memref.store %v, %m[%i] : memref<4x4xf32>
  return
}
