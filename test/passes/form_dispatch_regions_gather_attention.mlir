// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=walkthrough}' --split-input-file | filecheck %s

// A gather (a generic yielding what it reads with tensor.extract) feeding only attention ops
// is a rope computation: it gets no dispatch of its own, and clone-producers clones it into
// the attention's (IREE's isGatherlikeOp point fix). (No interpreter test: mini-iree's
// interpreter does not run iree_linalg_ext.attention.)

util.func public @rope_gather_into_attention(%q: tensor<2x3x4xf32>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x4xf32>, %table: tensor<8x4xf32>, %scale: f32) -> tensor<2x3x4xf32> {
  %qe = tensor.empty() : tensor<2x3x4xf32>
  %rope = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<2x3x4xf32>) outs(%qe : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %t = tensor.extract %table[%i, %j] : tensor<8x4xf32>
    %m = arith.mulf %in, %t : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %a = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, n, k1, k2) -> (b, m, k1)>, affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>, affine_map<(b, m, n, k1, k2) -> (b, k2, n)>, affine_map<(b, m, n, k1, k2) -> ()>, affine_map<(b, m, n, k1, k2) -> (b, m, n)>]} ins(%rope, %k, %v, %scale : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, f32) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x4xf32>
  util.return %a : tensor<2x3x4xf32>
}

// CHECK-LABEL: util.func public @rope_gather_into_attention
//       CHECK:   %[[ROPE:.+]] = linalg.generic
//       CHECK:     tensor.extract
//       CHECK:   flow.dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.attention
//  CHECK-SAME:         ins(%[[ROPE]],
//   CHECK-NOT:   flow.dispatch.region

// -----

// The same gather with another user besides the attention gets its own dispatch.

util.func public @gather_with_other_user(%q: tensor<2x3x4xf32>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x4xf32>, %table: tensor<8x4xf32>, %scale: f32) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %qe = tensor.empty() : tensor<2x3x4xf32>
  %rope = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<2x3x4xf32>) outs(%qe : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %t = tensor.extract %table[%i, %j] : tensor<8x4xf32>
    %m = arith.mulf %in, %t : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %a = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, n, k1, k2) -> (b, m, k1)>, affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>, affine_map<(b, m, n, k1, k2) -> (b, k2, n)>, affine_map<(b, m, n, k1, k2) -> ()>, affine_map<(b, m, n, k1, k2) -> (b, m, n)>]} ins(%rope, %k, %v, %scale : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, f32) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x4xf32>
  util.return %a, %rope : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// CHECK-LABEL: util.func public @gather_with_other_user
//       CHECK:   %[[ROPE:.+]] = flow.dispatch.region
//  CHECK-NEXT:     linalg.generic
//       CHECK:   flow.dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.attention
//  CHECK-SAME:         ins(%[[ROPE]],
