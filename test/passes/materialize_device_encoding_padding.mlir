// RUN: mini-iree-opt %s -p 'iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_padding}' --iree-gpu-test-target=gfx942 --split-input-file --verify-diagnostics | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_padding}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOCACHE

// Padding layouts (IREE's GPU padding resolver): the binding holds the padded tensor, a store writes
// the logical tensor into its corner, set_encoding disappears. The binding's `padding<[0, ?]>` is
// resolved for gfx942: 1000 x f32 rows (4000 bytes) grow by 56 elements.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @set_encoding_into_padded_binding() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32, #iree_encoding.padding<[0, ?]>>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [64, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x1000xf32>> -> tensor<64x1000xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<64x1000xf32> -> tensor<64x1000xf32, #iree_encoding.padding<[0, ?]>>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [64, 1000], strides = [1, 1] : tensor<64x1000xf32, #iree_encoding.padding<[0, ?]>> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32, #iree_encoding.padding<[0, ?]>>>
  return
}
// CHECK-LABEL: func.func @set_encoding_into_padded_binding()
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x1000xf32>>
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1056xf32>>
// CHECK:         %[[LD:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [0, 0], sizes = [64, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x1000xf32>> -> tensor<64x1000xf32>
// CHECK-NEXT:    iree_tensor_ext.dispatch.tensor.store %[[LD]], %[[OUT]], offsets = [0, 0], sizes = [64, 1000], strides = [1, 1] : tensor<64x1000xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1056xf32>>
// CHECK-NEXT:    return
// Without --iree-gpu-test-target the resolver knows no L1 cache and pads nothing.
// NOCACHE-LABEL: func.func @set_encoding_into_padded_binding()
// NOCACHE:         hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32>>
// NOCACHE:         iree_tensor_ext.dispatch.tensor.store %{{.+}}, %{{.+}}, offsets = [0, 0], sizes = [64, 1000], strides = [1, 1] : tensor<64x1000xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32>>

// -----

// A consumer: the padded LHS binding (serialized layout, dynamic rows) is read as a ?x1000 slice,
// unset_encoding disappears and the contraction runs on the logical shapes. The target comes from
// the executable variant, whose resolver is the padding one.

#executable_target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = none, mma = [<MFMA_F32_16x16x4_F32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>>}>
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#padded = #iree_encoding.layout<[#iree_encoding.padding<[0, 56]>]>
hal.executable private @ex {
  hal.executable.variant public @rocm target(#executable_target) {
    hal.executable.export public @consume ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @consume() {
        %c0 = arith.constant 0 : index
        %cst = arith.constant 0.000000e+00 : f32
        %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
        %1 = arith.index_castui %0 : i32 to index
        %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1000xf32, #padded>>{%1}
        %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000x24xf32>>
        %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x24xf32>>{%1}
        %5 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%1, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1000xf32, #padded>>{%1} -> tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>>
        %6 = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [1000, 24], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000x24xf32>> -> tensor<1000x24xf32>
        %7 = iree_encoding.unset_encoding %5 : tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>> -> tensor<?x1000xf32>{%1}
        %8 = tensor.empty(%1) : tensor<?x24xf32>
        %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<?x24xf32>) -> tensor<?x24xf32>
        %10 = linalg.matmul ins(%7, %6 : tensor<?x1000xf32>, tensor<1000x24xf32>) outs(%9 : tensor<?x24xf32>) -> tensor<?x24xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %4, offsets = [0, 0], sizes = [%1, 24], strides = [1, 1] : tensor<?x24xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x24xf32>>{%1}
        return
      }
    }
  }
}
// CHECK-LABEL: func.func @consume()
// CHECK:         %[[N:.+]] = arith.index_castui
// CHECK:         %[[LHS:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1056xf32>>{%[[N]]}
// CHECK:         %[[A:.+]] = iree_tensor_ext.dispatch.tensor.load %[[LHS]], offsets = [0, 0], sizes = [%[[N]], 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1056xf32>>{%[[N]]} -> tensor<?x1000xf32>
// CHECK:         %[[B:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK-NOT:     iree_encoding
// CHECK:         linalg.matmul ins(%[[A]], %[[B]] : tensor<?x1000xf32>, tensor<1000x24xf32>)
// NOCACHE-LABEL: func.func @consume()
// NOCACHE:         !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1056xf32>>

