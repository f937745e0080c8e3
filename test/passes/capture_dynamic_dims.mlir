// RUN: mini-iree-opt %s -p iree-flow-capture-dynamic-dims --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p iree-flow-capture-dynamic-dims,canonicalize --split-input-file | filecheck %s --check-prefix=CANON

// One size of the operand and one of the result are not operands yet: they are
// captured, as body arguments placed before the writeonly result argument.
util.func public @capture_missing_sizes(%t: tensor<?x?xf32>, %d0: index, %d1: index, %r0: index, %r1: index) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %0 = flow.dispatch.workgroups[%c1](%t, %d0, %r0) : (tensor<?x?xf32>{%d0, %d1}, index, index) -> tensor<?x?xf32>{%r0, %r1} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %a: index, %b: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%a, %b], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%a, %b} -> tensor<?x?xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %out, offsets = [0, 0], sizes = [%a, %b], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%a, %b}
    flow.return
  }
  util.return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: util.func public @capture_missing_sizes(
// CHECK-SAME:    %[[T:[a-zA-Z0-9]+]]: tensor<?x?xf32>, %[[D0:[a-zA-Z0-9]+]]: index, %[[D1:[a-zA-Z0-9]+]]: index, %[[R0:[a-zA-Z0-9]+]]: index, %[[R1:[a-zA-Z0-9]+]]: index
// CHECK:         flow.dispatch.workgroups[%{{.+}}](%[[T]], %[[D0]], %[[R0]], %[[D1]], %[[R1]]) : (tensor<?x?xf32>{%[[D0]], %[[D1]]}, index, index, index, index) -> tensor<?x?xf32>{%[[R0]], %[[R1]]} =
// CHECK-NEXT:      (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %[[A:.+]]: index, %[[B:.+]]: index, %[[D1_IN:.+]]: index, %[[R1_IN:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
// CHECK-NEXT:      %[[TIE_IN:.+]] = flow.dispatch.tie_shape %[[IN]] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%[[A]], %[[D1_IN]]}
// CHECK-NEXT:      %[[TIE_OUT:.+]] = flow.dispatch.tie_shape %[[OUT]] : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[B]], %[[R1_IN]]}
// CHECK-NEXT:      %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load %[[TIE_IN]],
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[L]], %[[TIE_OUT]],
// CHECK-NEXT:      flow.return

// -----

// Sizes read through workload ordinals: the ties take the ordinals too, and the
// ordinals of the tied sizes move to the top (IREE's canonicalizer does this
// right after the pass); the ordinal of a size no tie uses stays where it is, until the
// canonicalizer drops it and the argument it reads (ClosureOptimizationPattern).
util.func public @capture_through_ordinals(%t: tensor<?xf32>, %d: index, %n: index) -> tensor<?xf32> {
  %0 = flow.dispatch.workgroups[%d, %n](%t, %d, %n) : (tensor<?xf32>{%d}, index, index) -> tensor<?xf32>{%d} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %a: index, %b: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
    %cst = arith.constant 1.0 : f32
    %n0 = iree_tensor_ext.dispatch.workload.ordinal %b, 1 : index
    %a0 = iree_tensor_ext.dispatch.workload.ordinal %a, 0 : index
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [%a0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%a0} -> tensor<?xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %out, offsets = [0], sizes = [%a0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%a0}
    flow.return
  } count(%x: index, %y: index) -> (index, index, index) {
    %x1, %y1, %z1 = iree_tensor_ext.dispatch.workgroup_count_from_slice(%x, %y)
    flow.return %x1, %y1, %z1 : index, index, index
  }
  util.return %0 : tensor<?xf32>
}
// The ties read the body arguments, as IREE's pass writes them; the canonicalizer IREE runs next
// then makes every use of an argument go through its ordinal (BubbleUpOrdinalOp), the ties' too.
// CHECK-LABEL: util.func public @capture_through_ordinals(
// CHECK:         flow.dispatch.workgroups[%{{.+}}, %{{.+}}](%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<?xf32>{%{{.+}}}, index, index) -> tensor<?xf32>{%{{.+}}} =
// CHECK-NEXT:      (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %[[A:.+]]: index, %[[B:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
// CHECK-NEXT:      %[[TIE_IN:.+]] = flow.dispatch.tie_shape %[[IN]] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[A]]}
// CHECK-NEXT:      %[[TIE_OUT:.+]] = flow.dispatch.tie_shape %[[OUT]] : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[A]]}
// CHECK-NEXT:      arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      iree_tensor_ext.dispatch.workload.ordinal %[[B]], 1 : index
// CHECK-NEXT:      %[[W0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]], 0 : index
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.load %[[TIE_IN]], offsets = [0], sizes = [%[[W0]]], strides = [1]
// CANON-LABEL: util.func public @capture_through_ordinals(
// CANON:         flow.dispatch.workgroups[%{{.+}}, %{{.+}}](%{{.+}}, %{{.+}}) : (tensor<?xf32>{%{{.+}}}, index) -> tensor<?xf32>{%{{.+}}} =
// CANON-NEXT:      (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %[[A:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
// CANON-NEXT:      %[[W0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]], 0 : index
// CANON-NEXT:      %[[TIE_IN:.+]] = flow.dispatch.tie_shape %[[IN]] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[W0]]}
// CANON-NEXT:      %[[TIE_OUT:.+]] = flow.dispatch.tie_shape %[[OUT]] : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[W0]]}
// CANON-NEXT:      %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load %[[TIE_IN]], offsets = [0], sizes = [%[[W0]]], strides = [1]
// CANON-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[L]], %[[TIE_OUT]], offsets = [0], sizes = [%[[W0]]], strides = [1]
// CANON:         } count(

