// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-set-encoding{encoding-option=padding}' --split-input-file | filecheck %s

// The LHS of the second matmul comes straight from the first dispatch: that
// dispatch is rebuilt to hand out its result with a backend-chosen pad on the
// innermost dimension, and the consumer strips the encoding again.
func.func @chain_of_two_matmuls(%x: tensor<?x512xf32>, %w0: tensor<512x256xf32>, %w1: tensor<256x128xf32>, %m: index) -> tensor<?x128xf32> {
  %zero = arith.constant 0.0 : f32
  %h = flow.dispatch.region[%m] -> (tensor<?x256xf32>{%m}) {
    %e = tensor.empty(%m) : tensor<?x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
    %mm = linalg.matmul ins(%x, %w0 : tensor<?x512xf32>, tensor<512x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
    flow.return %mm : tensor<?x256xf32>
  } count(%b0: index) -> (index, index, index) {
    %gx, %gy, %gz = iree_tensor_ext.dispatch.workgroup_count_from_slice(%b0)
    flow.return %gx, %gy, %gz : index, index, index
  }
  %y = flow.dispatch.region -> (tensor<?x128xf32>{%m}) {
    %e = tensor.empty(%m) : tensor<?x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
    %mm = linalg.matmul ins(%h, %w1 : tensor<?x256xf32>, tensor<256x128xf32>) outs(%f : tensor<?x128xf32>) -> tensor<?x128xf32>
    flow.return %mm : tensor<?x128xf32>
  }
  return %y : tensor<?x128xf32>
}
// CHECK-LABEL: func.func @chain_of_two_matmuls(
// CHECK-SAME:      %[[X:.+]]: tensor<?x512xf32>, %[[W0:.+]]: tensor<512x256xf32>, %[[W1:.+]]: tensor<256x128xf32>, %[[M:.+]]: index)
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[H:.+]] = flow.dispatch.region[%[[M]]] -> (tensor<?x256xf32, #iree_encoding.padding<[0, ?]>>{%[[M]]}) {
// CHECK:           %[[MM:.+]] = linalg.matmul ins(%[[X]], %[[W0]] : tensor<?x512xf32>, tensor<512x256xf32>)
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[MM]] : tensor<?x256xf32> -> tensor<?x256xf32, #iree_encoding.padding<[0, ?]>>
// CHECK-NEXT:      flow.return %[[SET]] : tensor<?x256xf32, #iree_encoding.padding<[0, ?]>>
// CHECK-NEXT:    } count(%[[B0:.+]]: index) -> (index, index, index) {
// CHECK-NEXT:      %{{.+}}, %{{.+}}, %{{.+}} = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[B0]])
// CHECK:         %[[Y:.+]] = flow.dispatch.region -> (tensor<?x128xf32>{%[[M]]}) {
// CHECK:           %[[UNSET:.+]] = iree_encoding.unset_encoding %[[H]] : tensor<?x256xf32, #iree_encoding.padding<[0, ?]>> -> tensor<?x256xf32>{%[[M]]}
// CHECK-NEXT:      linalg.matmul ins(%[[UNSET]], %[[W1]] : tensor<?x256xf32>, tensor<256x128xf32>)
// The original producer is gone: one dispatch computes the first matmul.
// CHECK-NOT:     flow.dispatch.region
// CHECK:         return %[[Y]]

// -----

