// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s

// The results of an affine.min / affine.max map are sorted by their flattened form
// (dims, then symbols, then the constant), as MLIR's canonicalizer sorts them.

// CHECK-DAG: #[[$SORTED:.+]] = affine_map<(d0) -> (256, d0 + 64)>
// CHECK-DAG: #[[$SYMS:.+]] = affine_map<(d0)[s0] -> (s0, d0 * 2 + 8, d0 * 3)>
// CHECK-DAG: #[[$LOCAL:.+]] = affine_map<(d0) -> (d0 + 1, d0 mod 4)>
// CHECK-LABEL: func.func @min_max_term_order(
// CHECK:         affine.min #[[$SORTED]](%arg0)
// CHECK:         affine.max #[[$SYMS]](%arg0)[%arg1]
// CHECK:         affine.min #[[$LOCAL]](%arg0)
func.func @min_max_term_order(%i: index, %n: index) -> (index, index, index) {
  %0 = affine.min affine_map<(d0) -> (d0 + 64, 256)>(%i)
  %1 = affine.max affine_map<(d0)[s0] -> (d0 * 3, s0, d0 * 2 + 8)>(%i)[%n]
  // A `mod` needs a local variable to flatten: the map is left as it is.
  %2 = affine.min affine_map<(d0) -> (d0 + 1, d0 mod 4)>(%i)
  return %0, %1, %2 : index, index, index
}
