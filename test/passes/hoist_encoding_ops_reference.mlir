// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/02-set-encoding.after.mlir -p iree-dispatch-creation-hoist-encoding-ops | filecheck %s --check-prefix=WALK03
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/04-hoist-encoding-ops.local-propagation.before.mlir -p iree-dispatch-creation-hoist-encoding-ops | filecheck %s --check-prefix=WALK05
// RUN: mini-iree-opt %shared/reference/iree-3.13/dynamic-matmul/05_SetEncodingPass.mlir -p iree-dispatch-creation-hoist-encoding-ops | filecheck %s --check-prefix=DYN
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/05_SetEncodingPass.mlir -p iree-dispatch-creation-hoist-encoding-ops | filecheck %s --check-prefix=EWISE
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/05_SetEncodingPass.mlir -p iree-dispatch-creation-hoist-encoding-ops | filecheck %s --check-prefix=CONST

// The reference dumps in ../shared through the pass: the cases of hoist_encoding_ops.mlir that need
// ../shared/reference, skipped (UNSUPPORTED) where it is absent.

// Walkthrough dump 02 -> 03: both operand encodings leave the dispatch, the
// result encoding (on a tensor.empty) and the unset_encoding stay.
// WALK03:      #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// WALK03-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// WALK03-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// WALK03-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// WALK03-NEXT: #encoding1 = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}, user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// WALK03-NEXT: #encoding2 = #iree_encoding.encoding<operand_index = 2 : index, {{.*}}, user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// WALK03-LABEL: util.func public @matmul_f32f32f32
// WALK03:        %[[D0:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
// WALK03:        %[[LHS:.+]] = hal.tensor.import %arg0
// WALK03:        %[[D3:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index
// WALK03-NEXT:   %[[RHS:.+]] = hal.tensor.import %arg1
// WALK03-NEXT:   %[[SET_LHS:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// WALK03-NEXT:   %[[SET_RHS:.+]] = iree_encoding.set_encoding %[[RHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// WALK03-NEXT:   %[[DISPATCH:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[D0]], %[[D3]]}) {
// WALK03-NEXT:     %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// WALK03-NEXT:     %[[EMPTY:.+]] = tensor.empty(%[[D0]], %[[D3]]) : tensor<?x?xf32, #encoding2>
// WALK03-NEXT:     %[[FILL:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[EMPTY]] : tensor<?x?xf32, #encoding2>)
// WALK03-NEXT:     %[[MM:.+]] = linalg.matmul ins(%[[SET_LHS]], %[[SET_RHS]] : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%[[FILL]] : tensor<?x?xf32, #encoding2>)
// WALK03-NEXT:     %[[UNSET:.+]] = iree_encoding.unset_encoding %[[MM]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[D0]], %[[D3]]}
// WALK03-NEXT:     flow.return %[[UNSET]] : tensor<?x?xf32>
// WALK03-NEXT:   }
// WALK03-NEXT:   hal.tensor.export %[[DISPATCH]] "output0"

