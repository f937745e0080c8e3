// RUN: mini-iree-opt %s -p iree-dispatch-creation-hoist-encoding-ops --split-input-file | filecheck %s

#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map1, #map2, #map3]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map1, #map2, #map3]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map1, #map2, #map3]>
util.func public @hoist_matmul_encodings(%arg0: tensor<2x128x64xf32>, %arg1: tensor<2x11008x128xf32>) -> tensor<2x11008x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = flow.dispatch.region -> (tensor<2x11008x64xf32>) {
    %1 = iree_encoding.set_encoding %arg0 : tensor<2x128x64xf32> -> tensor<2x128x64xf32, #lhs>
    %2 = iree_encoding.set_encoding %arg1 : tensor<2x11008x128xf32> -> tensor<2x11008x128xf32, #rhs>
    %3 = tensor.empty() : tensor<2x11008x64xf32, #out>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x11008x64xf32, #out>) -> tensor<2x11008x64xf32, #out>
    %5 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%1, %2 : tensor<2x128x64xf32, #lhs>, tensor<2x11008x128xf32, #rhs>) outs(%4 : tensor<2x11008x64xf32, #out>) {
    ^bb0(%in: f32, %in_0: f32, %acc: f32):
      %6 = arith.mulf %in, %in_0 : f32
      %7 = arith.addf %6, %acc : f32
      linalg.yield %7 : f32
    } -> tensor<2x11008x64xf32, #out>
    %8 = iree_encoding.unset_encoding %5 : tensor<2x11008x64xf32, #out> -> tensor<2x11008x64xf32>
    flow.return %8 : tensor<2x11008x64xf32>
  }
  util.return %0 : tensor<2x11008x64xf32>
}

// A batch matmul written as a generic: both operand set_encoding ops leave.
// CHECK-LABEL: util.func public @hoist_matmul_encodings
// CHECK-SAME:    (%[[ARG0:.+]]: tensor<2x128x64xf32>, %[[ARG1:.+]]: tensor<2x11008x128xf32>)
// CHECK:         %[[SET0:.+]] = iree_encoding.set_encoding %[[ARG0]] : tensor<2x128x64xf32> -> tensor<2x128x64xf32, #encoding>
// CHECK-NEXT:    %[[SET1:.+]] = iree_encoding.set_encoding %[[ARG1]] : tensor<2x11008x128xf32> -> tensor<2x11008x128xf32, #encoding1>
// CHECK-NEXT:    %[[DISPATCH:.+]] = flow.dispatch.region -> (tensor<2x11008x64xf32>) {
// CHECK:           %[[MATMUL:.+]] = linalg.generic {{.*}} ins(%[[SET0]], %[[SET1]] :
// CHECK:           %[[UNSET:.+]] = iree_encoding.unset_encoding %[[MATMUL]] : tensor<2x11008x64xf32, #encoding2>
// CHECK-NEXT:      flow.return %[[UNSET]] : tensor<2x11008x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[DISPATCH]]

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bc = affine_map<(d0, d1, d2) -> (d0, d1)>
#m0 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#m1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#m2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#m0, #m1, #m2]>
util.func public @bubble_through_dequant(%arg0: tensor<2x11008x128xi8>, %arg1: tensor<2x11008xf32>, %arg2: tensor<2x11008xf32>) -> tensor<2x11008x128xf32, #rhs> {
  %0 = flow.dispatch.region -> (tensor<2x11008x128xf32, #rhs>) {
    %1 = tensor.empty() : tensor<2x11008x128xf32>
    %2 = linalg.generic {indexing_maps = [#id, #bc, #bc, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%arg0, %arg1, %arg2 : tensor<2x11008x128xi8>, tensor<2x11008xf32>, tensor<2x11008xf32>) outs(%1 : tensor<2x11008x128xf32>) {
    ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
      %3 = arith.extui %in : i8 to i32
      %4 = arith.uitofp %3 : i32 to f32
      %5 = arith.subf %4, %zero : f32
      %6 = arith.mulf %5, %scale : f32
      linalg.yield %6 : f32
    } -> tensor<2x11008x128xf32>
    %7 = iree_encoding.set_encoding %2 : tensor<2x11008x128xf32> -> tensor<2x11008x128xf32, #rhs>
    flow.return %7 : tensor<2x11008x128xf32, #rhs>
  }
  util.return %0 : tensor<2x11008x128xf32, #rhs>
}

