// RUN: mini-iree-opt %s -p iree-dispatch-creation-elementwise-op-fusion --split-input-file | filecheck %s

// A broadcast feeding a contraction written as a generic is a copy: it always
// fuses, and the contraction reads the vector through the composed map (IREE
// names the dispatch `matvec_like`).

func.func @broadcast_into_contraction(%v: tensor<?xi8>, %b: tensor<?x?xi8>, %m: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %k = tensor.dim %v, %c0 : tensor<?xi8>
  %n = tensor.dim %b, %c0 : tensor<?x?xi8>
  %e = tensor.empty(%m, %k) : tensor<?x?xi8>
  %bc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<?xi8>) outs(%e : tensor<?x?xi8>) {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  } -> tensor<?x?xi8>
  %zero = arith.constant 0 : i32
  %e2 = tensor.empty(%m, %n) : tensor<?x?xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e2 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%bc, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%acc : tensor<?x?xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

// CHECK-DAG:   #[[VEC:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG:   #[[RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast_into_contraction(
// CHECK-SAME:      %[[V:[^:]+]]: tensor<?xi8>, %[[B:[^:]+]]: tensor<?x?xi8>
// CHECK-NOT:     tensor<?x?xi8>) outs
// CHECK:         %[[ACC:.+]] = linalg.fill
// CHECK:         linalg.generic {indexing_maps = [#[[VEC]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[V]], %[[B]] : tensor<?xi8>, tensor<?x?xi8>) outs(%[[ACC]] : tensor<?x?xi32>)
// CHECK-NEXT:    ^bb0(%{{.+}}: i8, %{{.+}}: i8, %{{.+}}: i32):
// CHECK-NEXT:      arith.extsi
// CHECK-NEXT:      arith.extsi
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      linalg.yield

// -----

// An elementwise chain becomes one op. The producer's input and the
// consumer's other input are the same tensor read the same way: one operand.

func.func @elementwise_chain(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sq, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %sum : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @elementwise_chain(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x8xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.+]] = linalg.generic {{.+}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[M]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]

// -----

// A producer with two users is computed once: it does not fuse (IREE's rule).

func.func @two_users_not_fused(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %abs = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%neg : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.absf %x : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %neg, %abs : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @two_users_not_fused(
// CHECK:         %[[NEG:.+]] = linalg.generic
// CHECK:           arith.negf
// CHECK:         %[[ABS:.+]] = linalg.generic {{.+}} ins(%[[NEG]] : tensor<8xf32>)
// CHECK:           math.absf
// CHECK:         return %[[NEG]], %[[ABS]]

// -----

// A reduction reading a producer through a broadcast would recompute it per
// reduced element: not fused. A named consumer is left alone.

func.func @broadcast_into_reduction_not_fused(%a: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.exp %x : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %mm = linalg.matmul ins(%sq, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %red, %mm : tensor<8xf32>, tensor<8x8xf32>
}

// CHECK-LABEL: func.func @broadcast_into_reduction_not_fused(
// CHECK:         %[[EX:.+]] = linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic {{.+}} ins(%[[EX]] : tensor<8xf32>)
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.matmul ins(%[[SQ]], %{{.+}} :

// -----

// The clean-ups: a fill input becomes its scalar, a splat constant input an
// `arith.constant`, and an `outs` the body never reads a `tensor.empty`.

func.func @fill_splat_and_outs(%a: tensor<?x4xf32>, %init: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %two = arith.constant 2.000000e+00 : f32
  %e = tensor.empty(%d) : tensor<?x4xf32>
  %f = linalg.fill ins(%two : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %splat = arith.constant dense<3.000000e+00> : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %f, %splat : tensor<?x4xf32>, tensor<?x4xf32>, tensor<4xf32>) outs(%init : tensor<?x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @fill_splat_and_outs(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<?x4xf32>, %[[INIT:[^:]+]]: tensor<?x4xf32>)
// CHECK-DAG:     %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[THREE:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-DAG:     %[[D:.+]] = tensor.dim %[[INIT]], %{{.+}} : tensor<?x4xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK:         linalg.generic {{.+}} ins(%[[A]] : tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[X]], %[[TWO]] : f32
// CHECK-NEXT:      arith.addf %[[M]], %[[THREE]] : f32

// -----

// Inside a dispatch region nothing fuses (the default `intra-dispatch=false`).

func.func @inside_dispatch_left_alone(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = flow.dispatch.region -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.negf %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    flow.return %m : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @inside_dispatch_left_alone(
// CHECK:         flow.dispatch.region
// CHECK:           arith.negf
// CHECK:           linalg.yield
// CHECK:         linalg.generic
// CHECK:           arith.mulf

// -----

// A transposing producer that reads its loop indices: the fused op reads them
// in its own loops (the producer's d0 is the consumer's d1).

func.func @index_producer_transposed(%a: tensor<3x5xindex>) -> tensor<3x5xindex> {
  %e = tensor.empty() : tensor<5x3xindex>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<5x3xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %t = arith.muli %i, %c10 : index
    %s = arith.addi %t, %j : index
    linalg.yield %s : index
  } -> tensor<5x3xindex>
  %e2 = tensor.empty() : tensor<3x5xindex>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%iota, %a : tensor<5x3xindex>, tensor<3x5xindex>) outs(%e2 : tensor<3x5xindex>) {
  ^bb0(%x: index, %y: index, %o: index):
    %s = arith.addi %x, %y : index
    linalg.yield %s : index
  } -> tensor<3x5xindex>
  return %r : tensor<3x5xindex>
}

// CHECK-LABEL: func.func @index_producer_transposed(
// CHECK:         linalg.generic {{.+}} ins(%{{.+}} : tensor<3x5xindex>)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      %[[D0:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D1:.+]] = linalg.index 1 : index
// CHECK:           arith.muli %[[D1]],
// CHECK:           arith.addi %{{.+}}, %[[D0]] : index
// CHECK-NOT:     linalg.generic
