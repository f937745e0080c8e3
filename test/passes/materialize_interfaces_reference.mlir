// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/17-materialize-encodings.after.mlir \
// RUN:   -p iree-stream-annotate-dispatch-assumptions,iree-stream-pack-dispatch-operands,iree-hal-materialize-interfaces \
// RUN:   --mlir-print-local-scope | filecheck %s

// Walkthrough dump 17 through the three passes alone, on its stream.async.dispatch
// sites: every resource is its own binding at offset 0 (the matmul: 3 bindings, 8
// constants) and the encode dispatch passes `%0, %1, %0, %1` as four operands. The
// data-tiling-codegen pipeline first schedules and allocates the work, fuses bindings
// and folds uniform operands (iree-stream-schedule-allocation ...
// iree-stream-fold-uniform-operands), which gives dumps 18/19's 2 bindings with 10 and
// 4 constants (test_fold_uniform_operands.py, test_fuse_dispatch_bindings.py).

// CHECK-LABEL: hal.executable private @matmul_f32f32f32_dispatch_0 {
// CHECK-NEXT:    hal.executable.variant public @rocm_hsaco_fb target(#hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip"
// CHECK-NEXT:      hal.executable.export public @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32 ordinal(0) layout(#hal.pipeline.layout<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> (index, index, index) {
// CHECK-NEXT:        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2, %arg3, %arg4)
// CHECK-NEXT:        hal.return %x, %y, %z : index, index, index
// CHECK:           func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32() {
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(4) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(5) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(6) : i32
// CHECK-NEXT:        hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(7) : i32
// CHECK:             %[[M:.+]]:4 = util.assume.int
// CHECK:             %[[D0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[M]]#0, 0 : index
// CHECK-NEXT:        %[[D1:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[M]]#1, 1 : index
// CHECK-NEXT:        %[[D2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[M]]#2, 2 : index
// CHECK-NEXT:        %[[D3:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[M]]#3, 3 : index
// CHECK-NEXT:        hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #iree_encoding.layout<{{.+}}>>>{%[[D0]], %[[D1]]}
// CHECK-NEXT:        hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #iree_encoding.layout<{{.+}}>>>{%[[D2]], %[[D3]]}
// CHECK-NEXT:        hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[D0]], %[[D3]]}

