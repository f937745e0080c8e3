// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13}' | filecheck %s
// RUN: mini-iree-opt %s | filecheck %s --check-prefix=ROUNDTRIP

// The unpacked sizes are products of two symbols (a semi-affine map, which MLIR keeps
// and xDSL 0.74 cannot build by itself): they parse, print back, and the unpack fuses
// with its elementwise consumer.
// (%folded_dim1 is unused: it only shows a product inside a sum.)

util.func public @unpack_elementwise_fusion(%arg0: tensor<?x?x?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %arg0, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %arg0, %c3 : tensor<?x?x?x?xf32>
  %folded_dim0 = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%d0, %d2]
  %folded_dim1 = affine.apply affine_map<()[s0, s1] -> (s0 * s1 + s1)>()[%d1, %d3]
  %dest = tensor.empty(%folded_dim0, %folded_dim0) : tensor<?x?xf32>
  %0 = linalg.unpack %arg0 inner_dims_pos = [0, 1] inner_tiles = [%d2, %d3] into %dest : tensor<?x?x?x?xf32> -> tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<?x?xf32>) outs(%dest : tensor<?x?xf32>) {
    ^bb0(%b0 : f32, %b2 : f32):
      %2 = arith.addf %b0, %b0 : f32
      linalg.yield %2 : f32
    } -> tensor<?x?xf32>
  util.return %1 : tensor<?x?xf32>
}

// ROUNDTRIP-DAG: #[[PRODUCT:.+]] = affine_map<()[s0, s1] -> (s0 * s1)>
// ROUNDTRIP-DAG: #[[PRODUCT_PLUS:.+]] = affine_map<()[s0, s1] -> (s0 * s1 + s1)>
//     ROUNDTRIP: affine.apply #[[PRODUCT]]()
//     ROUNDTRIP: affine.apply #[[PRODUCT_PLUS]]()

// CHECK-LABEL: util.func public @unpack_elementwise_fusion
//       CHECK:   %[[SIZE:.+]] = affine.apply
//       CHECK:   %[[DISPATCH:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[SIZE]], %[[SIZE]]})
//       CHECK:     %[[UNPACK:.+]] = linalg.unpack
//       CHECK:     %[[GENERIC:.+]] = linalg.generic
//  CHECK-SAME:         ins(%[[UNPACK]] :
//       CHECK:     flow.return %[[GENERIC]]
//       CHECK:   util.return %[[DISPATCH]]