// The set_encoding bubbles through the dequantization onto its three inputs;
// each records its own map in the RHS chain, then all three are hoisted.
// CHECK-DAG:   #[[$M1:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$BC:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$ENC:.+]] = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}, #[[$M1]], #{{.+}}]>
// CHECK-DAG:   #[[$ENC_ID:.+]] = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}, [#[[$M1]], #[[$ID]]], #{{.+}}]>
// CHECK-DAG:   #[[$ENC_BC:.+]] = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}, [#[[$M1]], #[[$BC]]], #{{.+}}]>
// CHECK-LABEL: util.func public @bubble_through_dequant
// CHECK-SAME:    (%[[ARG0:.+]]: tensor<2x11008x128xi8>, %[[ARG1:.+]]: tensor<2x11008xf32>, %[[ARG2:.+]]: tensor<2x11008xf32>)
// CHECK-NEXT:    %[[SET0:.+]] = iree_encoding.set_encoding %[[ARG0]] : tensor<2x11008x128xi8> -> tensor<2x11008x128xi8, #[[$ENC_ID]]>
// CHECK-NEXT:    %[[SET1:.+]] = iree_encoding.set_encoding %[[ARG1]] : tensor<2x11008xf32> -> tensor<2x11008xf32, #[[$ENC_BC]]>
// CHECK-NEXT:    %[[SET2:.+]] = iree_encoding.set_encoding %[[ARG2]] : tensor<2x11008xf32> -> tensor<2x11008xf32, #[[$ENC_BC]]>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[INIT:.+]] = tensor.empty() : tensor<2x11008x128xf32, #[[$ENC]]>
// CHECK-NEXT:      %[[DEQUANT:.+]] = linalg.generic {{.*}} ins(%[[SET0]], %[[SET1]], %[[SET2]] : {{.*}}) outs(%[[INIT]] : tensor<2x11008x128xf32, #[[$ENC]]>)
// CHECK:           arith.extui
// CHECK:         } -> tensor<2x11008x128xf32, #[[$ENC]]>
// CHECK-NEXT:      flow.return %[[DEQUANT]]

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bc = affine_map<(d0, d1, d2) -> (d1, d2)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]>
util.func public @bubble_through_broadcast(%arg0: tensor<?x128xf32>, %d: index) -> tensor<2x?x128xf32, #rhs> {
  %0 = flow.dispatch.region -> (tensor<2x?x128xf32, #rhs>{%d}) {
    %1 = tensor.empty(%d) : tensor<2x?x128xf32>
    %2 = linalg.generic {indexing_maps = [#bc, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%arg0 : tensor<?x128xf32>) outs(%1 : tensor<2x?x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x?x128xf32>
    %3 = iree_encoding.set_encoding %2 : tensor<2x?x128xf32> -> tensor<2x?x128xf32, #rhs>
    flow.return %3 : tensor<2x?x128xf32, #rhs>
  }
  util.return %0 : tensor<2x?x128xf32, #rhs>
}

// Through a broadcast with a dynamic size: the encoded init reuses %d.
// CHECK-DAG:   #[[$BMAP:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$ENC_B:.+]] = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}[#{{.+}}, #[[$BMAP]]]
// CHECK-LABEL: util.func public @bubble_through_broadcast
// CHECK-SAME:    (%[[ARG0:.+]]: tensor<?x128xf32>, %[[D:.+]]: index)
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[ARG0]] : tensor<?x128xf32> -> tensor<?x128xf32, #[[$ENC_B]]>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<2x?x128xf32, #encoding>
// CHECK-NEXT:      %[[BCAST:.+]] = linalg.generic {{.*}} ins(%[[SET]] : tensor<?x128xf32, #[[$ENC_B]]>) outs(%[[INIT]] :
// CHECK:           flow.return %[[BCAST]]

// -----