// -----

// A resolved zero padding is the plain tensor.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @zero_padding(%arg0: tensor<8x300xf16>) {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x300xf16, #iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>>>
  %1 = iree_encoding.set_encoding %arg0 : tensor<8x300xf16> -> tensor<8x300xf16, #iree_encoding.padding<[0, ?]>>
  iree_tensor_ext.dispatch.tensor.store %1, %0, offsets = [0, 0], sizes = [8, 300], strides = [1, 1] : tensor<8x300xf16, #iree_encoding.padding<[0, ?]>> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x300xf16, #iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>>>
  return
}
// CHECK-LABEL: func.func @zero_padding(
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x300xf16>>
// CHECK-NEXT:    iree_tensor_ext.dispatch.tensor.store %arg0, %[[OUT]], offsets = [0, 0], sizes = [8, 300], strides = [1, 1] : tensor<8x300xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x300xf16>>

// -----

// A pad on a dynamic dim has no static padded size: an error, not wrong IR.

#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @pad_on_dynamic_dim(%arg0: index, %arg1: tensor<?x300xf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hal.interface.binding.subspan' op cannot be materialized: padding a dynamic dim is not supported}}
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x300xf16, #iree_encoding.layout<[#iree_encoding.padding<[8, 0]>]>>>{%arg0}
  %1 = iree_encoding.set_encoding %arg1 : tensor<?x300xf16> -> tensor<?x300xf16, #iree_encoding.padding<[?, 0]>>
  iree_tensor_ext.dispatch.tensor.store %1, %0, offsets = [0, 0], sizes = [%arg0, 300], strides = [1, 1] : tensor<?x300xf16, #iree_encoding.padding<[?, 0]>> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x300xf16, #iree_encoding.layout<[#iree_encoding.padding<[8, 0]>]>>>{%arg0}
  return
}

// -----

// A partial, strided store into a padded binding keeps its offsets, sizes and strides: the padded
// binding holds its tensor row-major (IREE's padding resolver, getOffsetsSizesStrides).

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @strided_store_into_padded_binding() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32, #iree_encoding.padding<[0, ?]>>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [1, 0], sizes = [16, 500], strides = [2, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x1000xf32>> -> tensor<16x500xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<16x500xf32> -> tensor<16x500xf32, #iree_encoding.padding<[0, ?]>>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [3, 1], sizes = [16, 500], strides = [3, 2] : tensor<16x500xf32, #iree_encoding.padding<[0, ?]>> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32, #iree_encoding.padding<[0, ?]>>>
  return
}
// CHECK-LABEL: func.func @strided_store_into_padded_binding()
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1056xf32>>
// CHECK:         %[[LD:.+]] = iree_tensor_ext.dispatch.tensor.load %{{.+}}, offsets = [1, 0], sizes = [16, 500], strides = [2, 2]
// CHECK-NEXT:    iree_tensor_ext.dispatch.tensor.store %[[LD]], %[[OUT]], offsets = [3, 1], sizes = [16, 500], strides = [3, 2] : tensor<16x500xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1056xf32>>
// CHECK-NEXT:    return
// NOCACHE-LABEL: func.func @strided_store_into_padded_binding()
// NOCACHE:         iree_tensor_ext.dispatch.tensor.store %{{.+}}, %{{.+}}, offsets = [3, 1], sizes = [16, 500], strides = [3, 2] : tensor<16x500xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x1000xf32>>
