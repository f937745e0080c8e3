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
// right after the pass); the ordinal of a size no tie uses stays where it is.
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
// CANON:         (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %[[A:.+]]: index, %[[B:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
