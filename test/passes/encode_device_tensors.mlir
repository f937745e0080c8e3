// RUN: mini-iree-opt %s -p iree-stream-encode-device-tensors --split-input-file | filecheck %s

// i1 is stored as i8 (the host sizes it so): the binding takes i8, the load truncates back to i1
// with one arith.trunci on the tensor, as IREE does.

stream.executable private @convert_load_i1 {
  stream.executable.export public @dispatch
  builtin.module {
    func.func @dispatch(%arg0: !stream.binding) -> tensor<?xi1> {
      %c0 = arith.constant 0 : index
      %binding = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1>>
      %tile = iree_tensor_ext.dispatch.tensor.load %binding, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1>> -> tensor<?xi1>
      return %tile : tensor<?xi1>
    }
  }
}
// CHECK-LABEL: func.func @dispatch(
// CHECK:         %[[BINDING:.+]] = stream.binding.subspan %arg0[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi8>>
// CHECK-NEXT:    %[[TILE_I8:.+]] = iree_tensor_ext.dispatch.tensor.load %[[BINDING]], offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi8>> -> tensor<?xi8>
// CHECK-NEXT:    %[[TILE_I1:.+]] = arith.trunci %[[TILE_I8]] : tensor<?xi8> to tensor<?xi1>
// CHECK-NEXT:    return %[[TILE_I1]] : tensor<?xi1>

// -----

// A stored i1 constant is widened in place (the fold of its extension), as in IREE's test.

stream.executable private @convert_store_i1 {
  stream.executable.export public @dispatch
  builtin.module {
    func.func @dispatch(%arg0: !stream.binding) {
      %c0 = arith.constant 0 : index
      %binding = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi1>>
      %cst = arith.constant dense<[false, false, true, true]> : tensor<4xi1>
      iree_tensor_ext.dispatch.tensor.store %cst, %binding, offsets = [0], sizes = [4], strides = [1] : tensor<4xi1> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi1>>
      return
    }
  }
}
// CHECK-LABEL: func.func @dispatch(
// CHECK-DAG:     %[[CST:.+]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi8>
// CHECK-DAG:     %[[BINDING:.+]] = stream.binding.subspan %arg0[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi8>>
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[CST]], %[[BINDING]], offsets = [0], sizes = [4], strides = [1] : tensor<4xi8> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi8>>

// -----

// Load, compute on i1, store back into a readwrite binding: extended to i8 before the store.

stream.executable private @convert_multi_i1 {
  stream.executable.export public @dispatch
  builtin.module {
    func.func @dispatch(%arg0: !stream.binding, %arg1: !stream.binding) {
      %c0 = arith.constant 0 : index
      %binding0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1>>
      %binding1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xi1>>
      %tile0 = iree_tensor_ext.dispatch.tensor.load %binding0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1>> -> tensor<4xi1>
      %tile1 = iree_tensor_ext.dispatch.tensor.load %binding1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xi1>> -> tensor<4xi1>
      %result = arith.ori %tile0, %tile1 : tensor<4xi1>
      iree_tensor_ext.dispatch.tensor.store %result, %binding1, offsets = [0], sizes = [4], strides = [1] : tensor<4xi1> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xi1>>
      return
    }
  }
}
// CHECK-LABEL: func.func @dispatch(
// CHECK:         stream.binding.subspan %arg0{{.+}} -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi8>>
// CHECK:         stream.binding.subspan %arg1{{.+}} -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xi8>>
// CHECK:         %[[T0:.+]] = arith.trunci %{{.+}} : tensor<4xi8> to tensor<4xi1>
// CHECK:         %[[T1:.+]] = arith.trunci %{{.+}} : tensor<4xi8> to tensor<4xi1>
// CHECK:         %[[OR:.+]] = arith.ori %[[T0]], %[[T1]] : tensor<4xi1>
// CHECK:         %[[EXT:.+]] = arith.extui %[[OR]] : tensor<4xi1> to tensor<4xi8>
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[EXT]], %{{.+}} : tensor<4xi8> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xi8>>

// -----

// i3 (not a power of two) widens to i8 too.

stream.executable private @subspan_i3 {
  stream.executable.export public @dispatch
  builtin.module {
    func.func @dispatch(%arg0: !stream.binding) -> tensor<4xi3> {
      %c0 = arith.constant 0 : index
      %binding = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi3>>
      %tile = iree_tensor_ext.dispatch.tensor.load %binding, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi3>> -> tensor<4xi3>
      return %tile : tensor<4xi3>
    }
  }
}
// CHECK-LABEL: func.func @dispatch(
// CHECK:         stream.binding.subspan {{.+}} -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi8>>
// CHECK:         arith.trunci %{{.+}} : tensor<4xi8> to tensor<4xi3>

// -----

// Left alone: i4 (packed two to a byte), i1 with packed_storage, and byte-aligned types.

stream.executable private @aligned_left_alone {
  stream.executable.export public @dispatch
  builtin.module {
    func.func @dispatch(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) -> (tensor<8xi4>, tensor<4xi1, #iree_encoding.packed_storage>) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xi4>>
      %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1, #iree_encoding.packed_storage>>
      %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xi4>> -> tensor<8xi4>
      %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1, #iree_encoding.packed_storage>> -> tensor<4xi1, #iree_encoding.packed_storage>
      %cst = arith.constant dense<1.0> : tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %cst, %2, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return %3, %4 : tensor<8xi4>, tensor<4xi1, #iree_encoding.packed_storage>
    }
  }
}
// CHECK-LABEL: func.func @dispatch(
// CHECK:         !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xi4>>
// CHECK:         !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi1, #iree_encoding.packed_storage>>
// CHECK:         !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     arith.trunci
// CHECK:         return

// -----

// Host code is not touched (the host side is iree-stream-encode-host-tensors' job).

util.func public @host_left_alone(%arg0: tensor<4xi1>) -> tensor<4xi1> {
  util.return %arg0 : tensor<4xi1>
}
// CHECK-LABEL: util.func public @host_left_alone(%arg0: tensor<4xi1>) -> tensor<4xi1>