// The encode dispatch, as walkthrough dump 19 starts (its push constants, the i32 pairs
// joined back into indices, the assumptions, the workload ordinals and subspans).
// CHECK-LABEL: hal.executable private @_encoding_0 {
// CHECK-NEXT:    hal.executable.variant public @rocm_hsaco_fb target(#hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip"
// CHECK-NEXT:      hal.executable.export public @_encoding_0_encode_DxDxf32_to_DxDxf32 ordinal(0) layout(#hal.pipeline.layout<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> (index, index, index) {
// CHECK:           func.func @_encoding_0_encode_DxDxf32_to_DxDxf32() {
// CHECK-NEXT:        %[[P0:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
// CHECK-NEXT:        %[[P1:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
// CHECK-NEXT:        %[[P2:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
// CHECK-NEXT:        %[[P3:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
// CHECK-NEXT:        %[[P4:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(4) : i32
// CHECK-NEXT:        %[[P5:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(5) : i32
// CHECK-NEXT:        %[[P6:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(6) : i32
// CHECK-NEXT:        %[[P7:.+]] = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(7) : i32
// CHECK-NEXT:        %c32_i64 = arith.constant 32 : i64
// CHECK-NEXT:        %[[LO0:.+]] = arith.extui %[[P0]] : i32 to i64
// CHECK-NEXT:        %[[HI0:.+]] = arith.extui %[[P1]] : i32 to i64
// CHECK-NEXT:        %[[SH0:.+]] = arith.shli %[[HI0]], %c32_i64 : i64
// CHECK-NEXT:        %[[OR0:.+]] = arith.ori %[[LO0]], %[[SH0]] : i64
// CHECK-NEXT:        %[[I0:.+]] = arith.index_castui %[[OR0]] : i64 to index
// CHECK-NEXT:        %[[LO1:.+]] = arith.extui %[[P2]] : i32 to i64
// CHECK-NEXT:        %[[HI1:.+]] = arith.extui %[[P3]] : i32 to i64
// CHECK-NEXT:        %[[SH1:.+]] = arith.shli %[[HI1]], %c32_i64 : i64
// CHECK-NEXT:        %[[OR1:.+]] = arith.ori %[[LO1]], %[[SH1]] : i64
// CHECK-NEXT:        %[[I1:.+]] = arith.index_castui %[[OR1]] : i64 to index
// CHECK-NEXT:        %[[LO2:.+]] = arith.extui %[[P4]] : i32 to i64
// CHECK-NEXT:        %[[HI2:.+]] = arith.extui %[[P5]] : i32 to i64
// CHECK-NEXT:        %[[SH2:.+]] = arith.shli %[[HI2]], %c32_i64 : i64
// CHECK-NEXT:        %[[OR2:.+]] = arith.ori %[[LO2]], %[[SH2]] : i64
// CHECK-NEXT:        %[[I2:.+]] = arith.index_castui %[[OR2]] : i64 to index
// CHECK-NEXT:        %[[LO3:.+]] = arith.extui %[[P6]] : i32 to i64
// CHECK-NEXT:        %[[HI3:.+]] = arith.extui %[[P7]] : i32 to i64
// CHECK-NEXT:        %[[SH3:.+]] = arith.shli %[[HI3]], %c32_i64 : i64
// CHECK-NEXT:        %[[OR3:.+]] = arith.ori %[[LO3]], %[[SH3]] : i64
// CHECK-NEXT:        %[[I3:.+]] = arith.index_castui %[[OR3]] : i64 to index
// CHECK-NEXT:        %[[A:.+]]:4 = util.assume.int
// CHECK-NEXT:            %[[I0]]<umin = 0, umax = 9007199254740991>,
// CHECK-NEXT:            %[[I1]]<umin = 0, umax = 9007199254740991>,
// CHECK-NEXT:            %[[I2]]<umin = 0, umax = 9007199254740991>,
// CHECK-NEXT:            %[[I3]]<umin = 0, umax = 9007199254740991>
// CHECK-NEXT:          : index, index, index, index
// CHECK-NEXT:        %[[W0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]]#0, 0 : index
// CHECK-NEXT:        %[[W1:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]]#1, 1 : index
// CHECK-NEXT:        %[[W2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]]#2, 2 : index
// CHECK-NEXT:        %[[W3:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A]]#3, 3 : index
// CHECK-NEXT:        %c0 = arith.constant 0 : index
// CHECK-NEXT:        %[[IN:.+]] = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%[[W0]], %[[W1]]}
// CHECK-NEXT:        %[[OUT:.+]] = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #iree_encoding.layout<{{.+}}>>>{%[[W2]], %[[W3]]}
// CHECK-NEXT:        iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [0, 0], sizes = [%[[W0]], %[[W1]]], strides = [1, 1]
// CHECK-NEXT:        iree_encoding.set_encoding
// CHECK-NEXT:        iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[OUT]], offsets = [0, 0], sizes = [%[[W2]], %[[W3]]], strides = [1, 1]

// CHECK-LABEL: hal.executable private @_encoding_1 {

// The host passes each index as its low and high words and dispatches the variants.
// CHECK-LABEL: util.func public @matmul_f32f32f32(
// CHECK:         stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_0::@rocm_hsaco_fb::@_encoding_0_encode_DxDxf32_to_DxDxf32[%0, %1, %0, %1](%{{.+}}[%{{.+}} to %{{.+}} for %{{.+}}], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (!stream.resource<*>{%{{.+}}}, i32, i32, i32, i32, i32, i32, i32, i32) -> !stream.resource<*>{%{{.+}}}
// CHECK:         stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_1::@rocm_hsaco_fb::@_encoding_1_encode_DxDxf32_to_DxDxf32
// CHECK:         stream.async.dispatch on(#hal.device.affinity<@__device_0>) @matmul_f32f32f32_dispatch_0::@rocm_hsaco_fb::@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32
