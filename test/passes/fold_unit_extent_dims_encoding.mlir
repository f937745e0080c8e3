// RUN: mini-iree-opt %s --iree-era=3.13 -p iree-dispatch-creation-fold-unit-extent-dims --split-input-file | filecheck %s --check-prefix=IREE313
// RUN: mini-iree-opt %s -p iree-dispatch-creation-fold-unit-extent-dims --split-input-file | filecheck %s --check-prefix=EARLIER

// Packed sub-byte storage collapses to itself (IREE 3.13's getCollapsedEncoding):
// the reshapes, the smaller empty and the generic keep the encoding. Before
// that hook existed, encoded operands left the op alone.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
util.func public @packed_storage(%a: tensor<1x1x4x8xi1, #iree_encoding.packed_storage>, %b: tensor<1x1x4x8xi1, #iree_encoding.packed_storage>) -> tensor<1x1x4x8xi1, #iree_encoding.packed_storage> {
  %e = tensor.empty() : tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
  %0 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<1x1x4x8xi1, #iree_encoding.packed_storage>, tensor<1x1x4x8xi1, #iree_encoding.packed_storage>) outs(%e : tensor<1x1x4x8xi1, #iree_encoding.packed_storage>) {
  ^bb0(%x: i1, %y: i1, %o: i1):
    %s = arith.xori %x, %y : i1
    linalg.yield %s : i1
  } -> tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
  util.return %0 : tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
}
// IREE313-LABEL: util.func public @packed_storage(
// IREE313-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<1x1x4x8xi1, #iree_encoding.packed_storage>, %[[B:[a-zA-Z0-9]+]]: tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
// IREE313:         %[[CA:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x4x8xi1, #iree_encoding.packed_storage> into tensor<4x8xi1, #iree_encoding.packed_storage>
// IREE313:         %[[CB:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x4x8xi1, #iree_encoding.packed_storage> into tensor<4x8xi1, #iree_encoding.packed_storage>
// IREE313:         %[[E:.+]] = tensor.empty() : tensor<4x8xi1, #iree_encoding.packed_storage>
// IREE313:         %[[G:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]} ins(%[[CA]], %[[CB]] : tensor<4x8xi1, #iree_encoding.packed_storage>, tensor<4x8xi1, #iree_encoding.packed_storage>) outs(%[[E]] : tensor<4x8xi1, #iree_encoding.packed_storage>)
// IREE313:         } -> tensor<4x8xi1, #iree_encoding.packed_storage>
// IREE313:         %[[X:.+]] = tensor.expand_shape %[[G]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<4x8xi1, #iree_encoding.packed_storage> into tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
// IREE313:         util.return %[[X]]
// EARLIER-LABEL: util.func public @packed_storage(
// EARLIER-NOT:     tensor.collapse_shape
// EARLIER:         linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// EARLIER-NOT:     tensor.expand_shape
// EARLIER:         util.return

// -----

// Any other encoding cannot be collapsed: the op keeps its unit loops.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
util.func public @testing_encoding(%a: tensor<1x4xf32, #iree_encoding.testing<>>) -> tensor<1x4xf32, #iree_encoding.testing<>> {
  %e = tensor.empty() : tensor<1x4xf32, #iree_encoding.testing<>>
  %0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x4xf32, #iree_encoding.testing<>>) outs(%e : tensor<1x4xf32, #iree_encoding.testing<>>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32, #iree_encoding.testing<>>
  util.return %0 : tensor<1x4xf32, #iree_encoding.testing<>>
}
// IREE313-LABEL: util.func public @testing_encoding(
// IREE313-NOT:     tensor.collapse_shape
// IREE313:         iterator_types = ["parallel", "parallel"]
// IREE313-NOT:     tensor.expand_shape
// EARLIER-LABEL: util.func public @testing_encoding(
// EARLIER-NOT:     tensor.collapse_shape
// EARLIER-NOT:     tensor.expand_shape
