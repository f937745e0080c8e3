// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/06_HoistEncodingOpsPass.mlir -p iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass | filecheck %s --check-prefix=EW313

// The reference dumps in ../shared through the pass: the cases of fuse_encoding_ops_into_dispatch_regions.mlir that need
// ../shared/reference, skipped (UNSUPPORTED) where it is absent.

// IREE 3.13, elementwise-producer-consumer, 06 -> 07: the LHS set_encoding
// joins the elementwise producer, whose only result becomes the encoded LHS;
// the `%dim` it needs moves above the region. The other two set_encodings read
// imported tensors and stay.
// EW313-LABEL: util.func public @matmul_ew_both(
// EW313:         hal.tensor.import %{{.+}} "input2"
// EW313-NEXT:    %[[B:.+]] = iree_tensor_ext.compute_barrier.start
// EW313-NEXT:    hal.buffer_view.dim
// EW313-NEXT:    hal.tensor.import
// EW313-NEXT:    iree_tensor_ext.compute_barrier.start
// EW313-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// EW313-NEXT:    %[[DIM:.+]] = tensor.dim %[[B]], %[[C1]]
// EW313-NEXT:    %[[LHS:.+]] = flow.dispatch.region -> (tensor<?x?xf32, #encoding>{%[[M:.+]], %[[K:.+]]}) {
// EW313-NEXT:      tensor.empty
// EW313-NEXT:      %[[G:.+]] = linalg.generic
// EW313:           } -> tensor<?x?xf32>
// EW313-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[G]] encoding_dims{%[[M]], %[[DIM]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// EW313-NEXT:      flow.return %[[SET]] : tensor<?x?xf32, #encoding>
// EW313-NEXT:    }
// EW313-NEXT:    arith.constant 1 : index
// EW313-NEXT:    tensor.dim
// EW313-NEXT:    %[[RHS:.+]] = iree_encoding.set_encoding %[[B]]
// EW313-NEXT:    %[[BIAS:.+]] = iree_encoding.set_encoding
// EW313-NEXT:    flow.dispatch.region
// EW313:           linalg.matmul ins(%[[LHS]], %[[RHS]] :