#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
#m0 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#m1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#m0, #m1, #m0]>
util.func public @bubble_through_transposing_extf(%arg0: tensor<2x64x128xf16>) -> tensor<64x128x2xf32, #rhs> {
  %0 = flow.dispatch.region -> (tensor<64x128x2xf32, #rhs>) {
    %1 = tensor.empty() : tensor<64x128x2xf32>
    %2 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%arg0 : tensor<2x64x128xf16>) outs(%1 : tensor<64x128x2xf32>) {
    ^bb0(%in: f16, %o: f32):
      %3 = arith.extf %in : f16 to f32
      linalg.yield %3 : f32
    } -> tensor<64x128x2xf32>
    %4 = iree_encoding.set_encoding %2 : tensor<64x128x2xf32> -> tensor<64x128x2xf32, #rhs>
    flow.return %4 : tensor<64x128x2xf32, #rhs>
  }
  util.return %0 : tensor<64x128x2xf32, #rhs>
}

// A transposing extf: the input map is composed with the inverse of the
// output permutation (d1, d2, d0), giving (d2, d0, d1).
// CHECK-DAG:   #[[$INV:.+]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-DAG:   #[[$ENC_T:.+]] = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}[#{{.+}}, #[[$INV]]]
// CHECK-LABEL: util.func public @bubble_through_transposing_extf
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %arg0 : tensor<2x64x128xf16> -> tensor<2x64x128xf16, #[[$ENC_T]]>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty() : tensor<64x128x2xf32, #encoding>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[SET]] :

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]>
util.func public @no_hoist_if_source_is_compute_op(%arg0: tensor<2x64x128xf32>) -> tensor<2x64x128xf32, #rhs> {
  %0 = flow.dispatch.region -> (tensor<2x64x128xf32, #rhs>) {
    %1 = tensor.empty() : tensor<2x64x128xf32>
    %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%arg0, %arg0 : tensor<2x64x128xf32>, tensor<2x64x128xf32>) outs(%1 : tensor<2x64x128xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %3 = arith.addf %in, %in_0 : f32
      linalg.yield %3 : f32
    } -> tensor<2x64x128xf32>
    %4 = iree_encoding.set_encoding %2 : tensor<2x64x128xf32> -> tensor<2x64x128xf32, #rhs>
    flow.return %4 : tensor<2x64x128xf32, #rhs>
  }
  util.return %0 : tensor<2x64x128xf32, #rhs>
}

// An add is neither a broadcast nor a dequant: its result is encoded in place.
// CHECK-LABEL: util.func public @no_hoist_if_source_is_compute_op
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[ADD:.+]] = linalg.generic
// CHECK:           %[[SET:.+]] = iree_encoding.set_encoding %[[ADD]]
// CHECK-NEXT:      flow.return %[[SET]]

// -----

#encoding = #iree_encoding.padding<[0, ?]>
util.func public @dont_hoist_padding_encoding() -> tensor<640x320xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<640x320xf32, #encoding>) {
    %1 = tensor.empty() : tensor<640x320xf32>
    %2 = iree_encoding.set_encoding %1 : tensor<640x320xf32> -> tensor<640x320xf32, #encoding>
    flow.return %2 : tensor<640x320xf32, #encoding>
  }
  util.return %0 : tensor<640x320xf32, #encoding>
}

// CHECK-LABEL: util.func public @dont_hoist_padding_encoding
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding
// CHECK-NEXT:      flow.return %[[SET]]

// -----

