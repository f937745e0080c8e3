// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-annotate-data-tiling-hints{data-tiling-op-types=convolution},iree-dispatch-creation-set-encoding' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding' --split-input-file | filecheck %s --check-prefix=DEFAULT

// With convolutions among the data-tiling op types, a convolution gets conv encodings
// on its input, filter and output (its iteration sizes in IREE's loop order); by
// default, as in IREE, only matmuls are data-tiled.

util.func public @conv(%arg0: tensor<1x16x16x4xf32>, %arg1: tensor<3x3x4x8xf32>, %arg2: tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x16x16x4xf32>, tensor<3x3x4x8xf32>) outs(%arg2 : tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32>
  util.return %0 : tensor<1x14x14x8xf32>
}
// CHECK-DAG:   #[[$IN:.+]] = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iteration_sizes = [1, 14, 14, 8, 3, 3, 4]>
// CHECK-DAG:   #[[$F:.+]] = #iree_encoding.encoding<operand_index = 1 : index, op_type = conv,
// CHECK-DAG:   #[[$OUT:.+]] = #iree_encoding.encoding<operand_index = 2 : index, op_type = conv,
// CHECK-LABEL: util.func public @conv(
// CHECK:         %[[IN:.+]] = iree_encoding.set_encoding %arg0 : tensor<1x16x16x4xf32> -> tensor<1x16x16x4xf32, #[[$IN]]>
// CHECK:         %[[F:.+]] = iree_encoding.set_encoding %arg1 : tensor<3x3x4x8xf32> -> tensor<3x3x4x8xf32, #[[$F]]>
// CHECK:         %[[OUT:.+]] = iree_encoding.set_encoding %arg2 : tensor<1x14x14x8xf32> -> tensor<1x14x14x8xf32, #[[$OUT]]>
// CHECK:         %[[CONV:.+]] = linalg.conv_2d_nhwc_hwcf {{.+}} ins(%[[IN]], %[[F]] : {{.+}}) outs(%[[OUT]] : {{.+}})
// CHECK:         iree_encoding.unset_encoding %[[CONV]] : tensor<1x14x14x8xf32, #[[$OUT]]> -> tensor<1x14x14x8xf32>
// DEFAULT-LABEL: util.func public @conv(
// DEFAULT-NOT:     iree_encoding
