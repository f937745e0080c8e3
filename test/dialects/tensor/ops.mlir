// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @empty(
// CHECK-SAME:    %[[M:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index
// CHECK:         tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         tensor.empty() : tensor<255x1023xf32>
// CHECK:         tensor.empty(%[[N]]) {some_attr} : tensor<4x?xf32, "some_encoding">
func.func @empty(%m: index, %n: index) {
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %1 = tensor.empty() : tensor<255x1023xf32>
  %2 = tensor.empty(%n) {some_attr} : tensor<4x?xf32, "some_encoding">
  return
}

// -----

// CHECK-LABEL: func.func @dim_and_cast(
// CHECK:         %dim = tensor.dim %{{.+}}, %{{.+}} : tensor<?x256xf32>
// CHECK:         %cast = tensor.cast %{{.+}} : tensor<?x256xf32> to tensor<4x256xf32>
func.func @dim_and_cast(%t: tensor<?x256xf32>) -> index {
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %t, %c0 : tensor<?x256xf32>
  %cast = tensor.cast %t : tensor<?x256xf32> to tensor<4x256xf32>
  return %dim : index
}

// -----

// Offsets taken from the results of a multi-result op, and a rank-reducing slice.
// CHECK-LABEL: func.func @extract_slice(
// CHECK:         %[[IDX:.+]]:4 = "test.op"()
// CHECK:         %extracted_slice = tensor.extract_slice %{{.+}}[0, 0, %[[IDX]]#2, %[[IDX]]#3, 0] [1, 1, 1, 1, 4] [1, 1, 1, 1, 1] : tensor<1x1x2x4x4xf32> to tensor<1x1x1x1x4xf32>
// CHECK:         tensor.extract_slice %{{.+}}[%[[IDX]]#0, %[[IDX]]#1] [1, %{{.+}}] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
func.func @extract_slice(%t: tensor<1x1x2x4x4xf32>, %u: tensor<?x?xf32>, %n: index) {
  %0:4 = "test.op"() : () -> (index, index, index, index)
  %extracted_slice = tensor.extract_slice %t[0, 0, %0#2, %0#3, 0] [1, 1, 1, 1, 4] [1, 1, 1, 1, 1] : tensor<1x1x2x4x4xf32> to tensor<1x1x1x1x4xf32>
  %extracted_slice_0 = tensor.extract_slice %u[%0#0, %0#1] [1, %n] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @insert_slice(
// CHECK:         %inserted_slice = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, %{{.+}}, 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x1x1x4xf32> into tensor<1x1x2x4xf32>
func.func @insert_slice(%s: tensor<1x1x1x4xf32>, %d: tensor<1x1x2x4xf32>, %i: index) -> tensor<1x1x2x4xf32> {
  %inserted_slice = tensor.insert_slice %s into %d[0, 0, %i, 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x1x1x4xf32> into tensor<1x1x2x4xf32>
  return %inserted_slice : tensor<1x1x2x4xf32>
}

// -----

// The swizzle of a packed LHS tile: reassociation groups print as plain
// integer lists, as in MLIR.
// CHECK-LABEL: func.func @expand_shape(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: index, %[[B:[a-z0-9_]+]]: index
// CHECK:         %expanded = tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4], [5, 6]] output_shape [%[[A]], %[[B]], 4, 8, 4, 4, 4] : tensor<?x?x128x16xf32> into tensor<?x?x4x8x4x4x4xf32>
// GENERIC-LABEL: sym_name = "expand_shape"
// GENERIC:       "tensor.expand_shape"(%{{.+}}, %{{.+}}, %{{.+}}) <{reassociation = {{.+}}, static_output_shape = array<i64: -9223372036854775808, -9223372036854775808, 4, 8, 4, 4, 4>}>
func.func @expand_shape(%pack: tensor<?x?x128x16xf32>, %a: index, %b: index) -> tensor<?x?x4x8x4x4x4xf32> {
  %expanded = tensor.expand_shape %pack [[0], [1], [2, 3, 4], [5, 6]] output_shape [%a, %b, 4, 8, 4, 4, 4] : tensor<?x?x128x16xf32> into tensor<?x?x4x8x4x4x4xf32>
  return %expanded : tensor<?x?x4x8x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @expand_shape_static_with_attrs(
// CHECK:         tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [2, 8] {some_attr} : tensor<16xf32> into tensor<2x8xf32>
func.func @expand_shape_static_with_attrs(%t: tensor<16xf32>) -> tensor<2x8xf32> {
  %expanded = tensor.expand_shape %t [[0, 1]] output_shape [2, 8] {some_attr} : tensor<16xf32> into tensor<2x8xf32>
  return %expanded : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_shape(
// CHECK:         %collapsed = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4], [5, 6, 7]] : tensor<?x?x4x8x4x4x16x2xf32> into tensor<?x?x128x128xf32>
func.func @collapse_shape(%t: tensor<?x?x4x8x4x4x16x2xf32>) -> tensor<?x?x128x128xf32> {
  %collapsed = tensor.collapse_shape %t [[0], [1], [2, 3, 4], [5, 6, 7]] : tensor<?x?x4x8x4x4x16x2xf32> into tensor<?x?x128x128xf32>
  return %collapsed : tensor<?x?x128x128xf32>
}

// -----

// Collapsing all unit dimensions away leaves an empty reassociation.
// CHECK-LABEL: func.func @collapse_shape_to_rank0(
// CHECK:         tensor.collapse_shape %{{.+}} [] : tensor<1x1xf32> into tensor<f32>
func.func @collapse_shape_to_rank0(%t: tensor<1x1xf32>) -> tensor<f32> {
  %collapsed = tensor.collapse_shape %t [] : tensor<1x1xf32> into tensor<f32>
  return %collapsed : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @pad(
// CHECK:         %padded = tensor.pad %{{.+}} low[0, 0] high[%{{.+}}, 3] {
// CHECK-NEXT:    ^bb0(%{{.+}}: index, %{{.+}}: index):
// CHECK-NEXT:      tensor.yield %{{.+}} : f32
// CHECK-NEXT:    } : tensor<?x?xf32> to tensor<?x?xf32>
func.func @pad(%t: tensor<?x?xf32>, %h: index, %cst: f32) -> tensor<?x?xf32> {
  %padded = tensor.pad %t low[0, 0] high[%h, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  return %padded : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @splat_and_bitcast(
// CHECK:         tensor.splat %{{.+}}[%{{.+}}] : tensor<?x4xi32>
// CHECK:         tensor.bitcast %{{.+}} : tensor<?x4xi32> to tensor<?x4xf32>
func.func @splat_and_bitcast(%v: i32, %n: index) -> tensor<?x4xf32> {
  %0 = tensor.splat %v[%n] : tensor<?x4xi32>
  %1 = tensor.bitcast %0 : tensor<?x4xi32> to tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @parallel_insert_slice(
// CHECK:         scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0, 0, 0, 0] [%{{.+}}, %{{.+}}, 2, 4, 4, 16, 4] [1, 1, 1, 1, 1, 1, 1] : tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x4x4x16x4xf32>
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "parallel_insert_slice"
// GENERIC:       "tensor.parallel_insert_slice"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 2, 0>, static_offsets = array<i64: 0, 0, 0, 0, 0, 0, 0>, static_sizes = array<i64: -9223372036854775808, -9223372036854775808, 2, 4, 4, 16, 4>, static_strides = array<i64: 1, 1, 1, 1, 1, 1, 1>}> : (tensor<?x?x2x4x4x16x4xf32>, tensor<?x?x2x4x4x16x4xf32>, index, index) -> ()
func.func @parallel_insert_slice(%init: tensor<?x?x2x4x4x16x4xf32>, %t: tensor<?x?x2x4x4x16x4xf32>, %m: index, %n: index) -> tensor<?x?x2x4x4x16x4xf32> {
  %0 = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<?x?x2x4x4x16x4xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[0, 0, 0, 0, 0, 0, 0] [%m, %n, 2, 4, 4, 16, 4] [1, 1, 1, 1, 1, 1, 1] : tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x4x4x16x4xf32>
    }
  }
  return %0 : tensor<?x?x2x4x4x16x4xf32>
}

// -----

// A rank-reduced source inserted along one row.
// CHECK-LABEL: func.func @parallel_insert_slice_rank_reduced(
// CHECK:         tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x4xf32>
func.func @parallel_insert_slice_rank_reduced(%init: tensor<8x4xf32>, %row: tensor<4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %row into %o[%i, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @element_ops(
// CHECK:         tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<?x?xf32>
// CHECK:         tensor.insert %{{.+}} into %{{.+}}[%{{.+}}, %{{.+}}] : tensor<?x?xf32>
// CHECK:         tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xf32>
func.func @element_ops(%t: tensor<?x?xf32>, %i: index, %j: index) -> tensor<2xf32> {
  %0 = tensor.extract %t[%i, %j] : tensor<?x?xf32>
  %1 = tensor.insert %0 into %t[%i, %j] : tensor<?x?xf32>
  %2 = tensor.from_elements %0, %0 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