// -----

// A result computed in place is the operand's binding: only the operand is tied.
// Static tensors need no tie.
util.func public @capture_tied_and_static(%t: tensor<?xf32>, %s: tensor<4xf32>, %d: index) -> (tensor<?xf32>, tensor<4xf32>) {
  %0:2 = flow.dispatch.workgroups(%t, %s, %d) : (tensor<?xf32>{%d}, tensor<4xf32>, index) -> (%t{%d}, tensor<4xf32>) =
      (%io: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %a: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    %l = iree_tensor_ext.dispatch.tensor.load %io, offsets = [0], sizes = [%a], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>{%a} -> tensor<?xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %io, offsets = [0], sizes = [%a], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>{%a}
    %m = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
    iree_tensor_ext.dispatch.tensor.store %m, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
    flow.return
  }
  util.return %0#0, %0#1 : tensor<?xf32>, tensor<4xf32>
}
// CHECK-LABEL: util.func public @capture_tied_and_static(
// CHECK:         flow.dispatch.workgroups(%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<?xf32>{%[[D:.+]]}, tensor<4xf32>, index) -> (%{{.+}}{%[[D]]}, tensor<4xf32>) =
// CHECK-NEXT:      (%[[IO:.+]]: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %[[A:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
// CHECK-NEXT:      %[[TIE:.+]] = flow.dispatch.tie_shape %[[IO]] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>{%[[A]]}
// CHECK-NOT:       flow.dispatch.tie_shape
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[TIE]],
// CHECK:           iree_tensor_ext.dispatch.tensor.load %[[IN]],
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[OUT]],

// -----

// The sizes of an imported tensor are those the import states (the dispatch
// does not take them yet).
util.func public @capture_import_sizes(%v: !hal.buffer_view) -> tensor<?xf32> {
  %d = hal.buffer_view.dim<%v : !hal.buffer_view>[0] : index
  %t = hal.tensor.import %v "input0" : !hal.buffer_view -> tensor<?xf32>{%d}
  %0 = flow.dispatch.workgroups(%t) : (tensor<?xf32>{%d}) -> tensor<?xf32>{%d} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
    flow.return
  }
  util.return %0 : tensor<?xf32>
}
// CHECK-LABEL: util.func public @capture_import_sizes(
// CHECK:         %[[D:.+]] = hal.buffer_view.dim
// CHECK:         %[[T:.+]] = hal.tensor.import
// CHECK:         flow.dispatch.workgroups(%[[T]], %[[D]]) : (tensor<?xf32>{%[[D]]}, index) -> tensor<?xf32>{%[[D]]} =
// CHECK-NEXT:      (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %[[D_IN:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
// CHECK-NEXT:      %[[TIE_IN:.+]] = flow.dispatch.tie_shape %[[IN]] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[D_IN]]}
// CHECK-NEXT:      flow.dispatch.tie_shape %[[OUT]] : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[D_IN]]}

// -----