#encoding = #iree_encoding.testing<>
util.func private @get_tensor(tensor<f32, #encoding>) -> tensor<f32>
util.func public @dont_hoist_rank0_source(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = flow.dispatch.region -> (tensor<f32>) {
    %1 = iree_encoding.set_encoding %arg0 : tensor<f32> -> tensor<f32, #encoding>
    %2 = util.call @get_tensor(%1) : (tensor<f32, #encoding>) -> tensor<f32>
    flow.return %2 : tensor<f32>
  }
  util.return %0 : tensor<f32>
}

// CHECK-LABEL: util.func public @dont_hoist_rank0_source
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %arg0 : tensor<f32>
// CHECK-NEXT:      util.call @get_tensor(%[[SET]])

// -----

#encoding = #iree_encoding.testing<>
util.func private @get_tensor(tensor<640x320xf32, #encoding>) -> tensor<640x320xf32>
util.func public @hoist_constant_with_encoding() -> tensor<640x320xf32> {
  %0 = flow.dispatch.region -> (tensor<640x320xf32>) {
    %cst = arith.constant dense<1.0> : tensor<640x320xf32>
    %1 = iree_encoding.set_encoding %cst : tensor<640x320xf32> -> tensor<640x320xf32, #encoding>
    %2 = util.call @get_tensor(%1) : (tensor<640x320xf32, #encoding>) -> tensor<640x320xf32>
    flow.return %2 : tensor<640x320xf32>
  }
  util.return %0 : tensor<640x320xf32>
}

// The constant leaves with its set_encoding.
// CHECK-LABEL: util.func public @hoist_constant_with_encoding
// CHECK-NEXT:    %[[CST:.+]] = arith.constant dense<1.000000e+00> : tensor<640x320xf32>
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[CST]]
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      util.call @get_tensor(%[[SET]])

// -----

#encoding = #iree_encoding.testing<>
util.func private @get_tensor(tensor<640x320xf32, #encoding>) -> tensor<640x320xf32>
util.func public @hoist_flow_mappable_slice(%input: tensor<1024x320xf32>) -> tensor<640x320xf32> {
  %0 = flow.dispatch.region -> (tensor<640x320xf32>) {
    %1 = tensor.extract_slice %input[7, 0] [640, 320] [1, 1] : tensor<1024x320xf32> to tensor<640x320xf32>
    %2 = iree_encoding.set_encoding %1 : tensor<640x320xf32> -> tensor<640x320xf32, #encoding>
    %3 = util.call @get_tensor(%2) : (tensor<640x320xf32, #encoding>) -> tensor<640x320xf32>
    flow.return %3 : tensor<640x320xf32>
  }
  util.return %0 : tensor<640x320xf32>
}

// CHECK-LABEL: util.func public @hoist_flow_mappable_slice
// CHECK-NEXT:    %[[SLICE:.+]] = tensor.extract_slice %{{.+}}[7, 0] [640, 320] [1, 1]
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[SLICE]]
// CHECK-NEXT:    flow.dispatch.region

// -----

#encoding = #iree_encoding.testing<>
util.func private @get_tensor(tensor<12x100x64xf16, #encoding>) -> tensor<12x100x64xf16>
util.func public @no_hoist_non_contiguous_slice(%input: tensor<1x12x2080x64xf16>) -> tensor<12x100x64xf16> {
  %0 = flow.dispatch.region -> (tensor<12x100x64xf16>) {
    %1 = tensor.extract_slice %input[0, 0, 0, 0] [1, 12, 100, 64] [1, 1, 1, 1] : tensor<1x12x2080x64xf16> to tensor<12x100x64xf16>
    %2 = iree_encoding.set_encoding %1 : tensor<12x100x64xf16> -> tensor<12x100x64xf16, #encoding>
    %3 = util.call @get_tensor(%2) : (tensor<12x100x64xf16, #encoding>) -> tensor<12x100x64xf16>
    flow.return %3 : tensor<12x100x64xf16>
  }
  util.return %0 : tensor<12x100x64xf16>
}

// Dim 2 is cut while dim 1 has 12 rows: not one contiguous range, so it stays.
// CHECK-LABEL: util.func public @no_hoist_non_contiguous_slice
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[SLICE:.+]] = tensor.extract_slice
// CHECK-NEXT:      iree_encoding.set_encoding %[[SLICE]]

// -----

#encoding = #iree_encoding.testing<>
util.func public @hoist_yielded_set_encoding(%arg0: tensor<?x320xf32>, %d: index) -> (tensor<?x320xf32, #encoding>, tensor<?x320xf32>) {
  %0:2 = flow.dispatch.region -> (tensor<?x320xf32, #encoding>{%d}, tensor<?x320xf32>{%d}) {
    %1 = iree_encoding.set_encoding %arg0 : tensor<?x320xf32> -> tensor<?x320xf32, #encoding>
    %2 = iree_encoding.unset_encoding %1 : tensor<?x320xf32, #encoding> -> tensor<?x320xf32>{%d}
    flow.return %1, %2 : tensor<?x320xf32, #encoding>, tensor<?x320xf32>
  }
  util.return %0#0, %0#1 : tensor<?x320xf32, #encoding>, tensor<?x320xf32>
}

// The region returned the set_encoding result: the hoisted value replaces
// that result and the region is rebuilt without it.
// CHECK-LABEL: util.func public @hoist_yielded_set_encoding
// CHECK-SAME:    (%[[ARG0:.+]]: tensor<?x320xf32>, %[[D:.+]]: index)
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[ARG0]]
// CHECK-NEXT:    %[[DISPATCH:.+]] = flow.dispatch.region -> (tensor<?x320xf32>{%[[D]]}) {
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %[[SET]]
// CHECK-NEXT:      flow.return %[[UNSET]] : tensor<?x320xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[SET]], %[[DISPATCH]]

// -----

#map3 = affine_map<(d0, d1) -> (d1, d0)>
#map4 = affine_map<(d0, d1) -> ()>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>
util.func public @sink_through_transposing_consumer(%arg0: tensor<?x64xf32, #encoding>, %arg1: tensor<f32>, %d: index) -> tensor<64x?xbf16> {
  %0 = flow.dispatch.region -> (tensor<64x?xbf16>{%d}) {
    %1 = iree_encoding.unset_encoding %arg0 : tensor<?x64xf32, #encoding> -> tensor<?x64xf32>{%d}
    %2 = tensor.empty(%d) : tensor<64x?xbf16>
    %3 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%1, %arg1 : tensor<?x64xf32>, tensor<f32>) outs(%2 : tensor<64x?xbf16>) {
    ^bb0(%in: f32, %in_0: f32, %out: bf16):
      %4 = arith.mulf %in, %in_0 : f32
      %5 = arith.truncf %4 : f32 to bf16
      linalg.yield %5 : bf16
    } -> tensor<64x?xbf16>
    flow.return %3 : tensor<64x?xbf16>
  }
  util.return %0 : tensor<64x?xbf16>
}

// The consumer reads the encoded tensor transposed: the chains of the other
// operands start with the inverse of that map, then their own map; the
// rank-0 operand gets a set_encoding (right where the unset_encoding was, as
// IREE creates it) that is not hoisted.
// CHECK-DAG:   #[[$MAP2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$S:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG:   #[[$ENC_OUT:.+]] = #iree_encoding.encoding<operand_index = 2 : index, {{.*}}, [#[[$MAP2]], #[[$T]]]]>
// CHECK-DAG:   #[[$ENC_S:.+]] = #iree_encoding.encoding<operand_index = 2 : index, {{.*}}, [#[[$MAP2]], #[[$T]], #[[$S]]]]>
// CHECK-LABEL: util.func public @sink_through_transposing_consumer
// CHECK-SAME:    (%[[ARG0:.+]]: tensor<?x64xf32, #encoding>, %[[ARG1:.+]]: tensor<f32>, %[[D:.+]]: index)
// CHECK-NEXT:    flow.dispatch.region -> (tensor<64x?xbf16>{%[[D]]}) {
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[ARG1]] : tensor<f32> -> tensor<f32, #[[$ENC_S]]>
// CHECK-NEXT:      %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<64x?xbf16, #[[$ENC_OUT]]>
// CHECK-NEXT:      %[[GEN:.+]] = linalg.generic {{.*}} ins(%[[ARG0]], %[[SET]] : tensor<?x64xf32, #encoding>, tensor<f32, #[[$ENC_S]]>) outs(%[[INIT]] : tensor<64x?xbf16, #[[$ENC_OUT]]>)
// CHECK:         } -> tensor<64x?xbf16, #[[$ENC_OUT]]>
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %[[GEN]] : tensor<64x?xbf16, #[[$ENC_OUT]]> -> tensor<64x?xbf16>{%[[D]]}
// CHECK-NEXT:      flow.return %[[UNSET]]

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>
util.func public @no_sink_with_two_users(%arg0: tensor<?x64xf32, #encoding>, %d: index) -> (tensor<?x64xf32>, tensor<?x64xf32>) {
  %0:2 = flow.dispatch.region -> (tensor<?x64xf32>{%d}, tensor<?x64xf32>{%d}) {
    %1 = iree_encoding.unset_encoding %arg0 : tensor<?x64xf32, #encoding> -> tensor<?x64xf32>{%d}
    %2 = tensor.empty(%d) : tensor<?x64xf32>
    %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<?x64xf32>) outs(%2 : tensor<?x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.mulf %in, %in : f32
      linalg.yield %5 : f32
    } -> tensor<?x64xf32>
    %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<?x64xf32>) outs(%2 : tensor<?x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %in, %in : f32
      linalg.yield %5 : f32
    } -> tensor<?x64xf32>
    flow.return %3, %4 : tensor<?x64xf32>, tensor<?x64xf32>
  }
  util.return %0#0, %0#1 : tensor<?x64xf32>, tensor<?x64xf32>
}

