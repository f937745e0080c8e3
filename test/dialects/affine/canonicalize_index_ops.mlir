// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s

// delinearize(linearize disjoint): the bounds both end with cancel, the indices
// pass through; what is left stays a smaller linearize / delinearize.

// CHECK-LABEL: func.func @collapse_then_split(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: index, %[[B:[a-zA-Z0-9]+]]: index, %[[C:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[L:.+]] = affine.linearize_index disjoint [%[[A]], %[[B]]] by (2, 4) : index
// CHECK-NEXT:    return %[[L]], %[[C]]
func.func @collapse_then_split(%a: index, %b: index, %c: index) -> (index, index) {
  %0 = affine.linearize_index disjoint [%a, %b, %c] by (2, 4, 16) : index
  %1:2 = affine.delinearize_index %0 into (8, 16) : index, index
  return %1#0, %1#1 : index, index
}

// -----

// CHECK-LABEL: func.func @split_further(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: index, %[[B:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[D:.+]]:2 = affine.delinearize_index %[[A]] into (2, 4) : index, index
// CHECK-NEXT:    return %[[D]]#0, %[[D]]#1, %[[B]]
func.func @split_further(%a: index, %b: index, %n: index) -> (index, index, index) {
  %0 = affine.linearize_index disjoint [%a, %b] by (8, %n) : index
  %1:3 = affine.delinearize_index %0 into (2, 4, %n) : index, index, index
  return %1#0, %1#1, %1#2 : index, index, index
}

// -----

// Without `disjoint` an index may overflow into the next: nothing cancels. Nor when
// the bounds differ at the end.

// CHECK-LABEL: func.func @not_cancelled(
// CHECK:         affine.linearize_index [
// CHECK:         affine.delinearize_index
// CHECK:         affine.linearize_index disjoint
// CHECK:         affine.delinearize_index
func.func @not_cancelled(%a: index, %b: index) -> (index, index, index, index) {
  %0 = affine.linearize_index [%a, %b] by (4, 16) : index
  %1:2 = affine.delinearize_index %0 into (4, 16) : index, index
  %2 = affine.linearize_index disjoint [%a, %b] by (4, 16) : index
  %3:2 = affine.delinearize_index %2 into (8, 8) : index, index
  return %1#0, %1#1, %3#0, %3#1 : index, index, index, index
}

// -----

// A single index is itself.

// CHECK-LABEL: func.func @single(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    return %[[A]], %[[A]]
func.func @single(%a: index) -> (index, index) {
  %0 = affine.linearize_index [%a] by (16) : index
  %1 = affine.delinearize_index %a into (16) : index
  return %0, %1 : index, index
}

// -----

// The last linearized index spans the trailing bounds (2 * 4 = 8): it is split on its own.
// CHECK-LABEL: func.func @split_last_linearized_index(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: index, %[[B:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[D:.+]]:2 = affine.delinearize_index %[[B]] into (2, 4) : index, index
// CHECK-NEXT:    return %[[A]], %[[D]]#0, %[[D]]#1
func.func @split_last_linearized_index(%a: index, %b: index) -> (index, index, index) {
  %0 = affine.linearize_index disjoint [%a, %b] by (16, 8) : index
  %1:3 = affine.delinearize_index %0 into (16, 2, 4) : index, index, index
  return %1#0, %1#1, %1#2 : index, index, index
}

// -----

// Linearizing every result of a delinearization by the same bounds gives its input back.
// CHECK-LABEL: func.func @linearize_of_delinearize(
// CHECK-SAME:    %[[X:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    return %[[X]]
func.func @linearize_of_delinearize(%x: index) -> index {
  %d:2 = affine.delinearize_index %x into (2, 4) : index, index
  %l = affine.linearize_index disjoint [%d#0, %d#1] by (2, 4) : index
  return %l : index
}

// -----

// Unit bounds: a delinearized index of bound 1 is 0; a linearized index of bound 1 (disjoint)
// or equal to 0 adds nothing.
// CHECK-LABEL: func.func @unit_bounds(
// CHECK-SAME:    %[[X:[a-zA-Z0-9]+]]: index, %[[Y:[a-zA-Z0-9]+]]: index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[D:.+]]:2 = affine.delinearize_index %[[X]] into (4, 8) : index, index
// CHECK-DAG:     %[[L:.+]] = affine.linearize_index disjoint [%[[Y]], %[[X]]] by (4, 8) : index
// CHECK:         return %[[C0]], %[[D]]#0, %[[L]]
func.func @unit_bounds(%x: index, %y: index) -> (index, index, index) {
  %d:3 = affine.delinearize_index %x into (1, 4, 8) : index, index, index
  %c0 = arith.constant 0 : index
  %l = affine.linearize_index disjoint [%c0, %y, %x] by (1, 4, 8) : index
  return %d#0, %d#1, %l : index, index, index
}
