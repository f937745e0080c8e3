// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p canonicalize --split-input-file --verify-each-with-interpreter 2>&1 >/dev/null | filecheck %s --check-prefix=KEPT

// MLIR's ForOpIterArgsFolder: an iteration argument yielded as it came in, or whose initial
// value is yielded, never changes: it is its initial value in the body and after the loop.
// One that neither the body nor anything after the loop uses goes too.
func.func @loop_invariant_arguments(%a: tensor<4xf32>, %n: index, %ub: index) -> (tensor<4xf32>, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:5 = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %a, %same = %n, %init = %n, %unused = %n, %sum = %n) -> (tensor<4xf32>, index, index, index, index) {
    %y = arith.addf %x, %x : tensor<4xf32>
    %s = arith.addi %sum, %same : index
    %u = arith.addi %i, %i : index
    scf.yield %y, %same, %n, %u, %s : tensor<4xf32>, index, index, index, index
  }
  return %r#0, %r#1, %r#2, %r#4 : tensor<4xf32>, index, index, index
}
// CHECK-LABEL: func.func @loop_invariant_arguments(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<4xf32>, %[[N:[a-zA-Z0-9]+]]: index, %[[UB:[a-zA-Z0-9]+]]: index
// CHECK:         %[[R:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %[[UB]] step %{{.+}} iter_args(%[[X:.+]] = %[[A]], %[[SUM:.+]] = %[[N]]) -> (tensor<4xf32>, index) {
// CHECK-NEXT:      %[[Y:.+]] = arith.addf %[[X]], %[[X]] : tensor<4xf32>
// CHECK-NEXT:      %[[S:.+]] = arith.addi %[[SUM]], %[[N]] : index
// CHECK-NEXT:      scf.yield %[[Y]], %[[S]] : tensor<4xf32>, index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[N]], %[[N]], %[[R]]#1 : tensor<4xf32>, index, index, index
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

// Nothing to fold: the loop stays as it is.
func.func @all_arguments_change(%n: index, %ub: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%s = %n) -> (index) {
    %t = arith.addi %s, %i : index
    scf.yield %t : index
  }
  return %r : index
}
// CHECK-LABEL: func.func @all_arguments_change(
// CHECK:         %[[R:.+]] = scf.for %{{.+}} iter_args(%[[S:.+]] = %{{.+}}) -> (index) {
// CHECK-NEXT:      %[[T:.+]] = arith.addi %[[S]], %{{.+}} : index
// CHECK-NEXT:      scf.yield %[[T]] : index
// CHECK:         return %[[R]] : index
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

// Two arguments with the same initial value and the same yielded value are one.
func.func @same_arguments(%n: index, %ub: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%a = %n, %b = %n) -> (index, index) {
    %t = arith.addi %a, %b : index
    scf.yield %t, %t : index, index
  }
  return %r#0, %r#1 : index, index
}
// CHECK-LABEL: func.func @same_arguments(
// CHECK:         %[[R:.+]] = scf.for %{{.+}} iter_args(%[[A:.+]] = %{{.+}}) -> (index) {
// CHECK-NEXT:      %[[T:.+]] = arith.addi %[[A]], %[[A]] : index
// CHECK-NEXT:      scf.yield %[[T]] : index
// CHECK:         return %[[R]], %[[R]] : index, index
// KEPT: pass 'canonicalize' kept the results of 1 function