// CHECK-LABEL: util.func public @no_sink_with_two_users
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %arg0
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[UNSET]] : tensor<?x64xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[UNSET]] : tensor<?x64xf32>)
// CHECK:           flow.return %{{.+}}, %{{.+}} : tensor<?x64xf32>, tensor<?x64xf32>

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>
util.func public @no_sink_into_reduction(%arg0: tensor<?x64xf32, #encoding>, %d: index) -> tensor<?xf32> {
  %0 = flow.dispatch.region -> (tensor<?xf32>{%d}) {
    %1 = iree_encoding.unset_encoding %arg0 : tensor<?x64xf32, #encoding> -> tensor<?x64xf32>{%d}
    %2 = tensor.empty(%d) : tensor<?xf32>
    %3 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<?x64xf32>) outs(%2 : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<?xf32>
    flow.return %3 : tensor<?xf32>
  }
  util.return %0 : tensor<?xf32>
}

// CHECK-LABEL: util.func public @no_sink_into_reduction
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %arg0
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[UNSET]] : tensor<?x64xf32>)

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>
util.func public @no_sink_through_init(%arg0: tensor<?x64xf32>, %d: index) -> tensor<?x64xf32> {
  %0 = flow.dispatch.region -> (tensor<?x64xf32>{%d}) {
    %1 = tensor.empty(%d) : tensor<?x64xf32, #encoding>
    %2 = iree_encoding.unset_encoding %1 : tensor<?x64xf32, #encoding> -> tensor<?x64xf32>{%d}
    %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x64xf32>) outs(%2 : tensor<?x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<?x64xf32>
    flow.return %3 : tensor<?x64xf32>
  }
  util.return %0 : tensor<?x64xf32>
}

