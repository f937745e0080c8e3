// RUN: mini-iree-opt %s -p iree-preprocessing-attr-based-pipeline --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p iree-preprocessing-attr-based-pipeline --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Only the function that names a pipeline is transformed: @with_pipeline gets
// its dispatch region, @without_pipeline keeps its bare linalg.generic.

#id = affine_map<(d0) -> (d0)>
util.func public @with_pipeline(%a: tensor<4xf32>) -> tensor<4xf32> attributes {
    preprocessing_pipeline = #util.preprocessing_pipeline<"iree-dispatch-creation-form-dispatch-regions">} {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %1 : tensor<4xf32>
}
util.func public @without_pipeline(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %1 : tensor<4xf32>
}

// CHECK-LABEL: util.func public @with_pipeline(
// CHECK-SAME:      preprocessing_pipeline = #util.preprocessing_pipeline<"iree-dispatch-creation-form-dispatch-regions">
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// CHECK:           arith.addf
// CHECK:         util.return %[[R]]
// CHECK-LABEL: util.func public @without_pipeline(
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK-NOT:     flow.dispatch.region

// -----

// A pipeline of several passes, with options, in the order written: with
// aggressive fusion the reduction's broadcasting consumer joins its dispatch,
// which is then turned into flow.dispatch.workgroups.

util.func public @several_passes(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {
    preprocessing_pipeline = #util.preprocessing_pipeline<"iree-dispatch-creation-form-dispatch-regions{aggressive-fusion=true},iree-dispatch-creation-convert-dispatch-regions-to-workgroups">} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %2 : tensor<4x8xf32>, tensor<4xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %d = arith.divf %x, %r : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  util.return %4 : tensor<4x8xf32>
}

// CHECK-LABEL: util.func public @several_passes(
// CHECK:         %[[W:.+]] = flow.dispatch.workgroups
// CHECK:           iterator_types = ["parallel", "reduction"]
// CHECK:           iterator_types = ["parallel", "parallel"]
// CHECK-NOT:     flow.dispatch.workgroups
// CHECK:         util.return %[[W]]

// -----

// An attribute that is not a #util.preprocessing_pipeline gets a remark; the
// function is left alone and the pass goes on.

util.func public @plain_string(%a: tensor<4xf32>) -> tensor<4xf32> attributes {preprocessing_pipeline = "canonicalize"} {
  util.return %a : tensor<4xf32>
}

// REMARK: attr_based_pipeline.mlir:[[# @LINE - 4]]:1: remark: expected preprocessing_pipeline attribute to be a `StringAttr` that specifies the pass pipeline to apply
// CHECK-LABEL: util.func public @plain_string(
// CHECK-NEXT:    util.return

