// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/03-hoist-encoding-ops.after.mlir -p iree-dispatch-creation-convert-encoding-to-flow,canonicalize | filecheck %s --check-prefix=SEED
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/07_FuseEncodingOpsIntoDispatchRegionsPass.mlir -p iree-dispatch-creation-convert-encoding-to-flow | filecheck %s --check-prefix=EW313

// The reference dumps in ../shared through the pass: the cases of convert_encoding_to_flow.mlir that need
// ../shared/reference, skipped (UNSUPPORTED) where it is absent.

// Walkthrough dump 03 -> 06 (convert-encoding-to-flow, then canonicalize):
// line for line, `%cst` moved to the top of the function as MLIR's
// canonicalizer places constants.
// SEED-LABEL: util.func public @matmul_f32f32f32(
// SEED-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// SEED-NEXT:    %[[D0:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
// SEED-NEXT:    %[[D1:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
// SEED-NEXT:    %[[A:.+]] = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%[[D0]], %[[D1]]}
// SEED-NEXT:    %[[D3:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[0] : index
// SEED-NEXT:    %[[D4:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index
// SEED-NEXT:    %[[B:.+]] = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<?x?xf32>{%[[D3]], %[[D4]]}
// SEED-NEXT:    %[[LHS:.+]] = flow.tensor.encode %[[A]] : tensor<?x?xf32>{%[[D0]], %[[D1]]} -> tensor<?x?xf32, #encoding>{%[[D0]], %[[D1]]}
// SEED-NEXT:    %[[RHS:.+]] = flow.tensor.encode %[[B]] : tensor<?x?xf32>{%[[D3]], %[[D4]]} -> tensor<?x?xf32, #encoding1>{%[[D3]], %[[D4]]}
// SEED-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[D0]], %[[D4]]}) {
// SEED-NEXT:      %[[E:.+]] = tensor.empty(%[[D0]], %[[D4]]) : tensor<?x?xf32, #encoding2>
// SEED-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// SEED-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%[[F]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// SEED-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[MM]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[D0]], %[[D4]]}
// SEED-NEXT:      flow.return %[[U]] : tensor<?x?xf32>
// SEED-NEXT:    }
// SEED-NEXT:    %[[X:.+]] = hal.tensor.export %[[R]] "output0" : tensor<?x?xf32>{%[[D0]], %[[D4]]} -> !hal.buffer_view
// SEED-NEXT:    util.return %[[X]] : !hal.buffer_view

// IREE 3.13, elementwise-producer-consumer, 07 -> 08: the two set_encodings
// left outside dispatches become flow.tensor.encode in place; the one fused
// into the producer dispatch stays. IREE builds fresh tensor.dim ops for the
// sizes (folded by a later canonicalize); the sizes the compute barriers
// already carry are reused here.
// EW313-LABEL: util.func public @matmul_ew_both(
// EW313:         hal.tensor.import %{{.+}} "input2"
// EW313-NEXT:    %[[W:.+]] = iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?x?xf32>{%[[W0:.+]], %[[W1:.+]]} -> tensor<?x?xf32>
// EW313:         hal.tensor.import %{{.+}} "input3"
// EW313-NEXT:    %[[V:.+]] = iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?xf32>{%[[V0:.+]]} -> tensor<?xf32>
// EW313:         flow.dispatch.region -> (tensor<?x?xf32, #encoding>{%{{.+}}, %{{.+}}}) {
// EW313:           iree_encoding.set_encoding
// EW313-NEXT:      flow.return
// EW313-NEXT:    }
// EW313-NEXT:    arith.constant 1 : index
// EW313-NEXT:    tensor.dim
// EW313-NEXT:    %[[RHS:.+]] = flow.tensor.encode %[[W]] : tensor<?x?xf32>{%[[W0]], %[[W1]]} -> tensor<?x?xf32, #encoding1>{%[[W0]], %[[W1]]}
// EW313-NEXT:    %[[BIAS:.+]] = flow.tensor.encode %[[V]] : tensor<?xf32>{%[[V0]]} -> tensor<?xf32, #encoding3>{%[[V0]]}
// EW313-NEXT:    flow.dispatch.region
// EW313:           linalg.matmul ins(%{{.+}}, %[[RHS]] :
// EW313:           iree_encoding.unset_encoding
