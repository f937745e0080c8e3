// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
func.func @missing_scale(%q: tensor<2x16x8xf16>, %k: tensor<2x32x8xf16>, %v: tensor<2x32x4xf16>, %init: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.attention' op expected 4 or 5 inputs (query, key, value, scale, mask), got 3}}
  %0 = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #o]} ins(%q, %k, %v : tensor<2x16x8xf16>, tensor<2x32x8xf16>, tensor<2x32x4xf16>) outs(%init : tensor<2x16x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x16x4xf32>
  return %0 : tensor<2x16x4xf32>
}

// -----

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
func.func @missing_map(%q: tensor<2x16x8xf16>, %k: tensor<2x32x8xf16>, %v: tensor<2x32x4xf16>, %scale: f16, %init: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.attention' op expected an indexing map for each input and output}}
  %0 = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #o]} ins(%q, %k, %v, %scale : tensor<2x16x8xf16>, tensor<2x32x8xf16>, tensor<2x32x4xf16>, f16) outs(%init : tensor<2x16x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x16x4xf32>
  return %0 : tensor<2x16x4xf32>
}