// CHECK-LABEL: util.func public @no_sink_through_init
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding
// CHECK-NEXT:      linalg.generic {{.*}} outs(%[[UNSET]] : tensor<?x64xf32>)

// -----

#in = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [2, 2, 2]>
util.func public @no_sink_into_broadcast(%arg0: tensor<2x2xf32, #encoding>) -> tensor<2x2x2xf32> {
  %0 = flow.dispatch.region -> (tensor<2x2x2xf32>) {
    %1 = iree_encoding.unset_encoding %arg0 : tensor<2x2xf32, #encoding> -> tensor<2x2xf32>
    %2 = tensor.empty() : tensor<2x2x2xf32>
    %3 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<2x2xf32>) outs(%2 : tensor<2x2x2xf32>) {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    } -> tensor<2x2x2xf32>
    flow.return %3 : tensor<2x2x2xf32>
  }
  util.return %0 : tensor<2x2x2xf32>
}

// The consumer broadcasts the encoded 2-D tensor to 3-D: its map has no
// inverse, so the unset_encoding stays.
// CHECK-LABEL: util.func public @no_sink_into_broadcast
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %arg0
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[UNSET]] : tensor<2x2xf32>)

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>
util.func public @no_sink_outside_dispatch(%arg0: tensor<?x64xf32, #encoding>, %d: index) -> tensor<?x64xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x64xf32, #encoding> -> tensor<?x64xf32>{%d}
  %1 = tensor.empty(%d) : tensor<?x64xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<?x64xf32>) outs(%1 : tensor<?x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = arith.mulf %in, %in : f32
    linalg.yield %3 : f32
  } -> tensor<?x64xf32>
  util.return %2 : tensor<?x64xf32>
}

// CHECK-LABEL: util.func public @no_sink_outside_dispatch
// CHECK-NEXT:    %[[UNSET:.+]] = iree_encoding.unset_encoding %arg0
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[UNSET]] : tensor<?x64xf32>)

// -----

// A set_encoding whose source is computed in the dispatch still leaves when
// that source is a constant expression (here from an immutable global) that
// would become a global: the load and the compute op leave with it. From a
// mutable global nothing moves.