// The value reaches the consumer through reshapes outside the dispatches: they
// are replayed inside the rebuilt producer, before the set_encoding, and the
// padded result's size is derived from the reshapes' sizes.
func.func @through_expand_and_collapse(%w: tensor<64x32xf32>, %m: index) -> tensor<?x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = flow.dispatch.region -> (tensor<?x128xf32>{%m}) {
    %e = tensor.empty(%m) : tensor<?x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
    flow.return %f : tensor<?x128xf32>
  }
  %ex = tensor.expand_shape %p [[0], [1, 2]] output_shape [%m, 2, 64] : tensor<?x128xf32> into tensor<?x2x64xf32>
  %co = tensor.collapse_shape %ex [[0, 1], [2]] : tensor<?x2x64xf32> into tensor<?x64xf32>
  %c2 = arith.constant 2 : index
  %m2 = arith.muli %m, %c2 : index
  %y = flow.dispatch.region -> (tensor<?x32xf32>{%m2}) {
    %e = tensor.empty(%m2) : tensor<?x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
    %mm = linalg.matmul ins(%co, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%f : tensor<?x32xf32>) -> tensor<?x32xf32>
    flow.return %mm : tensor<?x32xf32>
  }
  return %y : tensor<?x32xf32>
}
// CHECK-LABEL: func.func @through_expand_and_collapse(
// CHECK-SAME:      %{{.+}}: tensor<64x32xf32>, %[[M:.+]]: index)
// CHECK:         %[[M2:.+]] = arith.muli %[[M]]
// CHECK-NEXT:    %[[TWO:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ROWS:.+]] = arith.muli %[[M]], %[[TWO]] : index
// CHECK-NEXT:    %[[P:.+]] = flow.dispatch.region -> (tensor<?x64xf32, #iree_encoding.padding<[0, ?]>>{%[[ROWS]]}) {
// CHECK:           %[[F:.+]] = linalg.fill
// CHECK-NEXT:      %[[EX:.+]] = tensor.expand_shape %[[F]] {{\[}}[0], [1, 2]] output_shape [%[[M]], 2, 64] : tensor<?x128xf32> into tensor<?x2x64xf32>
// CHECK-NEXT:      %[[CO:.+]] = tensor.collapse_shape %[[EX]] {{\[}}[0, 1], [2]] : tensor<?x2x64xf32> into tensor<?x64xf32>
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[CO]] : tensor<?x64xf32> -> tensor<?x64xf32, #iree_encoding.padding<[0, ?]>>
// CHECK-NEXT:      flow.return %[[SET]]
// CHECK:         flow.dispatch.region -> (tensor<?x32xf32>{%[[M2]]})
// CHECK:           iree_encoding.unset_encoding %[[P]] : tensor<?x64xf32, #iree_encoding.padding<[0, ?]>> -> tensor<?x64xf32>{%[[ROWS]]}
// The reshapes outside the dispatches are gone with the old producer.
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return

// -----

// Both inputs come from dispatches: both producers are rebuilt, each right
// before the consumer's dispatch, and the RHS pad is on its innermost (N) dim.
func.func @both_operands_from_dispatches(%a: tensor<96x80xf32>, %b: tensor<80x72xf32>) -> tensor<96x72xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lhs = flow.dispatch.region -> (tensor<96x80xf32>) {
    %e = tensor.empty() : tensor<96x80xf32>
    %f = linalg.fill ins(%one : f32) outs(%e : tensor<96x80xf32>) -> tensor<96x80xf32>
    flow.return %f : tensor<96x80xf32>
  }
  %rhs = flow.dispatch.region -> (tensor<80x72xf32>) {
    %e = tensor.empty() : tensor<80x72xf32>
    %f = linalg.fill ins(%one : f32) outs(%e : tensor<80x72xf32>) -> tensor<80x72xf32>
    flow.return %f : tensor<80x72xf32>
  }
  %y = flow.dispatch.region -> (tensor<96x72xf32>) {
    %e = tensor.empty() : tensor<96x72xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x72xf32>) -> tensor<96x72xf32>
    %mm = linalg.matmul ins(%lhs, %rhs : tensor<96x80xf32>, tensor<80x72xf32>) outs(%f : tensor<96x72xf32>) -> tensor<96x72xf32>
    flow.return %mm : tensor<96x72xf32>
  }
  return %y : tensor<96x72xf32>
}
// CHECK-LABEL: func.func @both_operands_from_dispatches(
// CHECK:         %[[LHS:.+]] = flow.dispatch.region -> (tensor<96x80xf32, #iree_encoding.padding<[0, ?]>>) {
// CHECK:         %[[RHS:.+]] = flow.dispatch.region -> (tensor<80x72xf32, #iree_encoding.padding<[0, ?]>>) {
// CHECK:         flow.dispatch.region -> (tensor<96x72xf32>) {
// CHECK-DAG:       %[[A:.+]] = iree_encoding.unset_encoding %[[LHS]] : tensor<96x80xf32, #iree_encoding.padding<[0, ?]>> -> tensor<96x80xf32>
// CHECK-DAG:       %[[B:.+]] = iree_encoding.unset_encoding %[[RHS]] : tensor<80x72xf32, #iree_encoding.padding<[0, ?]>> -> tensor<80x72xf32>
// CHECK:           linalg.matmul ins(%[[A]], %[[B]] : tensor<96x80xf32>, tensor<80x72xf32>)

// -----

