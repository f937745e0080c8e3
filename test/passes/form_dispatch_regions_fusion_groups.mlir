// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13 aggressive-fusion=true}' --split-input-file | filecheck %s --check-prefix=AGG
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13 aggressive-fusion=true fuse-multi-use-producers=false}' --split-input-file | filecheck %s --check-prefix=NOMULTI
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=walkthrough aggressive-fusion=true}' --split-input-file | filecheck %s --check-prefix=WALK

// IREE 3.13's fusion groups: each member's loops are mapped to the root's outer parallel loops.

util.func public @transposed_consumer(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>) -> tensor<5x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%fill : tensor<4x5xf32>) -> tensor<4x5xf32>
  %et = tensor.empty() : tensor<5x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<4x5xf32>) outs(%et : tensor<5x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<5x4xf32>
  util.return %t : tensor<5x4xf32>
}

// IREE 3.13 maps the root's loops through the transposing consumer and fuses it;
// the walkthrough's IREE fuses only consumers that read the root along its loops.
// AGG-LABEL: util.func public @transposed_consumer
//       AGG:   %[[D:.+]] = flow.dispatch.region -> (tensor<5x4xf32>)
//       AGG:     %[[MM:.+]] = linalg.matmul
//       AGG:     %[[T:.+]] = linalg.generic
//  AGG-SAME:         ins(%[[MM]] :
//       AGG:     flow.return %[[T]]
//       AGG:   util.return %[[D]]
// NOMULTI-LABEL: util.func public @transposed_consumer
//       NOMULTI:   flow.dispatch.region -> (tensor<5x4xf32>)
//   NOMULTI-NOT:   flow.dispatch.region
// WALK-LABEL: util.func public @transposed_consumer
//       WALK:   %[[D0:.+]] = flow.dispatch.region -> (tensor<4x5xf32>)
//       WALK:     linalg.matmul
//       WALK:   flow.dispatch.region -> (tensor<5x4xf32>)
//       WALK:     linalg.generic
//  WALK-SAME:         ins(%[[D0]] :

// -----

util.func public @multi_use_producer(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%exp : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  util.return %sum, %neg : tensor<4xf32>, tensor<4x8xf32>
}

// A producer with two users joins the reduction's dispatch (fuse-multi-use-producers, the
// default) and is returned for its other user; with the option off it gets its own dispatch.
// AGG-LABEL: util.func public @multi_use_producer
//       AGG:   %[[D:.+]]:2 = flow.dispatch.region -> (tensor<4xf32>, tensor<4x8xf32>)
//       AGG:     %[[EXP:.+]] = linalg.generic
//       AGG:     %[[SUM:.+]] = linalg.generic
//  AGG-SAME:         ins(%[[EXP]] :
//       AGG:     flow.return %[[SUM]], %[[EXP]]
//       AGG:   %[[NEG:.+]] = flow.dispatch.region
//       AGG:     linalg.generic
//  AGG-SAME:         ins(%[[D]]#1 :
//       AGG:   util.return %[[D]]#0, %[[NEG]]
// NOMULTI-LABEL: util.func public @multi_use_producer
//       NOMULTI:   %[[EXP:.+]] = flow.dispatch.region -> (tensor<4x8xf32>)
//       NOMULTI:   flow.dispatch.region -> (tensor<4xf32>)
//  NOMULTI-NEXT:     linalg.generic
//  NOMULTI-SAME:         ins(%[[EXP]] :
//       NOMULTI:   flow.dispatch.region -> (tensor<4x8xf32>)
//  NOMULTI-NEXT:     linalg.generic
//  NOMULTI-SAME:         ins(%[[EXP]] :

// -----

util.func public @user_before_root_follows(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%exp : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %back = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  util.return %sum, %back : tensor<4xf32>, tensor<4x8xf32>
}

// The transpose reading the fused producer comes before the root: it moves after the new
// dispatch (which returns the producer), where its own consumer's dispatch takes it in.
// AGG-LABEL: util.func public @user_before_root_follows
//       AGG:   %[[D:.+]]:2 = flow.dispatch.region -> (tensor<4xf32>, tensor<4x8xf32>)
//       AGG:     flow.return
//       AGG:   %[[BACK:.+]] = flow.dispatch.region -> (tensor<4x8xf32>)
//       AGG:     %[[T:.+]] = linalg.generic
//  AGG-SAME:         ins(%[[D]]#1 :
//       AGG:     linalg.generic
//  AGG-SAME:         ins(%[[T]] :
//       AGG:   util.return %[[D]]#0, %[[BACK]]
// NOMULTI-LABEL: util.func public @user_before_root_follows
// NOMULTI-COUNT-3: flow.dispatch.region
// NOMULTI-NOT:     flow.dispatch.region
// WALK-LABEL: util.func public @user_before_root_follows
// WALK-COUNT-4: flow.dispatch.region