// Walkthrough dump 04 -> 05: the unset_encoding sinks into the broadcasting
// multiply, whose bias operand gets #encoding3 with the nested map chain
// [#map2, #map3]; then the three set_encoding ops (and the weight constant)
// are hoisted, in the order they appear in the dispatch.
// WALK05:      #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// WALK05-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// WALK05-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// WALK05-NEXT: #map3 = affine_map<(d0, d1) -> (d1)>
// WALK05-NEXT: #map4 = affine_map<(d0, d1) -> (d0, d1)>
// WALK05-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, {{.*}}, user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [255, 1023, 513]>
// WALK05-NEXT: #encoding1 = #iree_encoding.encoding<operand_index = 1 : index, {{.*}}, user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [255, 1023, 513]>
// WALK05-NEXT: #encoding2 = #iree_encoding.encoding<operand_index = 2 : index, {{.*}}, user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [255, 1023, 513]>
// WALK05-NEXT: #encoding3 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #map3]], iteration_sizes = [255, 1023, 513]>
// WALK05-LABEL: util.func public @foo
// WALK05-NEXT:   %[[A:.+]] = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<255x513xf32>
// WALK05-NEXT:   %[[BIAS:.+]] = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<1023xf32>
// WALK05-NEXT:   %[[SET_A:.+]] = iree_encoding.set_encoding %[[A]] : tensor<255x513xf32> -> tensor<255x513xf32, #encoding>
// WALK05-NEXT:   %[[W:.+]] = arith.constant dense<1.000000e+00> : tensor<513x1023xf32>
// WALK05-NEXT:   %[[SET_W:.+]] = iree_encoding.set_encoding %[[W]] : tensor<513x1023xf32> -> tensor<513x1023xf32, #encoding1>
// WALK05-NEXT:   %[[SET_BIAS:.+]] = iree_encoding.set_encoding %[[BIAS]] : tensor<1023xf32> -> tensor<1023xf32, #encoding3>
// WALK05-NEXT:   %[[DISPATCH:.+]] = flow.dispatch.region -> (tensor<255x1023xf32>) {
// WALK05-NEXT:     %[[INIT:.+]] = tensor.empty() : tensor<255x1023xf32, #encoding2>
// WALK05-NEXT:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// WALK05-NEXT:     %[[ACC:.+]] = tensor.empty() : tensor<255x1023xf32, #encoding2>
// WALK05-NEXT:     %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ACC]] : tensor<255x1023xf32, #encoding2>)
// WALK05-NEXT:     %[[MM:.+]] = linalg.matmul ins(%[[SET_A]], %[[SET_W]] : {{.*}}) outs(%[[FILL]] : tensor<255x1023xf32, #encoding2>)
// WALK05-NEXT:     %[[MUL:.+]] = linalg.generic {indexing_maps = [#map4, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %[[SET_BIAS]] : tensor<255x1023xf32, #encoding2>, tensor<1023xf32, #encoding3>) outs(%[[INIT]] : tensor<255x1023xf32, #encoding2>)
// WALK05:          arith.mulf
// WALK05:        } -> tensor<255x1023xf32, #encoding2>
// WALK05-NEXT:     %[[UNSET:.+]] = iree_encoding.unset_encoding %[[MUL]] : tensor<255x1023xf32, #encoding2> -> tensor<255x1023xf32>
// WALK05-NEXT:     flow.return %[[UNSET]] : tensor<255x1023xf32>
// WALK05-NEXT:   }

// IREE 3.13, dynamic matmul: the set_encoding ops leave with their
// encoding_dims, the tensor.dim chain moving out with them. The chain moves
// as IREE of August 2026 moves it: gathered breadth-first from the
// set_encoding (its operands in order: M, N, K, then their index constants)
// and moved in reverse, so the constants come first. IREE 3.13 moves the
// same ops in program order (c0, M, c1, N, c1, K): only the order differs.
// DYN-LABEL: util.func public @matmul_f32f32f32
// DYN:         %[[LHS:.+]] = iree_tensor_ext.compute_barrier.start
// DYN:         %[[RHS:.+]] = iree_tensor_ext.compute_barrier.start
// DYN-NEXT:    %[[C1B:.+]] = arith.constant 1 : index
// DYN-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// DYN-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// DYN-NEXT:    %[[K:.+]] = tensor.dim %[[LHS]], %[[C1B]]
// DYN-NEXT:    %[[N:.+]] = tensor.dim %[[RHS]], %[[C1]]
// DYN-NEXT:    %[[M:.+]] = tensor.dim %[[LHS]], %[[C0]]
// DYN-NEXT:    %[[SET_LHS:.+]] = iree_encoding.set_encoding %[[LHS]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// DYN-NEXT:    %[[SET_RHS:.+]] = iree_encoding.set_encoding %[[RHS]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// DYN-NEXT:    flow.dispatch.region
// DYN-NEXT:      arith.constant 0.000000e+00 : f32
// DYN-NEXT:      tensor.empty
// DYN-NEXT:      linalg.fill
// DYN-NEXT:      linalg.matmul ins(%[[SET_LHS]], %[[SET_RHS]] :
// DYN-NEXT:      iree_encoding.unset_encoding {{.*}} encoding_dims{%[[M]], %[[N]], %[[K]]}
// DYN-NEXT:      flow.return
// DYN-NEXT:    }

