// RUN: mini-iree-opt %s -p iree-dispatch-creation-fold-unit-extent-dims --split-input-file | filecheck %s

// A unit loop goes: the operands lose the size-1 dimension it reads (merged
// into the next dimension), and the result is expanded back.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d2)>
util.func public @unit_middle_loop(%a: tensor<4x1x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x1x8xf32> {
  %e = tensor.empty() : tensor<4x1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<4x1x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x1x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x1x8xf32>
  util.return %0 : tensor<4x1x8xf32>
}
// CHECK-LABEL: util.func public @unit_middle_loop(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<4x1x8xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<4x8xf32>
// CHECK:         %[[CA:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<4x1x8xf32> into tensor<4x8xf32>
// CHECK-NEXT:    %[[CE:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[G:.+]] = linalg.generic {indexing_maps = [#[[ID:.+]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[CA]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[CE]] : tensor<4x8xf32>)
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[G]] {{\[}}[0, 1], [2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
// CHECK-NEXT:    util.return %[[R]]

// -----

// Every loop has range 1: the operands become 0-d.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
util.func public @all_unit(%a: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<1x1xf32>
  util.return %0 : tensor<1x1xf32>
}
// CHECK-LABEL: util.func public @all_unit(
// CHECK:         tensor.collapse_shape %{{.+}} [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT:    tensor.empty() : tensor<f32>
// CHECK:         linalg.generic {indexing_maps = [#[[MAP:.+]], #[[MAP]]], iterator_types = []} ins(%{{.+}} : tensor<f32>) outs(%{{.+}} : tensor<f32>)
// CHECK:         tensor.expand_shape %{{.+}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>

// -----

// Ops inside a dispatch region and ops without unit loops are left alone.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
util.func public @left_alone(%a: tensor<1x4xf32>, %b: tensor<2x4xf32>) -> (tensor<1x4xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<1x4xf32>
  %0 = flow.dispatch.region -> (tensor<1x4xf32>) {
    %1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<1x4xf32>
    flow.return %1 : tensor<1x4xf32>
  }
  %e2 = tensor.empty() : tensor<2x4xf32>
  %3 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  util.return %0, %3 : tensor<1x4xf32>, tensor<2x4xf32>
}
// CHECK-LABEL: util.func public @left_alone(
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         util.return

// -----

// linalg.index of the dropped loop reads the constant 0; the kept loop is
// renumbered.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
util.func public @index_of_dropped_loop(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  util.return %0 : tensor<1x4xf32>
}
// CHECK-LABEL: util.func public @index_of_dropped_loop(
// CHECK:         linalg.generic {{.+}} iterator_types = ["parallel"]} ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK:           %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[J:.+]] = linalg.index 0 : index
// CHECK-NEXT:      arith.addi %[[ZERO]], %[[J]] : index
// CHECK:         tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
