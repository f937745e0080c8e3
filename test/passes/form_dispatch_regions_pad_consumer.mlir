// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{fuse-pad-with-consumers}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13 fuse-pad-with-consumers}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions' --split-input-file | filecheck %s --check-prefix=OFF

// fuse-pad-with-consumers: a pad joins the dispatch of the convolution reading it, also of a
// linalg.generic shaped as a convolution (MLIR's isaConvolutionOpInterface): an input
// indexed by sums of loops (d1 + d3), a filter and an output indexed by loops.

util.func public @pad_into_generic_conv(%x: tensor<1x4x3xf32>, %w: tensor<3x3x2xf32>, %init: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 0] high[0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %cst : f32
  } : tensor<1x4x3xf32> to tensor<1x6x3xf32>
  %conv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%padded, %w : tensor<1x6x3xf32>, tensor<3x3x2xf32>) outs(%init : tensor<1x4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2xf32>
  util.return %conv : tensor<1x4x2xf32>
}

// CHECK-LABEL: util.func public @pad_into_generic_conv
//       CHECK:   %[[D:.+]] = flow.dispatch.region
//  CHECK-NEXT:     %[[PADDED:.+]] = tensor.pad
//       CHECK:     %[[CONV:.+]] = linalg.generic
//  CHECK-SAME:         ins(%[[PADDED]], %{{.+}} :
//       CHECK:     flow.return %[[CONV]]
//       CHECK:   util.return %[[D]]

// OFF-LABEL: util.func public @pad_into_generic_conv
//       OFF:   flow.dispatch.region
//  OFF-NEXT:     tensor.pad
//       OFF:   flow.dispatch.region
//  OFF-NEXT:     linalg.generic

// -----

// A matmul-shaped generic (no loop convolved) is no convolution: the pad stays out.

util.func public @pad_not_into_other_generic(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>, %init: tensor<6x2xf32>) -> tensor<6x2xf32> {
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x3xf32> to tensor<6x3xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%padded, %w : tensor<6x3xf32>, tensor<3x2xf32>) outs(%init : tensor<6x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<6x2xf32>
  util.return %mm : tensor<6x2xf32>
}

// CHECK-LABEL: util.func public @pad_not_into_other_generic
//       CHECK:   flow.dispatch.region
//  CHECK-NEXT:     tensor.pad
//       CHECK:   flow.dispatch.region
//  CHECK-NEXT:     linalg.generic