// A loop-carried tensor tied before the loop (IREE's capture_scf_for_dynamic_dims.mlir):
// its sizes, and those of the value the body yields (the linalg op's init), become
// iteration arguments; ties in the body and after the loop name them.
util.func public @capture_loop_sizes(%arg0: tensor<?x?xf32>, %arg0_dim0: index, %arg0_dim1: index, %ub: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tensor = flow.tensor.tie_shape %arg0 : tensor<?x?xf32>{%arg0_dim0, %arg0_dim1}
  %ret = scf.for %ind = %c0 to %ub step %c1 iter_args(%arg1 = %tensor) -> tensor<?x?xf32> {
    %0 = flow.tensor.empty : tensor<?x?xf32>{%arg0_dim0, %arg0_dim1}
    %2 = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%arg1 : tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
    ^bb0(%b0 : f32, %b1 : f32):
      %3 = arith.addf %b0, %b0 : f32
      linalg.yield %3 : f32
    } -> tensor<?x?xf32>
    scf.yield %2 : tensor<?x?xf32>
  }
  util.return %ret : tensor<?x?xf32>
}
// CHECK-LABEL: util.func public @capture_loop_sizes(
// CHECK-SAME:    %[[ARG0:[a-zA-Z0-9]+]]: tensor<?x?xf32>, %[[DIM0:[a-zA-Z0-9]+]]: index, %[[DIM1:[a-zA-Z0-9]+]]: index
// CHECK:         %[[TENSOR:.+]] = flow.tensor.tie_shape %[[ARG0]] : tensor<?x?xf32>{%[[DIM0]], %[[DIM1]]}
// CHECK:         %[[RET:.+]]:3 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ITER:.+]] = %[[TENSOR]], %[[ITER_DIM0:.+]] = %[[DIM0]], %[[ITER_DIM1:.+]] = %[[DIM1]]) -> (tensor<?x?xf32>, index, index) {
// CHECK-NEXT:      %[[TIED:.+]] = flow.tensor.tie_shape %[[ITER]] : tensor<?x?xf32>{%[[ITER_DIM0]], %[[ITER_DIM1]]}
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[TIED]] : tensor<?x?xf32>)
// CHECK:           scf.yield %{{.+}}, %[[DIM0]], %[[DIM1]] : tensor<?x?xf32>, index, index
// CHECK:         %[[OUT:.+]] = flow.tensor.tie_shape %[[RET]]#0 : tensor<?x?xf32>{%[[RET]]#1, %[[RET]]#2}
// CHECK:         util.return %[[OUT]]

// -----

// Three loop-carried tensors: one tied before the loop, one whose sizes a user after the
// loop states (found downward, as IREE's findDynamicDims does), and a static one, which
// stays as it is.
util.func public @capture_several(%a: tensor<?xf32>, %b: tensor<4x?xf32>, %s: tensor<4xf32>, %n: index, %m: index, %ub: index) -> (tensor<?xf32>, tensor<4x?xf32>, tensor<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ta = flow.tensor.tie_shape %a : tensor<?xf32>{%n}
  %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %ta, %y = %b, %z = %s) -> (tensor<?xf32>, tensor<4x?xf32>, tensor<4xf32>) {
    %e = flow.tensor.empty : tensor<?xf32>{%n}
    %x2 = linalg.copy ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %y2 = flow.tensor.clone %y : tensor<4x?xf32>{%m}
    scf.yield %x2, %y2, %z : tensor<?xf32>, tensor<4x?xf32>, tensor<4xf32>
  }
  %c = flow.tensor.clone %b : tensor<4x?xf32>{%m}
  util.return %r#0, %r#1, %c : tensor<?xf32>, tensor<4x?xf32>, tensor<4x?xf32>
}
// CHECK-LABEL: util.func public @capture_several(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<?xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<4x?xf32>, %[[S:[a-zA-Z0-9]+]]: tensor<4xf32>, %[[N:[a-zA-Z0-9]+]]: index, %[[M:[a-zA-Z0-9]+]]: index
// CHECK:         %[[TA:.+]] = flow.tensor.tie_shape %[[A]]
// CHECK:         %[[R:.+]]:5 = scf.for %{{.+}} iter_args(%[[X:.+]] = %[[TA]], %[[Y:.+]] = %[[B]], %[[Z:.+]] = %[[S]], %[[XN:.+]] = %[[N]], %[[YM:.+]] = %[[M]]) -> (tensor<?xf32>, tensor<4x?xf32>, tensor<4xf32>, index, index) {
// CHECK-NEXT:      %[[XT:.+]] = flow.tensor.tie_shape %[[X]] : tensor<?xf32>{%[[XN]]}
// CHECK-NEXT:      %[[YT:.+]] = flow.tensor.tie_shape %[[Y]] : tensor<4x?xf32>{%[[YM]]}
// CHECK:           linalg.copy ins(%[[XT]] : tensor<?xf32>)
// CHECK:           flow.tensor.clone %[[YT]]
// CHECK:           scf.yield %{{.+}}, %{{.+}}, %[[Z]], %[[N]], %[[M]] : tensor<?xf32>, tensor<4x?xf32>, tensor<4xf32>, index, index
// CHECK:         %[[R0:.+]] = flow.tensor.tie_shape %[[R]]#0 : tensor<?xf32>{%[[R]]#3}
// CHECK-NEXT:    %[[R1:.+]] = flow.tensor.tie_shape %[[R]]#1 : tensor<4x?xf32>{%[[R]]#4}
// CHECK:         util.return %[[R0]], %[[R1]],

// -----

