// RUN: mini-iree-opt %s -p iree-dispatch-creation-collapse-dimensions --split-input-file | filecheck %s

// Two batch loops every map reads together become one: the operands are
// collapsed before the dispatch, which returns the collapsed result, expanded
// back after it.

util.func public @batch_dims_collapse(%a: tensor<2x3x4x5xf32>, %b: tensor<2x3x5x6xf32>, %c: tensor<2x3x4x6xf32>) -> tensor<2x3x4x6xf32> {
  %0 = flow.dispatch.region -> (tensor<2x3x4x6xf32>) {
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>) outs(%c : tensor<2x3x4x6xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %m = arith.mulf %x, %y : f32
      %s = arith.addf %m, %acc : f32
      linalg.yield %s : f32
    } -> tensor<2x3x4x6xf32>
    flow.return %1 : tensor<2x3x4x6xf32>
  }
  util.return %0 : tensor<2x3x4x6xf32>
}

// CHECK-DAG:   #[[LHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[RHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: util.func public @batch_dims_collapse(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<2x3x4x5xf32>, %[[B:[^:]+]]: tensor<2x3x5x6xf32>, %[[C:[^:]+]]: tensor<2x3x4x6xf32>)
// CHECK-NEXT:    %[[CA:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
// CHECK-NEXT:    %[[CB:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x5x6xf32> into tensor<6x5x6xf32>
// CHECK-NEXT:    %[[CC:.+]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x4x6xf32> into tensor<6x4x6xf32>
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<6x4x6xf32>) {
// CHECK-NEXT:      %[[G:.+]] = linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[CA]], %[[CB]] : tensor<6x4x5xf32>, tensor<6x5x6xf32>) outs(%[[CC]] : tensor<6x4x6xf32>)
// CHECK:           flow.return %[[G]] : tensor<6x4x6xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[E:.+]] = tensor.expand_shape %[[R]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 4, 6] : tensor<6x4x6xf32> into tensor<2x3x4x6xf32>
// CHECK-NEXT:    util.return %[[E]]

// -----

// Two reduction loops become one K; parallel and reduction loops never mix.

util.func public @reduction_dims_collapse(%a: tensor<4x8x2xf32>, %b: tensor<8x2x6xf32>, %c: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = flow.dispatch.region -> (tensor<4x6xf32>) {
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b : tensor<4x8x2xf32>, tensor<8x2x6xf32>) outs(%c : tensor<4x6xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %m = arith.mulf %x, %y : f32
      %s = arith.addf %m, %acc : f32
      linalg.yield %s : f32
    } -> tensor<4x6xf32>
    flow.return %1 : tensor<4x6xf32>
  }
  util.return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: util.func public @reduction_dims_collapse(
// CHECK:         tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : tensor<4x8x2xf32> into tensor<4x16xf32>
// CHECK:         tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<8x2x6xf32> into tensor<16x6xf32>
// CHECK:         flow.dispatch.region -> (tensor<4x6xf32>) {
// CHECK-NEXT:      linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:        outs(%{{.+}} : tensor<4x6xf32>)
// CHECK-NOT:     tensor.expand_shape

// -----

// Dynamic sizes: the dispatch's collapsed size is the product of the sizes it
// had; a fill of a tensor.empty in the dispatch becomes a fill of a collapsed
// tensor.empty.

util.func public @dynamic_with_fill(%a: tensor<?x4x?xf32>, %d0: index, %d2: index) -> tensor<?x4x?xf32> {
  %0 = flow.dispatch.region -> (tensor<?x4x?xf32>{%d0, %d2}) {
    %cst = arith.constant 1.000000e+00 : f32
    %e = tensor.empty(%d0, %d2) : tensor<?x4x?xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<?x4x?xf32>) outs(%f : tensor<?x4x?xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    } -> tensor<?x4x?xf32>
    flow.return %1 : tensor<?x4x?xf32>
  }
  util.return %0 : tensor<?x4x?xf32>
}

// CHECK-LABEL: util.func public @dynamic_with_fill(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<?x4x?xf32>, %[[D0:[^:]+]]: index, %[[D2:[^:]+]]: index)
// CHECK:         %[[CA:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1, 2]] : tensor<?x4x?xf32> into tensor<?xf32>
// CHECK:         %[[P:.+]] = arith.muli %[[D0]], %[[D2]] : index
// CHECK:         %[[N:.+]] = arith.muli %[[P]], %{{.+}} : index
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<?xf32>{%[[N]]}) {
// CHECK:           %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?xf32>
// CHECK-NEXT:      %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[CA]] : tensor<?xf32>) outs(%[[F]] : tensor<?xf32>)
// CHECK:         tensor.expand_shape %[[R]] {{\[}}[0, 1, 2]] output_shape [%[[D0]], 4, %[[D2]]] : tensor<?xf32> into tensor<?x4x?xf32>

// -----

// A body reading linalg.index gets the collapsed loop's index split back.

util.func public @index_delinearized() -> tensor<3x5xindex> {
  %0 = flow.dispatch.region -> (tensor<3x5xindex>) {
    %e = tensor.empty() : tensor<3x5xindex>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<3x5xindex>) {
    ^bb0(%o: index):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %s = arith.subi %i, %j : index
      linalg.yield %s : index
    } -> tensor<3x5xindex>
    flow.return %1 : tensor<3x5xindex>
  }
  util.return %0 : tensor<3x5xindex>
}