#encoding = #iree_encoding.testing<>
#id = affine_map<(d0, d1) -> (d0, d1)>
util.global private @scale : tensor<16x8xf32>
util.global private mutable @state : tensor<16x8xf32>
util.func private @consume(tensor<16x8xf32, #encoding>) -> tensor<16x8xf32>
util.func public @hoist_const_expr_source() -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = flow.dispatch.region -> (tensor<16x8xf32>) {
    %w = util.global.load @scale : tensor<16x8xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<16x8xf32>
    %set = iree_encoding.set_encoding %neg : tensor<16x8xf32> -> tensor<16x8xf32, #encoding>
    %r = util.call @consume(%set) : (tensor<16x8xf32, #encoding>) -> tensor<16x8xf32>
    flow.return %r : tensor<16x8xf32>
  }
  util.return %0 : tensor<16x8xf32>
}
util.func public @no_hoist_from_mutable_global() -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = flow.dispatch.region -> (tensor<16x8xf32>) {
    %w = util.global.load @state : tensor<16x8xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<16x8xf32>
    %set = iree_encoding.set_encoding %neg : tensor<16x8xf32> -> tensor<16x8xf32, #encoding>
    %r = util.call @consume(%set) : (tensor<16x8xf32, #encoding>) -> tensor<16x8xf32>
    flow.return %r : tensor<16x8xf32>
  }
  util.return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: util.func public @hoist_const_expr_source()
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT:    %[[W:.+]] = util.global.load @scale
// CHECK-NEXT:    %[[NEG:.+]] = linalg.generic {{.*}} ins(%[[W]] : tensor<16x8xf32>) outs(%[[E]] : tensor<16x8xf32>)
// CHECK:         %[[SET:.+]] = iree_encoding.set_encoding %[[NEG]]
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      util.call @consume(%[[SET]])
// CHECK-LABEL: util.func public @no_hoist_from_mutable_global()
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      util.global.load @state
// CHECK-NEXT:      linalg.generic
// CHECK:           iree_encoding.set_encoding
// CHECK-NEXT:      util.call @consume

// -----

// The encoding dims are computed in the dispatch by an affine.apply: it leaves
// with the set_encodings that use it (what it reads must be hoistable in turn).

#map_lhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map_rhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map_out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map_lhs, #map_rhs, #map_out], iteration_sizes = [2, ?, 16, 8]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map_lhs, #map_rhs, #map_out], iteration_sizes = [2, ?, 16, 8]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map_lhs, #map_rhs, #map_out], iteration_sizes = [2, ?, 16, 8]>
util.func public @encoding_dims_computed_in_dispatch(%a: tensor<2x8x16xf32>, %b: tensor<2x32x8xf32>, %batch: index) -> tensor<2x32x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = flow.dispatch.region -> (tensor<2x32x16xf32>) {
    %m = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%batch]
    %l = iree_encoding.set_encoding %a encoding_dims{%m} : tensor<2x8x16xf32> -> tensor<2x8x16xf32, #lhs>
    %r = iree_encoding.set_encoding %b encoding_dims{%m} : tensor<2x32x8xf32> -> tensor<2x32x8xf32, #rhs>
    %e = tensor.empty() : tensor<2x32x16xf32, #out>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x32x16xf32, #out>) -> tensor<2x32x16xf32, #out>
    %mm = linalg.generic {indexing_maps = [#map_lhs, #map_rhs, #map_out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%l, %r : tensor<2x8x16xf32, #lhs>, tensor<2x32x8xf32, #rhs>) outs(%f : tensor<2x32x16xf32, #out>) {
    ^bb0(%in: f32, %in_0: f32, %acc: f32):
      %p = arith.mulf %in, %in_0 : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32
    } -> tensor<2x32x16xf32, #out>
    %u = iree_encoding.unset_encoding %mm encoding_dims{%m} : tensor<2x32x16xf32, #out> -> tensor<2x32x16xf32>
    flow.return %u : tensor<2x32x16xf32>
  }
  util.return %0 : tensor<2x32x16xf32>
}
// CHECK-LABEL: @encoding_dims_computed_in_dispatch(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<2x8x16xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<2x32x8xf32>, %[[BATCH:[a-zA-Z0-9]+]]: index
// CHECK:         %[[M:.+]] = affine.apply #{{.+}}()[%[[BATCH]]]
// CHECK-NEXT:    %[[L:.+]] = iree_encoding.set_encoding %[[A]] encoding_dims{%[[M]]}
// CHECK-NEXT:    %[[R:.+]] = iree_encoding.set_encoding %[[B]] encoding_dims{%[[M]]}
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NOT:       affine.apply
// CHECK:           linalg.generic {{.+}} ins(%[[L]], %[[R]] :
// CHECK:           iree_encoding.unset_encoding %{{.+}} encoding_dims{%[[M]]}
