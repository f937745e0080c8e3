// RUN: mini-iree-opt %s -p iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-clone-producers-into-dispatch-regions,iree-dispatch-creation-convert-dispatch-regions-to-workgroups | filecheck %s

// A zero-element `dense<>` constant (no first element to compare a splat with) is a
// small constant like any other: cloned into the dispatch that reads it.
func.func @empty_constant(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %cst = arith.constant dense<> : tensor<0x4xf32>
  %0 = tensor.empty() : tensor<0x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %cst : tensor<0x4xf32>, tensor<0x4xf32>) outs(%0 : tensor<0x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<0x4xf32>
  return %1 : tensor<0x4xf32>
}
// CHECK-LABEL: func.func @empty_constant
// CHECK:         flow.dispatch.workgroups(%{{.+}}) : (tensor<0x4xf32>) -> tensor<0x4xf32> =
// CHECK:           arith.constant dense<> : tensor<0x4xf32>
// CHECK:           linalg.generic
