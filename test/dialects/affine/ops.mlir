// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// Symbols only: no space between the map and `()`.
// CHECK: #[[$MAP:.+]] = affine_map<()[s0] -> (s0 ceildiv 128)>
// CHECK-LABEL: func.func @apply_symbols
// CHECK: affine.apply #[[$MAP]]()[%{{.*}}]
func.func @apply_symbols(%n: index) -> index {
  %0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%n]
  return %0 : index
}

// -----

// CHECK: #[[$MAP:.+]] = affine_map<(d0, d1)[s0] -> (d0 + d1 + s0 * 4)>
// CHECK-LABEL: func.func @apply_dims_and_symbols
// CHECK: affine.apply #[[$MAP]](%{{.*}}, %{{.*}})[%{{.*}}] {some_attr}
func.func @apply_dims_and_symbols(%i: index, %j: index, %n: index) -> index {
  %0 = affine.apply affine_map<(d0, d1)[s0] -> (d0 + d1 + s0 * 4)>(%i, %j)[%n] {some_attr}
  return %0 : index
}

// -----

// CHECK: #[[$MAP:.+]] = affine_map<() -> (42)>
// CHECK-LABEL: func.func @apply_no_operands
// CHECK: affine.apply #[[$MAP]]()
func.func @apply_no_operands() -> index {
  %0 = affine.apply affine_map<() -> (42)>()
  return %0 : index
}

// -----

// CHECK: #[[$MAP:.+]] = affine_map<(d0)[s0] -> (-d0 + s0, 64)>
// CHECK-LABEL: func.func @min
// CHECK: affine.min #[[$MAP]](%{{.*}})[%{{.*}}]
func.func @min(%i: index, %n: index) -> index {
  %0 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%i)[%n]
  return %0 : index
}

// -----

// CHECK: #[[$MAP:.+]] = affine_map<(d0, d1) -> (d0 + 1, d1)>
// CHECK-LABEL: func.func @max
// CHECK: affine.max #[[$MAP]](%{{.*}}, %{{.*}})
func.func @max(%i: index, %j: index) -> index {
  %0 = affine.max affine_map<(d0, d1) -> (d0 + 1, d1)>(%i, %j)
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @linearize_disjoint_mixed_basis
// CHECK: affine.linearize_index disjoint [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] by (%{{.*}}, %{{.*}}, 4, 8) : index
func.func @linearize_disjoint_mixed_basis(%a: index, %b: index, %c: index, %d: index, %n: index, %m: index) -> index {
  %0 = affine.linearize_index disjoint [%a, %b, %c, %d] by (%n, %m, 4, 8) : index
  return %0 : index
}

// -----

// Without `disjoint`, and without the outer bound (one basis element fewer than indices).
// CHECK-LABEL: func.func @linearize_no_outer_bound
// CHECK: affine.linearize_index [%{{.*}}, %{{.*}}] by (16) : index
func.func @linearize_no_outer_bound(%a: index, %b: index) -> index {
  %0 = affine.linearize_index [%a, %b] by (16) : index
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @delinearize_mixed_basis
// CHECK: %[[R:.+]]:4 = affine.delinearize_index %{{.*}} into (%{{.*}}, %{{.*}}, 128, 128) : index, index, index, index
// CHECK: return %[[R]]#0, %[[R]]#3
func.func @delinearize_mixed_basis(%idx: index, %n: index, %m: index) -> (index, index) {
  %0:4 = affine.delinearize_index %idx into (%n, %m, 128, 128) : index, index, index, index
  return %0#0, %0#3 : index, index
}

// -----

// CHECK-LABEL: func.func @delinearize_no_outer_bound
// CHECK: affine.delinearize_index %{{.*}} into (2, 4, 16) : index, index, index, index
func.func @delinearize_no_outer_bound(%idx: index) -> index {
  %0:4 = affine.delinearize_index %idx into (2, 4, 16) : index, index, index, index
  return %0#0 : index
}

// -----

// The chain the layout-combining pass writes into a map_scatter region.
// CHECK-LABEL: func.func @linearize_delinearize_chain
// CHECK: %[[L:.+]] = affine.linearize_index disjoint [%{{.*}}, %{{.*}}] by (%{{.*}}, %{{.*}}) : index
// CHECK: %[[D:.+]]:4 = affine.delinearize_index %[[L]] into (%{{.*}}, 128, %{{.*}}, 16) : index, index, index, index
// CHECK: affine.linearize_index disjoint [%[[D]]#0, %[[D]]#2, %[[D]]#1, %[[D]]#3] by (%{{.*}}, %{{.*}}, 128, 16) : index
func.func @linearize_delinearize_chain(%i: index, %j: index, %m: index, %n: index, %mo: index, %no: index) -> index {
  %0 = affine.linearize_index disjoint [%i, %j] by (%m, %n) : index
  %1:4 = affine.delinearize_index %0 into (%mo, 128, %no, 16) : index, index, index, index
  %2 = affine.linearize_index disjoint [%1#0, %1#2, %1#1, %1#3] by (%mo, %no, 128, 16) : index
  return %2 : index
}
