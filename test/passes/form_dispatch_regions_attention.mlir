// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13 aggressive-fusion=true}' | filecheck %s

// IREE 3.13 maps an attention's loops like a linalg op's (LinalgFusionOpInterface): the
// elementwise op reading its result joins its dispatch; the producers of its operands do
// not (IREE does not fuse producers into attention yet). (No interpreter test: mini-iree's
// interpreter does not run iree_linalg_ext.attention.)

util.func public @attention_consumer(%q: tensor<?x?x?xf16>, %k: tensor<?x?x?xf16>, %v: tensor<?x?x?xf16>, %scale: f16, %out: tensor<?x?x?xf16>) -> tensor<?x?x?xf16> {
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<?x?x?xf16>) outs(%out : tensor<?x?x?xf16>) {
  ^bb0(%in: f16, %o: f16):
    %m = arith.mulf %in, %in : f16
    linalg.yield %m : f16
  } -> tensor<?x?x?xf16>
  %a = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]} ins(%sq, %k, %v, %scale : tensor<?x?x?xf16>, tensor<?x?x?xf16>, tensor<?x?x?xf16>, f16) outs(%out : tensor<?x?x?xf16>) {
  ^bb0(%s: f16):
    iree_linalg_ext.yield %s : f16
  } -> tensor<?x?x?xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<?x?x?xf16>) outs(%out : tensor<?x?x?xf16>) {
  ^bb0(%in: f16, %o: f16):
    %m = arith.mulf %in, %in : f16
    linalg.yield %m : f16
  } -> tensor<?x?x?xf16>
  util.return %r : tensor<?x?x?xf16>
}

// CHECK-LABEL: util.func public @attention_consumer
//       CHECK:   %[[SQ:.+]] = flow.dispatch.region
//  CHECK-NEXT:     linalg.generic
//       CHECK:   %[[D:.+]] = flow.dispatch.region
//  CHECK-NEXT:     %[[A:.+]] = iree_linalg_ext.attention
//  CHECK-SAME:         ins(%[[SQ]],
//       CHECK:     %[[R:.+]] = linalg.generic
//  CHECK-SAME:         ins(%[[A]] :
//       CHECK:     flow.return %[[R]]
//       CHECK:   util.return %[[D]]
