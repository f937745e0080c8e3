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
