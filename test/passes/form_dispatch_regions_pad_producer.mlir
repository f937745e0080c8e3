// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{fuse-pad-with-producers}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13 fuse-pad-with-producers}' --split-input-file | filecheck %s

// A pad fused with the generic it pads returns a tensor whose sizes are the generic's plus
// the padding; the generic is in the region, so its sizes come from its init (defined
// before the region), not from a tensor.dim of the generic itself.

util.func public @pad_of_fused_generic(%x: tensor<?x4xf32>, %h: index) -> tensor<?x6xf32> {
  %cst = arith.constant 1.5 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %p = tensor.pad %g low[1, 0] high[%h, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  util.return %p : tensor<?x6xf32>
}

// CHECK-LABEL: util.func public @pad_of_fused_generic
//  CHECK-SAME:     %[[X:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[H:[a-zA-Z0-9_]+]]: index
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]]
//       CHECK:   %[[LOW:.+]] = arith.addi %[[N]], %{{.+}} : index
//       CHECK:   %[[SIZE:.+]] = arith.addi %[[LOW]], %[[H]] : index
//       CHECK:   %[[D:.+]] = flow.dispatch.region -> (tensor<?x6xf32>{%[[SIZE]]})
//       CHECK:     %[[G:.+]] = linalg.generic
//       CHECK:     %[[P:.+]] = tensor.pad %[[G]]
//       CHECK:     flow.return %[[P]]
//       CHECK:   util.return %[[D]]