// IREE 3.13, matmul with elementwise producer and consumer. The producer is a
// dispatch of its own, so its set_encoding is hoisted as is; the consumer
// (add bias + relu) absorbs the unset_encoding and its bias gets the chained
// map. The data-tiling walkthrough places the encoded init where the plain
// tensor.empty was and keeps the init's sizes as the new unset_encoding's
// result dims; IREE 3.13 creates the init right before the consumer and
// builds fresh tensor.dim ops for those dims. The walkthrough's form is the
// one produced.
// EWISE-DAG:   #[[$MAP2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// EWISE-DAG:   #[[$BCAST:.+]] = affine_map<(d0, d1) -> (d1)>
// EWISE-DAG:   #[[$BIAS_ENC:.+]] = #iree_encoding.encoding<operand_index = 2 : index, {{.*}}, [#[[$MAP2]], #[[$BCAST]]]], iteration_sizes = [?, ?, ?]>
// EWISE-LABEL: util.func public @matmul_ew_both
// EWISE:         %[[N:.+]] = hal.buffer_view.dim<%arg2 : !hal.buffer_view>[1] : index
// EWISE:         %[[RHS:.+]] = iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?x?xf32>
// EWISE:         %[[BIAS:.+]] = iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?xf32>
// EWISE-NEXT:    %[[PRODUCER:.+]] = flow.dispatch.region
// EWISE:         %[[C1:.+]] = arith.constant 1 : index
// EWISE-NEXT:    %[[DIM:.+]] = tensor.dim %[[RHS]], %[[C1]]
// EWISE-NEXT:    %[[SET_LHS:.+]] = iree_encoding.set_encoding %[[PRODUCER]] encoding_dims{%[[M:.+]], %[[DIM]], %[[K:.+]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// EWISE-NEXT:    %[[SET_RHS:.+]] = iree_encoding.set_encoding %[[RHS]] encoding_dims{%[[M]], %[[DIM]], %[[K]]}
// EWISE-NEXT:    %[[SET_BIAS:.+]] = iree_encoding.set_encoding %[[BIAS]] encoding_dims{%[[M]], %[[DIM]], %[[K]]} : tensor<?xf32> -> tensor<?xf32, #[[$BIAS_ENC]]>
// EWISE-NEXT:    flow.dispatch.region -> (tensor<?x?xf32>{%[[M]], %[[N]]}) {
// EWISE-NEXT:      %[[INIT:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32, #encoding2>
// EWISE-NEXT:      arith.constant 0.000000e+00 : f32
// EWISE-NEXT:      tensor.empty
// EWISE-NEXT:      linalg.fill
// EWISE-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[SET_LHS]], %[[SET_RHS]] :
// EWISE-NEXT:      %[[GEN:.+]] = linalg.generic {{.*}} ins(%[[MM]], %[[SET_BIAS]] : tensor<?x?xf32, #encoding2>, tensor<?xf32, #[[$BIAS_ENC]]>) outs(%[[INIT]] : tensor<?x?xf32, #encoding2>)
// EWISE:           arith.maximumf
// EWISE:         } -> tensor<?x?xf32, #encoding2>
// EWISE-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding %[[GEN]] encoding_dims{%[[M]], %[[DIM]], %[[K]]} : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[M]], %[[N]]}
// EWISE-NEXT:      flow.return %[[UNSET]]

// IREE 3.13, matmul with a constant weight: the weight constant is already
// outside the dispatch; both set_encoding ops and the M dim leave.
// CONST-LABEL: util.func public @matmul_const
// CONST-NEXT:    %[[W:.+]] = arith.constant dense_resource<__elided__> : tensor<256x512xf32>
// CONST:         %[[LHS:.+]] = iree_tensor_ext.compute_barrier.start
// CONST-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CONST-NEXT:    %[[M:.+]] = tensor.dim %[[LHS]], %[[C0]]
// CONST-NEXT:    %[[SET_LHS:.+]] = iree_encoding.set_encoding %[[LHS]] encoding_dims{%[[M]]} : tensor<?x256xf32> -> tensor<?x256xf32, #encoding>
// CONST-NEXT:    %[[SET_W:.+]] = iree_encoding.set_encoding %[[W]] encoding_dims{%[[M]]} : tensor<256x512xf32> -> tensor<256x512xf32, #encoding1>
// CONST-NEXT:    flow.dispatch.region
// CONST-NEXT:      arith.constant 0.000000e+00 : f32
// CONST-NEXT:      tensor.empty
// CONST-NEXT:      linalg.fill
// CONST-NEXT:      linalg.matmul ins(%[[SET_LHS]], %[[SET_W]] :
// CONST-NEXT:      iree_encoding.unset_encoding
// CONST-NEXT:      flow.return
// CONST-NEXT:    }
