// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/07-hoist-into-globals.before.mlir -p iree-util-hoist-into-globals | filecheck %s --check-prefix=WALK
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/08_ConvertEncodingToFlowPass.mlir -p iree-util-hoist-into-globals | filecheck %s --check-prefix=CONST
// RUN: mini-iree-opt %shared/reference/iree-3.13/dynamic-matmul/08_ConvertEncodingToFlowPass.mlir -p iree-util-hoist-into-globals | filecheck %s --check-prefix=DYN

// The reference dumps in ../shared through the pass: the cases of hoist_into_globals.mlir that need
// ../shared/reference, skipped (UNSUPPORTED) where it is absent.

// WALK:      #encoding = #iree_encoding.encoding<operand_index = 1 : index
// WALK:      module {
// WALK-NEXT:   util.global private @__hoisted_tensor_513x1023xf32__encoded : tensor<513x1023xf32, #encoding>
// WALK-NEXT:   util.initializer {
// WALK-NEXT:     %cst = arith.constant dense<1.000000e+00> : tensor<513x1023xf32>
// WALK-NEXT:     %0 = flow.tensor.encode %cst : tensor<513x1023xf32> -> tensor<513x1023xf32, #encoding>
// WALK-NEXT:     util.global.store %0, @__hoisted_tensor_513x1023xf32__encoded : tensor<513x1023xf32, #encoding>
// WALK-NEXT:     util.return
// WALK-NEXT:   }
// WALK-NEXT:   util.func public @foo(
// WALK-NEXT:     %0 = hal.tensor.import %arg0
// WALK-NEXT:     %1 = hal.tensor.import %arg1
// WALK-NEXT:     %2 = flow.tensor.encode %0
// WALK-NEXT:     %__hoisted_tensor_513x1023xf32__encoded = util.global.load immutable @__hoisted_tensor_513x1023xf32__encoded : tensor<513x1023xf32, #encoding>
// WALK-NEXT:     %3 = flow.tensor.encode %1
// WALK-NEXT:     %4 = flow.dispatch.region
// WALK-NEXT:       %6 = tensor.empty()
// WALK-NEXT:       %cst = arith.constant 0.000000e+00 : f32
// WALK-NEXT:       %7 = linalg.fill ins(%cst : f32)
// WALK-NEXT:       %8 = linalg.matmul ins(%2, %__hoisted_tensor_513x1023xf32__encoded :

// CONST:      util.global private @__hoisted_tensor_256x512xf32__encoded : tensor<256x512xf32, #encoding>
// CONST-NEXT: util.initializer {
// CONST-NEXT:   %cst = arith.constant dense_resource<__elided__> : tensor<256x512xf32>
// CONST-NEXT:   %0 = flow.tensor.encode %cst : tensor<256x512xf32> -> tensor<256x512xf32, #encoding>
// CONST-NEXT:   util.global.store %0, @__hoisted_tensor_256x512xf32__encoded : tensor<256x512xf32, #encoding>
// CONST-NEXT:   util.return
// CONST-NEXT: }
// CONST:      util.func public @matmul_const(
// CONST-NOT:    arith.constant dense_resource
// CONST:        %3 = flow.tensor.encode %2 : tensor<?x256xf32>{%dim_1} -> tensor<?x256xf32, #encoding1>{%dim_1}
// CONST-NEXT:   %__hoisted_tensor_256x512xf32__encoded = util.global.load immutable @__hoisted_tensor_256x512xf32__encoded
// CONST-NEXT:   %4 = flow.dispatch.region
// CONST-NEXT:     %cst = arith.constant 0.000000e+00 : f32
// CONST:          linalg.matmul ins(%3, %__hoisted_tensor_256x512xf32__encoded :

// DYN-NOT:  util.global
// DYN-NOT:  util.initializer
// DYN:      util.func public @matmul_f32f32f32(
// DYN:        %c0 = arith.constant 0 : index
// DYN:        flow.tensor.encode %3
// DYN:        flow.tensor.encode %7
// DYN-NOT:  util.global.load
