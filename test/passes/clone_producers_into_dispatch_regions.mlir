// RUN: mini-iree-opt %s -p iree-dispatch-creation-clone-producers-into-dispatch-regions --split-input-file | filecheck %s

// A fill of an empty tensor is recomputed in the dispatch, in topological
// order (tensor.empty, the constant, the fill); the originals, left unused, go.

util.func public @fill_init_cloned(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = flow.dispatch.region -> (tensor<4x16xf32>) {
    %3 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %3 : tensor<4x16xf32>
  }
  util.return %2 : tensor<4x16xf32>
}

// CHECK-LABEL: util.func public @fill_init_cloned(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8x16xf32>)
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[F]] : tensor<4x16xf32>)
// CHECK-NEXT:      flow.return %[[MM]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// One fill read by two dispatches: each gets its own copy.

util.func public @shared_fill_cloned_into_each(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = flow.dispatch.region -> (tensor<4x16xf32>) {
    %4 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %4 : tensor<4x16xf32>
  }
  %3 = flow.dispatch.region -> (tensor<4x16xf32>) {
    %4 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %4 : tensor<4x16xf32>
  }
  util.return %2, %3 : tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: util.func public @shared_fill_cloned_into_each(
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      linalg.fill
// CHECK-NEXT:      linalg.matmul
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      linalg.fill
// CHECK-NEXT:      linalg.matmul

// -----

// Tensor constants up to 256 bytes and splats are cloned; a 264-byte one is
// captured.

util.func public @constants_by_size(%x: tensor<4x2xf32>) -> tensor<4x33xf32> {
  %small = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %splat = arith.constant dense<1.0> : tensor<4x33xf32>
  %big = arith.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C4200004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C420000804200008242"> : tensor<2x33xf32>
  %0 = flow.dispatch.region -> (tensor<4x33xf32>) {
    %1 = linalg.matmul ins(%x, %big : tensor<4x2xf32>, tensor<2x33xf32>) outs(%splat : tensor<4x33xf32>) -> tensor<4x33xf32>
    flow.return %1 : tensor<4x33xf32>
  }
  util.return %0 : tensor<4x33xf32>
}

// CHECK-LABEL: util.func public @constants_by_size(
// CHECK-NEXT:    %[[BIG:.+]] = arith.constant dense<{{.+}}> : tensor<2x33xf32>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[SPLAT:.+]] = arith.constant dense<1.000000e+00> : tensor<4x33xf32>
// CHECK-NEXT:      linalg.matmul ins(%{{.+}}, %[[BIG]] : {{.+}}) outs(%[[SPLAT]] :

// -----

// An index the region op reads as a result size is a host-side shape: it stays
// outside, and the tensor.empty cloned in reads it from there.

util.func public @result_size_stays_outside(%a: tensor<4xf32>) -> tensor<?xf32> {
  %c4 = arith.constant 4 : index
  %0 = tensor.empty(%c4) : tensor<?xf32>
  %1 = flow.dispatch.region -> (tensor<?xf32>{%c4}) {
    %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<?xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    flow.return %2 : tensor<?xf32>
  }
  util.return %1 : tensor<?xf32>
}

// CHECK-LABEL: util.func public @result_size_stays_outside(
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    flow.dispatch.region -> (tensor<?xf32>{%[[C4]]}) {
// CHECK-NEXT:      tensor.empty(%[[C4]]) : tensor<?xf32>
// CHECK-NEXT:      linalg.generic

// -----

// A bit extend (dequantization) is recomputed in the dispatch that reads it.
// Scalar arithmetic on integers and floats is cloned; on index it is not.

util.func public @bit_extend_and_scalars(%w: tensor<4x8xi8>, %b: tensor<8x16xf32>, %s: i32, %n: index) -> (tensor<4x16xf32>, index) {
  %cst = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1 : i32
  %t = arith.addi %s, %one : i32
  %f = arith.sitofp %t : i32 to f32
  %m = arith.addi %n, %n : index
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x8xi8>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: i8, %o: f32):
    %e = arith.sitofp %x : i8 to f32
    %g = arith.mulf %e, %f : f32
    linalg.yield %g : f32
  } -> tensor<4x8xf32>
  %2 = tensor.empty() : tensor<4x16xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %4 = flow.dispatch.region -> (tensor<4x16xf32>) {
    %5 = linalg.matmul ins(%1, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%3 : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %5 : tensor<4x16xf32>
  }
  util.return %4, %m : tensor<4x16xf32>, index
}

// CHECK-LABEL: util.func public @bit_extend_and_scalars(
// CHECK-SAME:      %[[W:[^:]+]]: tensor<4x8xi8>
// CHECK-NEXT:    %[[M:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-DAG:       arith.addi %{{.+}}, %{{.+}} : i32
// CHECK-DAG:       arith.sitofp %{{.+}} : i32 to f32
// CHECK-DAG:       %[[F:.+]] = linalg.fill
// CHECK:           %[[EXT:.+]] = linalg.generic {{.+}} ins(%[[W]] : tensor<4x8xi8>)
// CHECK:           linalg.matmul ins(%[[EXT]], %{{.+}} : {{.+}}) outs(%[[F]] :
// CHECK:         util.return %[[R]], %[[M]]

// -----

// A bit extend also returned stays needed outside: it gets a dispatch of its
// own (with its tensor.empty cloned in), and the consumer's dispatch still
// recomputes it.

util.func public @bit_extend_also_returned(%w: tensor<4x8xi8>, %b: tensor<8x16xf32>, %init: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x8xi8>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: i8, %o: f32):
    %e = arith.sitofp %x : i8 to f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %2 = flow.dispatch.region -> (tensor<4x16xf32>) {
    %3 = linalg.matmul ins(%1, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %3 : tensor<4x16xf32>
  }
  util.return %2, %1 : tensor<4x16xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: util.func public @bit_extend_also_returned(
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[OWN:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NEXT:      %[[E1:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:      %[[G:.+]] = linalg.generic {{.+}} outs(%[[E1]] : tensor<4x8xf32>)
// CHECK:           flow.return %[[G]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MM:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[G2:.+]] = linalg.generic
// CHECK:           linalg.matmul ins(%[[G2]], %{{.+}} :
// CHECK:         util.return %[[MM]], %[[OWN]]

// -----

// Never cloned: tensor.insert_slice, ops of other dialects, and the
// destination of a tensor.insert_slice in the region.

util.func public @never_cloned(%v: !hal.buffer_view, %a: tensor<4xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.tensor.import %v "input" : !hal.buffer_view -> tensor<4xf32>
  %1 = tensor.insert_slice %0 into %b[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %2 = tensor.empty() : tensor<8xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<8xf32>) -> tensor<8xf32>
  %4 = flow.dispatch.region -> (tensor<8xf32>) {
    %5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1 : tensor<8xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    flow.return %5 : tensor<8xf32>
  }
  %6 = flow.dispatch.region -> (tensor<8xf32>) {
    %7 = tensor.insert_slice %a into %3[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
    flow.return %7 : tensor<8xf32>
  }
  util.return %4, %6 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: util.func public @never_cloned(
// CHECK:         %[[IMPORT:.+]] = hal.tensor.import
// CHECK-NEXT:    %[[INSERT:.+]] = tensor.insert_slice %[[IMPORT]]
// CHECK:         %[[FILL:.+]] = linalg.fill
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[INSERT]] :
// CHECK:         flow.dispatch.region
// CHECK-NEXT:      tensor.insert_slice %{{.+}} into %[[FILL]]

// -----

// An unset_encoding is recomputed in its consumer's dispatch.

#enc = #iree_encoding.testing<>
util.func public @unset_encoding_cloned(%a: tensor<4x8xf32, #enc>) -> tensor<4x8xf32> {
  %0 = iree_encoding.unset_encoding %a : tensor<4x8xf32, #enc> -> tensor<4x8xf32>
  %1 = tensor.empty() : tensor<4x8xf32>
  %2 = flow.dispatch.region -> (tensor<4x8xf32>) {
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%1 : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    flow.return %3 : tensor<4x8xf32>
  }
  util.return %2 : tensor<4x8xf32>
}

// CHECK-LABEL: util.func public @unset_encoding_cloned(
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[E:.+]] = tensor.empty
// CHECK-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[U]] : tensor<4x8xf32>) outs(%[[E]] :

// -----

// As in IREE, every trivially dead op of the function is erased, also one the
// cloning did not touch.

util.func public @dead_ops_erased(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %unused = arith.muli %n, %n : index
  %0 = tensor.empty() : tensor<4xf32>
  %1 = flow.dispatch.region -> (tensor<4xf32>) {
    %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    flow.return %2 : tensor<4xf32>
  }
  util.return %1 : tensor<4xf32>
}

// CHECK-LABEL: util.func public @dead_ops_erased(
// CHECK-NOT:     arith.muli
// CHECK:         flow.dispatch.region

// -----

// A linalg.generic outside any dispatch gets one, even without a dispatch to clone into.

util.func public @lone_generic_wrapped(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %1 : tensor<4xf32>
}

// CHECK-LABEL: util.func public @lone_generic_wrapped(
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// CHECK-NEXT:      %[[E:.+]] = tensor.empty
// CHECK-NEXT:      linalg.generic {{.+}} outs(%[[E]] :
// CHECK:         util.return %[[R]]