// Loops whose sizes are not found are left alone: a `tensor.empty` states no sizes in
// IREE's sense (its sizes are not found through it), and neither does a loop, whose
// result the outer loop yields, nor an iteration argument the inner loop starts from.
util.func public @capture_nested(%n: index, %ub: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = flow.tensor.empty : tensor<?xf32>{%n}
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %e) -> (tensor<?xf32>) {
    scf.yield %x : tensor<?xf32>
  }
  %q = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %f) -> (tensor<?xf32>) {
    %inner = scf.for %j = %c0 to %ub step %c1 iter_args(%y = %x) -> (tensor<?xf32>) {
      %u = flow.tensor.update %y, %y[%c0] : tensor<?xf32>{%n} -> %y as tensor<?xf32>{%n}
      scf.yield %u : tensor<?xf32>
    }
    scf.yield %inner : tensor<?xf32>
  }
  util.return %r, %q : tensor<?xf32>, tensor<?xf32>
}
// CHECK-LABEL: util.func public @capture_nested(
// CHECK-NOT:     flow.tensor.tie_shape
// CHECK:         util.return

// -----

// Loops are visited inner first, as IREE's post-order walk: the inner loop starts from the
// outer loop's iteration argument, whose sizes nothing states yet, so it stays as it is;
// the outer loop is captured after it.
util.func public @capture_outer_loop_only(%t: tensor<?xf32>, %n: index, %ub: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tt = flow.tensor.tie_shape %t : tensor<?xf32>{%n}
  %q = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %tt) -> (tensor<?xf32>) {
    %inner = scf.for %j = %c0 to %ub step %c1 iter_args(%y = %x) -> (tensor<?xf32>) {
      %u = flow.tensor.clone %y : tensor<?xf32>{%n}
      scf.yield %u : tensor<?xf32>
    }
    %c = flow.tensor.clone %inner : tensor<?xf32>{%n}
    scf.yield %c : tensor<?xf32>
  }
  util.return %q : tensor<?xf32>
}
// CHECK-LABEL: util.func public @capture_outer_loop_only(
// CHECK:         %[[Q:.+]]:2 = scf.for %{{.+}} iter_args(%[[X:.+]] = %{{.+}}, %[[XN:.+]] = %{{.+}}) -> (tensor<?xf32>, index) {
// CHECK-NEXT:      %[[XT:.+]] = flow.tensor.tie_shape %[[X]] : tensor<?xf32>{%[[XN]]}
// CHECK-NEXT:      %[[INNER:.+]] = scf.for %{{.+}} iter_args(%[[Y:.+]] = %[[XT]]) -> (tensor<?xf32>) {
// CHECK-NEXT:        flow.tensor.clone %[[Y]]
// CHECK:           flow.tensor.clone %[[INNER]]
// CHECK:         flow.tensor.tie_shape %[[Q]]#0 : tensor<?xf32>{%[[Q]]#1}

// -----

// A dispatch in the loop: the loop is tied first, then the dispatch captures the loop's
// size argument; its result's size it takes already.
util.func public @capture_loop_of_dispatches(%t: tensor<?xf32>, %d: index, %ub: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tied = flow.tensor.tie_shape %t : tensor<?xf32>{%d}
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %tied) -> (tensor<?xf32>) {
    %0 = flow.dispatch.workgroups[%c1](%x, %d) : (tensor<?xf32>{%d}, index) -> tensor<?xf32>{%d} =
        (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %n: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
      %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      iree_tensor_ext.dispatch.tensor.store %l, %out, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
      flow.return
    }
    scf.yield %0 : tensor<?xf32>
  }
  util.return %r : tensor<?xf32>
}
// CHECK-LABEL: util.func public @capture_loop_of_dispatches(
// CHECK-SAME:    %[[T:[a-zA-Z0-9]+]]: tensor<?xf32>, %[[D:[a-zA-Z0-9]+]]: index
// CHECK:         scf.for %{{.+}} iter_args(%[[X:.+]] = %{{.+}}, %[[XD:.+]] = %[[D]]) -> (tensor<?xf32>, index) {
// CHECK-NEXT:      %[[XT:.+]] = flow.tensor.tie_shape %[[X]] : tensor<?xf32>{%[[XD]]}
// CHECK-NEXT:      flow.dispatch.workgroups[%{{.+}}](%[[XT]], %[[D]], %[[XD]]) : (tensor<?xf32>{%[[D]]}, index, index) -> tensor<?xf32>{%[[D]]} =
// CHECK-NEXT:        (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %[[N:.+]]: index, %[[XD_IN:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
// CHECK-NEXT:        flow.dispatch.tie_shape %[[IN]] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[XD_IN]]}
// CHECK-NEXT:        flow.dispatch.tie_shape %[[OUT]] : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[N]]}
// CHECK:           scf.yield %{{.+}}, %[[D]] : tensor<?xf32>, index
