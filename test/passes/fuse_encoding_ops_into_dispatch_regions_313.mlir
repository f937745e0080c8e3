// RUN: mini-iree-opt %s --iree-era=3.13 -p iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass | filecheck %s

// IREE 3.13 no longer runs CSE before fusing: two identical set_encoding ops
// of one dispatch result are two users of it, so neither moves into the region
// (the output equals iree-opt 3.13's).

#encoding = #iree_encoding.testing<>
util.func public @identical_set_encodings_stay(%a: tensor<?x8xf32>, %d: index) -> (tensor<?x8xf32, #encoding>, tensor<?x8xf32, #encoding>) {
  %0 = tensor.empty(%d) : tensor<?x8xf32>
  %1 = flow.dispatch.region -> (tensor<?x8xf32>{%d}) {
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x8xf32>) outs(%0 : tensor<?x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<?x8xf32>
    flow.return %2 : tensor<?x8xf32>
  }
  %3 = iree_encoding.set_encoding %1 : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
  %4 = iree_encoding.set_encoding %1 : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
  util.return %3, %4 : tensor<?x8xf32, #encoding>, tensor<?x8xf32, #encoding>
}

// CHECK-LABEL: util.func public @identical_set_encodings_stay(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<?x8xf32>{%{{.+}}}) {
// CHECK-NOT:       iree_encoding.set_encoding
// CHECK:           flow.return %{{.+}} : tensor<?x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S0:.+]] = iree_encoding.set_encoding %[[R]]
// CHECK-NEXT:    %[[S1:.+]] = iree_encoding.set_encoding %[[R]]
// CHECK-NEXT:    util.return %[[S0]], %[[S1]]
