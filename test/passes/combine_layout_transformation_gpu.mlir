// REQUIRES: shared
// iree-codegen-gpu-combine-layout-transformation on the walkthrough's relayout dispatch
// (dump 21 -> dump 23): the map_scatter of the plain pass, and each padded dimension's
// loops distributed to workgroups (dim 0 on x) and, inside, to single threads
// (linear_dim_1, linear_dim_0), each thread running a unit scf.for nest.
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/21-bufferize-dispatch-tensor-load-store.relayout.after.mlir -p iree-codegen-gpu-combine-layout-transformation | filecheck %s
// The data-tiling pipeline gives gfx942's executables the same form (dump 23), with
// dump 21's two deduplicated assumptions; a CPU target keeps the plain pass's loops.
// RUN: mini-iree-opt %examples/matmul.mlir -p 'data-tiling{target=gfx942}' | filecheck %s --check-prefixes=CHECK,PIPELINE
// RUN: mini-iree-opt %examples/matmul.mlir -p 'data-tiling{target=x86_64:+avx512f}' | filecheck %s --check-prefix=CPU

// CHECK-DAG:   #[[$MIN:.+]] = affine_map<(d0)[s0] -> (d0 + 1, s0)>
// CHECK-DAG:   #[[$MIN64:.+]] = affine_map<(d0)[s0] -> (d0 + 64, s0)>
// CHECK-DAG:   #[[$TMIN:.+]] = affine_map<(d0, d1) -> (d0 + 1, d1)>
// CHECK-LABEL: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32()
// PIPELINE:      %[[A:.+]]:2 = util.assume.int
// PIPELINE-NEXT:   %{{.+}}<umin = 0, umax = 9007199254740991>,
// PIPELINE-NEXT:   %{{.+}}<umin = 0, umax = 9007199254740991>
// PIPELINE-NEXT: : index, index
// PIPELINE-NEXT: %[[M:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]]#0, 0 : index
// PIPELINE-NEXT: %[[K:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]]#1, 1 : index
// PIPELINE-NEXT: iree_tensor_ext.dispatch.workload.ordinal %[[A]]#0, 2 : index
// PIPELINE-NEXT: iree_tensor_ext.dispatch.workload.ordinal %[[A]]#1, 3 : index
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.generic
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[MS:.+]] = iree_linalg_ext.map_scatter
// CHECK:         iree_codegen.store_to_buffer %[[MS]], %[[OUT]]
// CHECK-NEXT:    %[[PM:.+]] = affine.apply #{{.+}}()[%{{.+}}, %{{.+}}, %{{.+}}]
// CHECK-NEXT:    %[[PK:.+]] = affine.apply #{{.+}}()[%{{.+}}, %{{.+}}, %{{.+}}]
// CHECK-NEXT:    scf.forall (%[[WI:.+]], %[[WJ:.+]]) = (%{{.+}}, 0) to (%[[PM]], %[[PK]]) step (1, 64) {
// CHECK-NEXT:      %[[UI:.+]] = affine.min #[[$MIN]](%[[WI]])[%[[PM]]]
// CHECK-NEXT:      %[[UJ:.+]] = affine.min #[[$MIN64]](%[[WJ]])[%[[PK]]]
// CHECK-NEXT:      scf.forall (%[[TI:.+]], %[[TJ:.+]]) = (%[[WI]], %[[WJ]]) to (%[[UI]], %[[UJ]]) step (1, 1) {
// CHECK-NEXT:        %[[VI:.+]] = affine.min #[[$TMIN]](%[[TI]], %[[UI]])
// CHECK-NEXT:        %[[VJ:.+]] = affine.min #[[$TMIN]](%[[TJ]], %[[UJ]])
// CHECK-NEXT:        scf.for %[[I:.+]] = %[[TI]] to %[[VI]] step %{{.+}} {
// CHECK-NEXT:          scf.for %[[J:.+]] = %[[TJ]] to %[[VJ]] step %{{.+}} {
// CHECK-NEXT:            affine.linearize_index disjoint [%[[I]], %[[J]]]
// CHECK-NEXT:            affine.delinearize_index
// CHECK-NEXT:            affine.linearize_index
// CHECK-NEXT:            %[[D:.+]]:7 = affine.delinearize_index
// CHECK-NEXT:            scf.if %{{.+}} {
// CHECK-NEXT:              memref.store %{{.+}}, %[[OUT]][%[[D]]#0, %[[D]]#1, %[[D]]#3, %[[D]]#6, %[[D]]#2, %[[D]]#4, %[[D]]#5]
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK-NEXT:    } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>]}
// CHECK-NEXT:    scf.forall (%{{.+}}, %{{.+}}) = (0, %{{.+}}) to (%[[PM]], %[[PK]]) step (1, 64) {
// CHECK:           scf.forall
// CHECK:           } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK-NEXT:    } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>]}
// CHECK-NEXT:    return

// CPU-LABEL:   func.func @_encoding_0_encode_DxDxf32_to_DxDxf32()
// CPU:           %{{.+}}:4 = util.assume.int
// CPU:           scf.forall
// CPU-NOT:       gpu.thread
// CPU:           } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
// CPU-LABEL:   func.func @_encoding_1_