// Only the padded result of a two-result producer moves to the rebuilt
// region; the other result keeps coming from the original one.
func.func @two_result_producer(%a: tensor<128x64xf32>, %w: tensor<64x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p:2 = flow.dispatch.region -> (tensor<128x64xf32>, tensor<128x64xf32>) {
    %e = tensor.empty() : tensor<128x64xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
    %f1 = linalg.fill ins(%one : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %f0, %f1 : tensor<128x64xf32>, tensor<128x64xf32>
  }
  %y = flow.dispatch.region -> (tensor<128x64xf32>) {
    %e = tensor.empty() : tensor<128x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
    %mm = linalg.matmul ins(%p#1, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %mm : tensor<128x64xf32>
  }
  return %y, %p#0 : tensor<128x64xf32>, tensor<128x64xf32>
}
// CHECK-LABEL: func.func @two_result_producer(
// CHECK:         %[[OLD:.+]]:2 = flow.dispatch.region -> (tensor<128x64xf32>, tensor<128x64xf32>) {
// CHECK:         %[[NEW:.+]]:2 = flow.dispatch.region -> (tensor<128x64xf32>, tensor<128x64xf32, #iree_encoding.padding<[0, ?]>>) {
// CHECK:           flow.return %{{.+}}, %{{.+}} : tensor<128x64xf32>, tensor<128x64xf32, #iree_encoding.padding<[0, ?]>>
// CHECK:         %[[Y:.+]] = flow.dispatch.region
// CHECK:           iree_encoding.unset_encoding %[[NEW]]#1
// CHECK:         return %[[Y]], %[[OLD]]#0

// -----

// Not padded: a dynamic reduction dimension (K), a contraction outside any
// dispatch, an operand that is a function argument, and a producer result
// that has another use.
func.func @not_padded(%a: tensor<128x?xf32>, %b: tensor<?x64xf32>, %c: tensor<128x64xf32>, %w: tensor<64x64xf32>, %k: index) -> (tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %pa = flow.dispatch.region -> (tensor<128x?xf32>{%k}) {
    %e = tensor.empty(%k) : tensor<128x?xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x?xf32>) -> tensor<128x?xf32>
    flow.return %f : tensor<128x?xf32>
  }
  %dyn_k = flow.dispatch.region -> (tensor<128x64xf32>) {
    %mm = linalg.matmul ins(%pa, %b : tensor<128x?xf32>, tensor<?x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %mm : tensor<128x64xf32>
  }
  %pc = flow.dispatch.region -> (tensor<128x64xf32>) {
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %f : tensor<128x64xf32>
  }
  %outside = linalg.matmul ins(%pc, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  %from_arg = flow.dispatch.region -> (tensor<128x64xf32>) {
    %mm = linalg.matmul ins(%c, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %mm : tensor<128x64xf32>
  }
  %pd = flow.dispatch.region -> (tensor<128x64xf32>) {
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %f : tensor<128x64xf32>
  }
  %two_uses = flow.dispatch.region -> (tensor<128x64xf32>) {
    %mm = linalg.matmul ins(%pd, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%pd : tensor<128x64xf32>) -> tensor<128x64xf32>
    flow.return %mm : tensor<128x64xf32>
  }
  return %dyn_k, %outside, %from_arg, %two_uses : tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>
}
// CHECK-LABEL: func.func @not_padded(
// CHECK-NOT:     iree_encoding
// CHECK:         return

// -----

// Skinny problems are not worth padding: static parallel loops whose sizes
// multiply to less than 64 (here 7 * 9 = 63); 8 * 8 = 64 is padded.
func.func @skinny_threshold(%a: tensor<7x256xf32>, %b: tensor<8x256xf32>, %w9: tensor<256x9xf32>, %w8: tensor<256x8xf32>) -> (tensor<7x9xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %pa = flow.dispatch.region -> (tensor<7x256xf32>) {
    %e = tensor.empty() : tensor<7x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x256xf32>) -> tensor<7x256xf32>
    flow.return %f : tensor<7x256xf32>
  }
  %pb = flow.dispatch.region -> (tensor<8x256xf32>) {
    %e = tensor.empty() : tensor<8x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x256xf32>) -> tensor<8x256xf32>
    flow.return %f : tensor<8x256xf32>
  }
  %skinny = flow.dispatch.region -> (tensor<7x9xf32>) {
    %e = tensor.empty() : tensor<7x9xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x9xf32>) -> tensor<7x9xf32>
    %mm = linalg.matmul ins(%pa, %w9 : tensor<7x256xf32>, tensor<256x9xf32>) outs(%f : tensor<7x9xf32>) -> tensor<7x9xf32>
    flow.return %mm : tensor<7x9xf32>
  }
  %square = flow.dispatch.region -> (tensor<8x8xf32>) {
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %mm = linalg.matmul ins(%pb, %w8 : tensor<8x256xf32>, tensor<256x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
    flow.return %mm : tensor<8x8xf32>
  }
  return %skinny, %square : tensor<7x9xf32>, tensor<8x8xf32>
}
// CHECK-LABEL: func.func @skinny_threshold(
// CHECK:         flow.dispatch.region -> (tensor<7x256xf32>) {
// CHECK:         flow.dispatch.region -> (tensor<7x9xf32>) {
// CHECK-NOT:       iree_encoding
// CHECK:           linalg.matmul
// The rebuilt producer sits right before its consumer.
// CHECK:         %[[PB:.+]] = flow.dispatch.region -> (tensor<8x256xf32, #iree_encoding.padding<[0, ?]>>) {
// CHECK:         flow.dispatch.region -> (tensor<8x8xf32>) {
// CHECK:           iree_encoding.unset_encoding %[[PB]]
// CHECK:           linalg.matmul

// -----

// A batch matmul is a contraction too: its LHS is padded on the innermost dim (K).
func.func @batch_matmul(%a: tensor<2x64x32xf32>, %w: tensor<2x32x16xf32>) -> tensor<2x64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = flow.dispatch.region -> (tensor<2x64x32xf32>) {
    %e = tensor.empty() : tensor<2x64x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
    flow.return %f : tensor<2x64x32xf32>
  }
  %y = flow.dispatch.region -> (tensor<2x64x16xf32>) {
    %e = tensor.empty() : tensor<2x64x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
    %mm = linalg.batch_matmul ins(%p, %w : tensor<2x64x32xf32>, tensor<2x32x16xf32>) outs(%f : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
    flow.return %mm : tensor<2x64x16xf32>
  }
  return %y : tensor<2x64x16xf32>
}
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         flow.dispatch.region -> (tensor<2x64x32xf32, #iree_encoding.padding<[0, 0, ?]>>) {
// CHECK:           iree_encoding.unset_encoding %{{.+}} : tensor<2x64x32xf32, #iree_encoding.padding<[0, 0, ?]>> -> tensor<2x64x32xf32>
// CHECK:           linalg.batch_matmul

// -----

// A producer dispatch holding attention is not rebuilt: the padded layout's
// access pattern is not supported for it. The same matmul on a plain producer is padded.
#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
func.func @attention_producer(%q: tensor<4x64x32xf32>, %k: tensor<4x80x32xf32>, %v: tensor<4x80x32xf32>, %scale: f32, %w: tensor<32x64xf32>) -> (tensor<256x64xf32>, tensor<256x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %att = flow.dispatch.region -> (tensor<4x64x32xf32>) {
    %e = tensor.empty() : tensor<4x64x32xf32>
    %a = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]} ins(%q, %k, %v, %scale : tensor<4x64x32xf32>, tensor<4x80x32xf32>, tensor<4x80x32xf32>, f32) outs(%e : tensor<4x64x32xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<4x64x32xf32>
    flow.return %a : tensor<4x64x32xf32>
  }
  %flat = tensor.collapse_shape %att [[0, 1], [2]] : tensor<4x64x32xf32> into tensor<256x32xf32>
  %y = flow.dispatch.region -> (tensor<256x64xf32>) {
    %e = tensor.empty() : tensor<256x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x64xf32>) -> tensor<256x64xf32>
    %mm = linalg.matmul ins(%flat, %w : tensor<256x32xf32>, tensor<32x64xf32>) outs(%f : tensor<256x64xf32>) -> tensor<256x64xf32>
    flow.return %mm : tensor<256x64xf32>
  }
  %plain = flow.dispatch.region -> (tensor<4x64x32xf32>) {
    %e = tensor.empty() : tensor<4x64x32xf32>
    %f = linalg.fill ins(%scale : f32) outs(%e : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
    flow.return %f : tensor<4x64x32xf32>
  }
  %flat2 = tensor.collapse_shape %plain [[0, 1], [2]] : tensor<4x64x32xf32> into tensor<256x32xf32>
  %y2 = flow.dispatch.region -> (tensor<256x64xf32>) {
    %e = tensor.empty() : tensor<256x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x64xf32>) -> tensor<256x64xf32>
    %mm = linalg.matmul ins(%flat2, %w : tensor<256x32xf32>, tensor<32x64xf32>) outs(%f : tensor<256x64xf32>) -> tensor<256x64xf32>
    flow.return %mm : tensor<256x64xf32>
  }
  return %y, %y2 : tensor<256x64xf32>, tensor<256x64xf32>
}
// CHECK-LABEL: func.func @attention_producer(
// CHECK:         flow.dispatch.region -> (tensor<4x64x32xf32>) {
// CHECK:           iree_linalg_ext.attention
// CHECK:         tensor.collapse_shape
// CHECK:         flow.dispatch.region -> (tensor<256x64xf32>) {
// CHECK-NOT:       iree_encoding
// CHECK:           linalg.matmul
// CHECK:         flow.dispatch.region -> (tensor<256x32xf32, #iree_encoding.padding<[0, ?]>>) {
// CHECK:           tensor.collapse_shape
// CHECK:           iree_encoding.set_encoding
// CHECK:         flow.dispatch.region -> (tensor<256x64xf32>) {
// CHECK:           iree_encoding.unset_encoding