// CHECK-LABEL: util.func public @index_delinearized(
// CHECK:         flow.dispatch.region -> (tensor<15xindex>) {
// CHECK:           linalg.generic {{.+}} iterator_types = ["parallel"]
// CHECK:             %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:        %[[C5:.+]] = arith.constant 5 : index
// CHECK-NEXT:        %[[INNER:.+]] = arith.remsi %[[I]], %[[C5]] : index
// CHECK-NEXT:        %[[OUTER:.+]] = arith.divsi %[[I]], %[[C5]] : index
// CHECK-NEXT:        arith.subi %[[OUTER]], %[[INNER]] : index

// -----

// A consumer reading the producer transposed keeps both from collapsing the
// loops it reorders.

util.func public @consumer_limits_producer(%a: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %0 = flow.dispatch.region -> (tensor<2x4x3xf32>) {
    %e = tensor.empty() : tensor<2x3x4xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<2x3x4xf32>
    %e2 = tensor.empty() : tensor<2x4x3xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<2x3x4xf32>) outs(%e2 : tensor<2x4x3xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<2x4x3xf32>
    flow.return %2 : tensor<2x4x3xf32>
  }
  util.return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: util.func public @consumer_limits_producer(
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         flow.dispatch.region -> (tensor<2x4x3xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         util.return

// -----

// Left alone: a named op (only linalg.generic, fill and tensor.empty take part)
// and a generic with an encoded operand.

#enc = #iree_encoding.testing<>
util.func public @named_op_and_encoded_operand_left_alone(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4xf32, #enc>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32, #enc>) {
  %0 = flow.dispatch.region -> (tensor<2x3x4xf32>) {
    %e = tensor.empty() : tensor<2x3x4xf32>
    %1 = linalg.add ins(%a, %a : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    flow.return %1 : tensor<2x3x4xf32>
  }
  %2 = flow.dispatch.region -> (tensor<2x3x4xf32, #enc>) {
    %e = tensor.empty() : tensor<2x3x4xf32, #enc>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<2x3x4xf32, #enc>) outs(%e : tensor<2x3x4xf32, #enc>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<2x3x4xf32, #enc>
    flow.return %3 : tensor<2x3x4xf32, #enc>
  }
  util.return %0, %2 : tensor<2x3x4xf32>, tensor<2x3x4xf32, #enc>
}

// CHECK-LABEL: util.func public @named_op_and_encoded_operand_left_alone(
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         util.return

// -----

// A linalg op on memrefs takes no part (there is no result to expand back).

util.func public @memref_op_left_alone(%m: memref<2x3xf32>) {
  flow.dispatch.region -> () {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%m : memref<2x3xf32>)
    flow.return
  }
  util.return
}

// CHECK-LABEL: util.func public @memref_op_left_alone(
// CHECK-NOT:     collapse_shape
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x3xf32>)
