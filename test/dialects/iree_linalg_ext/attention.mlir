// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// Query, key, value, scale and a mask, one map each plus the output's.
#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#mask = affine_map<(b, m, k1, k2, n) -> (b, m, k2)>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
func.func @attention_with_mask(%q: tensor<2x16x8xf16>, %k: tensor<2x?x8xf16>, %v: tensor<2x?x4xf16>, %scale: f16, %m: tensor<2x16x?xi1>, %init: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  %0 = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #mask, #o]} ins(%q, %k, %v, %scale, %m : tensor<2x16x8xf16>, tensor<2x?x8xf16>, tensor<2x?x4xf16>, f16, tensor<2x16x?xi1>) outs(%init : tensor<2x16x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x16x4xf32>
  return %0 : tensor<2x16x4xf32>
}
// CHECK-DAG:   #[[Q:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-DAG:   #[[O:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
// CHECK-LABEL: func.func @attention_with_mask(
// CHECK:         %{{.+}} = iree_linalg_ext.attention {indexing_maps = [#[[Q]], #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #[[O]]]} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x16x8xf16>, tensor<2x?x8xf16>, tensor<2x?x4xf16>, f16, tensor<2x16x?xi1>) outs(%{{.+}} : tensor<2x16x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[S:.+]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<2x16x4xf32>
