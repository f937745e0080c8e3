// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The walkthrough's dispatch region: dynamic result extents after the type.

func.func @dispatch_region(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: index, %arg3: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{%arg2, %arg3}) {
    %1 = "test.op"(%arg0, %arg1) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    flow.return %1 : tensor<?x?xf32>
  }
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @dispatch_region(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%arg2, %arg3}) {
// CHECK:           %[[V:.+]] = "test.op"(%arg0, %arg1)
// CHECK:           flow.return %[[V]] : tensor<?x?xf32>
// CHECK:         }
// CHECK:         return %[[R]]

// -----

func.func @dispatch_region_static(%arg0: tensor<255x1023xf32>) -> tensor<255x1023xf32> {
  %0 = flow.dispatch.region -> (tensor<255x1023xf32>) {
    flow.return %arg0 : tensor<255x1023xf32>
  }
  return %0 : tensor<255x1023xf32>
}
// CHECK-LABEL: func.func @dispatch_region_static(
// CHECK:         flow.dispatch.region -> (tensor<255x1023xf32>) {
// CHECK-NEXT:      flow.return %arg0 : tensor<255x1023xf32>

// -----

// An operand-less flow.return is implied and not printed.

func.func @dispatch_region_no_results() {
  flow.dispatch.region -> () {
    "test.op"() : () -> ()
    flow.return
  }
  return
}
// CHECK-LABEL: func.func @dispatch_region_no_results(
// CHECK:         flow.dispatch.region -> () {
// CHECK-NEXT:      "test.op"() : () -> ()
// CHECK-NEXT:    }

// -----

func.func @dispatch_region_multiple_results(%arg0: tensor<?xf32>, %arg1: tensor<4xf32>, %arg2: index) -> (tensor<?xf32>, tensor<4xf32>) {
  %0:2 = flow.dispatch.region -> (tensor<?xf32>{%arg2}, tensor<4xf32>) {
    flow.return %arg0, %arg1 : tensor<?xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<?xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @dispatch_region_multiple_results(
// CHECK:         %{{.+}}:2 = flow.dispatch.region -> (tensor<?xf32>{%arg2}, tensor<4xf32>) {
// CHECK-NEXT:      flow.return %arg0, %arg1 : tensor<?xf32>, tensor<4xf32>

// -----

// A workload and the region computing the workgroup count from it.

func.func @dispatch_region_workload(%arg0: tensor<?x16xf32>, %arg1: index, %arg2: index) -> tensor<?x16xf32> {
  %0 = flow.dispatch.region[%arg1, %arg2] -> (tensor<?x16xf32>{%arg1}) attributes {tag} {
    flow.return %arg0 : tensor<?x16xf32>
  } count(%arg3: index, %arg4: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg3, %arg4)
    flow.return %x, %y, %z : index, index, index
  }
  return %0 : tensor<?x16xf32>
}
// CHECK-LABEL: func.func @dispatch_region_workload(
// CHECK:         flow.dispatch.region[%arg1, %arg2] -> (tensor<?x16xf32>{%arg1}) attributes {tag} {
// CHECK-NEXT:      flow.return %arg0 : tensor<?x16xf32>
// CHECK-NEXT:    } count(%arg3: index, %arg4: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg3, %arg4)
// CHECK-NEXT:      flow.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @tensor_encode(%arg0: tensor<?x?xf32>, %arg1: index, %arg2: index) -> tensor<?x?xf32, #encoding> {
  %0 = flow.tensor.encode %arg0 : tensor<?x?xf32>{%arg1, %arg2} -> tensor<?x?xf32, #encoding>{%arg1, %arg2}
  return %0 : tensor<?x?xf32, #encoding>
}
// CHECK-LABEL: func.func @tensor_encode(
// CHECK:         flow.tensor.encode %arg0 : tensor<?x?xf32>{%arg1, %arg2} -> tensor<?x?xf32, #encoding>{%arg1, %arg2}

// -----

func.func @tensor_encode_static(%arg0: tensor<513x1023xf32>) -> tensor<513x1023xf32, "encoded"> {
  %0 = flow.tensor.encode %arg0 : tensor<513x1023xf32> -> tensor<513x1023xf32, "encoded"> attributes {tag}
  return %0 : tensor<513x1023xf32, "encoded">
}
// CHECK-LABEL: func.func @tensor_encode_static(
// CHECK:         flow.tensor.encode %arg0 : tensor<513x1023xf32> -> tensor<513x1023xf32, "encoded"> attributes {tag}

// -----

// The walkthrough's outlined dispatch, before conversion to stream.

flow.executable private @matmul_dispatch_0 {
  flow.executable.export public @matmul_dispatch_0_entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @matmul_dispatch_0_entry(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %arg1: index, %arg2: index, %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
      %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
      %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
      %2 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}
      %3 = flow.dispatch.tie_shape %arg3 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %1}
      %4 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
      iree_tensor_ext.dispatch.tensor.store %4, %3, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %1}
      return
    }
  }
}
func.func @dispatch(%arg0: tensor<?x?xf32>, %arg1: index, %arg2: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch @matmul_dispatch_0::@matmul_dispatch_0_entry[%arg1, %arg2](%arg0, %arg1, %arg2) : (tensor<?x?xf32>{%arg1, %arg2}, index, index) -> tensor<?x?xf32>{%arg1, %arg2}
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: flow.executable private @matmul_dispatch_0 {
// CHECK-NEXT:    flow.executable.export public @matmul_dispatch_0_entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
// CHECK-NEXT:      flow.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @matmul_dispatch_0_entry(
// CHECK:             %[[D0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
// CHECK:             %[[D1:.+]] = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
// CHECK:             flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%[[D0]], %[[D1]]}
// CHECK:             flow.dispatch.tie_shape %arg3 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[D0]], %[[D1]]}
// CHECK-LABEL: func.func @dispatch(
// CHECK:         flow.dispatch @matmul_dispatch_0::@matmul_dispatch_0_entry[%arg1, %arg2](%arg0, %arg1, %arg2) : (tensor<?x?xf32>{%arg1, %arg2}, index, index) -> tensor<?x?xf32>{%arg1, %arg2}

// -----

// Exports without a workgroup count region, one aliased; the visibility is
// always printed.

flow.executable @ex {
  flow.executable.export @fn_a
  flow.executable.export private @fn_b as("other_name")
  builtin.module {
  }
}
// CHECK-LABEL: flow.executable public @ex {
// CHECK-NEXT:    flow.executable.export public @fn_a
// CHECK-NEXT:    flow.executable.export private @fn_b as("other_name")

// -----

// Several entry points, no workload, results tied to arguments (in-place).

func.func @dispatch_tied(%arg0: tensor<4x?xf32>, %arg1: tensor<8x?xf32>, %arg2: index, %arg3: index) -> (tensor<4x?xf32>, tensor<?x4xf32>, tensor<2xi32>) {
  %0:3 = flow.dispatch {@ex::@a, @ex::@b}(%arg0, %arg1) {tag} : (tensor<4x?xf32>{%arg2}, tensor<8x?xf32>{%arg3}) -> (%arg0{%arg2}, %arg1 as tensor<?x4xf32>{%arg3}, tensor<2xi32>)
  return %0#0, %0#1, %0#2 : tensor<4x?xf32>, tensor<?x4xf32>, tensor<2xi32>
}
// CHECK-LABEL: func.func @dispatch_tied(
// CHECK:         flow.dispatch {@ex::@a, @ex::@b}(%arg0, %arg1) {tag} : (tensor<4x?xf32>{%arg2}, tensor<8x?xf32>{%arg3}) -> (%arg0{%arg2}, %arg1 as tensor<?x4xf32>{%arg3}, tensor<2xi32>)

// -----

func.func @dispatch_no_results(%arg0: tensor<4xf32>) {
  flow.dispatch @ex::@fn(%arg0) : (tensor<4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @dispatch_no_results(
// CHECK:         flow.dispatch @ex::@fn(%arg0) : (tensor<4xf32>) -> ()

// -----

// Seed-era spellings, before the dispatch tensor moved to iree_tensor_ext.

func.func @seed_era_dispatch_tensor(%arg0: !flow.dispatch.tensor<readonly:tensor<?x?xf32>>, %arg1: index, %arg2: index, %arg3: !flow.dispatch.tensor<writeonly:tensor<1x256xf32>>) {
  %0 = flow.dispatch.workload.ordinal %arg1, 0 : index
  %1 = flow.dispatch.workload.ordinal %arg2, 1 : index
  %2 = flow.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !flow.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
  %3 = "test.op"(%2) : (tensor<?x?xf32>) -> tensor<1x256xf32>
  flow.dispatch.tensor.store %3, %arg3, offsets = [0, 0], sizes = [1, 256], strides = [1, 1] : tensor<1x256xf32> -> !flow.dispatch.tensor<writeonly:tensor<1x256xf32>>
  return
}
// CHECK-LABEL: func.func @seed_era_dispatch_tensor(
// CHECK-SAME:    %arg0: !flow.dispatch.tensor<readonly:tensor<?x?xf32>>
// CHECK:         %[[D0:.+]] = flow.dispatch.workload.ordinal %arg1, 0 : index
// CHECK:         %[[D1:.+]] = flow.dispatch.workload.ordinal %arg2, 1 : index
// CHECK:         flow.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [%[[D0]], %[[D1]]], strides = [1, 1] : !flow.dispatch.tensor<readonly:tensor<?x?xf32>>{%[[D0]], %[[D1]]} -> tensor<?x?xf32>
// CHECK:         flow.dispatch.tensor.store %{{.+}}, %arg3, offsets = [0, 0], sizes = [1, 256], strides = [1, 1] : tensor<1x256xf32> -> !flow.dispatch.tensor<writeonly:tensor<1x256xf32>>

// -----

// flow.dispatch.workgroups: operands, `=`, the body's arguments (dispatch
// tensors, then one writeonly tensor per untied result), and the count region.

func.func @dispatch_workgroups(%arg0: tensor<?x4xf32>, %arg1: index) -> tensor<?x4xf32> {
  %0 = flow.dispatch.workgroups[%arg1](%arg0, %arg1) : (tensor<?x4xf32>{%arg1}, index) -> tensor<?x4xf32>{%arg1} attributes {tag} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %d: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
    %1 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%d, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%d} -> tensor<?x4xf32>
    iree_tensor_ext.dispatch.tensor.store %1, %out, offsets = [0, 0], sizes = [%d, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%d}
    flow.return
  } count(%w: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%w)
    flow.return %x, %y, %z : index, index, index
  }
  return %0 : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @dispatch_workgroups(
// CHECK:         %0 = flow.dispatch.workgroups[%arg1](%arg0, %arg1) : (tensor<?x4xf32>{%arg1}, index) -> tensor<?x4xf32>{%arg1} attributes {tag} =
// CHECK-NEXT:        (%{{.+}}: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %{{.+}}: index, %{{.+}}: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
// CHECK:           flow.return
// CHECK-NEXT:    } count(%{{.+}}: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(
// CHECK-NEXT:      flow.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }

// -----

func.func @dispatch_workgroups_tied(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.dispatch.workgroups(%arg0) : (tensor<4xf32>) -> %arg0 =
      (%io: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>) {
    flow.return
  }
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @dispatch_workgroups_tied(
// CHECK:         flow.dispatch.workgroups(%arg0) : (tensor<4xf32>) -> %arg0 =
// CHECK-NEXT:        (%{{.+}}: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>) {

// -----

// flow.tensor.*: whole-tensor ops with their dynamic sizes after the types.

// CHECK-LABEL: util.func public @tensor_ops(
util.func public @tensor_ops(%arg0: tensor<?x4xf32>, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: f32, %arg6: tensor<2x2xf32>, %arg7: tensor<4xi32>) {
  %c2 = arith.constant 2 : index
  // CHECK: flow.tensor.reshape %{{.+}} : tensor<?x4xf32>{%{{.+}}} -> tensor<?xf32>{%{{.+}}}
  %0 = flow.tensor.reshape %arg0 : tensor<?x4xf32>{%arg1} -> tensor<?xf32>{%arg2}
  // CHECK: flow.tensor.bitcast %{{.+}} : tensor<4xi32> -> tensor<4xf32>
  %1 = flow.tensor.bitcast %arg7 : tensor<4xi32> -> tensor<4xf32>
  // CHECK: flow.tensor.load %{{.+}}[%{{.+}}, %{{.+}}] : tensor<?x4xf32>{%{{.+}}}
  %2 = flow.tensor.load %arg0[%arg3, %arg4] : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : tensor<?x4xf32>{%{{.+}}}
  %3 = flow.tensor.store %arg5, %arg0[%arg3, %arg4] : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.splat %{{.+}} : tensor<?x4xf32>{%{{.+}}}
  %4 = flow.tensor.splat %arg5 : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.clone %{{.+}} : tensor<?x4xf32>{%{{.+}}}
  %5 = flow.tensor.clone %arg0 : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.slice %{{.+}}[%{{.+}}, %{{.+}} for %{{.+}}, %{{.+}}] : tensor<?x4xf32>{%{{.+}}} -> tensor<2x2xf32>
  %6 = flow.tensor.slice %arg0[%arg3, %arg4 for %c2, %c2] : tensor<?x4xf32>{%arg1} -> tensor<2x2xf32>
  // CHECK: flow.tensor.update %{{.+}}, %[[T:.+]][%{{.+}}, %{{.+}}] : tensor<2x2xf32> -> %[[T]] as tensor<?x4xf32>{%{{.+}}}
  %7 = flow.tensor.update %arg6, %arg0[%arg3, %arg4] : tensor<2x2xf32> -> %arg0 as tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.alloca : tensor<?x4xf32>{%{{.+}}}
  %8 = flow.tensor.alloca : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.empty : tensor<?x4xf32>{%{{.+}}}
  %9 = flow.tensor.empty : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.transfer %{{.+}} : tensor<?x4xf32>{%{{.+}}} to #hal.device.promise<@dev_a>
  %10 = flow.tensor.transfer %arg0 : tensor<?x4xf32>{%arg1} to #hal.device.promise<@dev_a>
  // CHECK: flow.tensor.transfer %{{.+}} : tensor<2x2xf32> to "target"
  %11 = flow.tensor.transfer %arg6 : tensor<2x2xf32> to "target"
  // CHECK: flow.tensor.trace "key" = [%{{.+}} : tensor<?x4xf32>{%{{.+}}}, %{{.+}} : tensor<2x2xf32>]
  flow.tensor.trace "key" = [%arg0 : tensor<?x4xf32>{%arg1}, %arg6 : tensor<2x2xf32>]
  // CHECK: flow.tensor.tie_shape %{{.+}} : tensor<?x4xf32>{%{{.+}}}
  %12 = flow.tensor.tie_shape %arg0 : tensor<?x4xf32>{%arg1}
  // CHECK: flow.tensor.tie_shape %{{.+}} {note} : tensor<2x2xf32>
  %13 = flow.tensor.tie_shape %arg6 {note} : tensor<2x2xf32>
  util.return
}
