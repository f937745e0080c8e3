// RUN: mini-iree-opt %s -p affine-expand-index-ops --split-input-file | filecheck %s

// A linearization: each index times the product of the basis inside it (constants
// folded into one), summed left to right; no product for the innermost index.

func.func @linearize(%i: index, %j: index, %k: index, %d: index, %e: index) -> (index, index) {
  %0 = affine.linearize_index disjoint [%i, %j, %k] by (%d, 8, 4) : index
  %1 = affine.linearize_index [%i, %j, %k] by (%e, 4) : index
  return %0, %1 : index, index
}
// CHECK-LABEL: func.func @linearize(
// CHECK-SAME:    %[[I:[a-zA-Z0-9]+]]: index, %[[J:[a-zA-Z0-9]+]]: index, %[[K:[a-zA-Z0-9]+]]: index, %{{.+}}: index, %[[E:[a-zA-Z0-9]+]]: index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         %[[A:.+]] = arith.muli %[[I]], %[[C32]] overflow<nsw> : index
// CHECK-NEXT:    %[[B:.+]] = arith.muli %[[J]], %[[C4]] overflow<nsw> : index
// CHECK-NEXT:    %[[AB:.+]] = arith.addi %[[A]], %[[B]] overflow<nsw> : index
// CHECK-NEXT:    %[[L0:.+]] = arith.addi %[[AB]], %[[K]] overflow<nsw> : index
// CHECK-NEXT:    %[[S:.+]] = arith.muli %[[E]], %[[C4]] overflow<nsw> : index
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[I]], %[[S]] overflow<nsw> : index
// CHECK-NEXT:    %[[Q:.+]] = arith.muli %[[J]], %[[C4]] overflow<nsw> : index
// CHECK-NEXT:    %[[PQ:.+]] = arith.addi %[[P]], %[[Q]] overflow<nsw> : index
// CHECK-NEXT:    %[[L1:.+]] = arith.addi %[[PQ]], %[[K]] overflow<nsw> : index
// CHECK-NEXT:    return %[[L0]], %[[L1]]

// -----

// A delinearization: a floor division by the outermost stride, the non-negative
// remainder by the innermost one, and between them the remainder by the stride
// outside divided by their own. A dynamic stride is `nsw, nuw`.

func.func @delinearize(%x: index, %d: index, %e: index) -> (index, index, index, index, index, index) {
  %0:3 = affine.delinearize_index %x into (4, 8) : index, index, index
  %1:3 = affine.delinearize_index %x into (%d, %e, 16) : index, index, index
  return %0#0, %0#1, %0#2, %1#0, %1#1, %1#2 : index, index, index, index, index, index
}
// CHECK-LABEL: func.func @delinearize(
// CHECK-SAME:    %[[X:[a-zA-Z0-9]+]]: index, %{{.+}}: index, %[[E:[a-zA-Z0-9]+]]: index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         %[[R0:.+]] = arith.floordivsi %[[X]], %[[C32]] : index
// CHECK-NEXT:    %[[REM:.+]] = arith.remsi %[[X]], %[[C32]] : index
// CHECK-NEXT:    %[[NEG:.+]] = arith.cmpi slt, %[[REM]], %[[C0]] : index
// CHECK-NEXT:    %[[SHIFT:.+]] = arith.addi %[[REM]], %[[C32]] overflow<nsw> : index
// CHECK-NEXT:    %[[MOD:.+]] = arith.select %[[NEG]], %[[SHIFT]], %[[REM]] : index
// CHECK-NEXT:    %[[R1:.+]] = arith.divsi %[[MOD]], %[[C8]] : index
// CHECK-NEXT:    arith.remsi %[[X]], %[[C8]] : index
// CHECK:         %[[STRIDE:.+]] = arith.muli %[[E]], %[[C16]] overflow<nsw, nuw> : index
// CHECK-NEXT:    arith.floordivsi %[[X]], %[[STRIDE]] : index
// CHECK-NOT:     affine.
// CHECK:         return %[[R0]], %[[R1]]

// -----

// Results no one uses are not computed; one result is the index itself.

func.func @unused_results(%x: index) -> (index, index) {
  %0:3 = affine.delinearize_index %x into (4, 8) : index, index, index
  %1 = affine.delinearize_index %x into (64) : index
  return %0#2, %1 : index, index
}
// CHECK-LABEL: func.func @unused_results(
// CHECK-SAME:    %[[X:[a-zA-Z0-9]+]]: index
// CHECK-NOT:     arith.floordivsi
// CHECK-NOT:     arith.divsi
// CHECK:         %[[REM:.+]] = arith.remsi %[[X]], %{{.+}} : index
// CHECK:         %[[MOD:.+]] = arith.select
// CHECK-NEXT:    return %[[MOD]], %[[X]]
