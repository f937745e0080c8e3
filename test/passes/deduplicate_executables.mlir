// RUN: mini-iree-opt %s -p iree-flow-deduplicate-executables --split-input-file | filecheck %s

// Two executables that differ only in their names: the second goes, its
// dispatch calls the first. The third differs in its body and stays.

flow.executable private @ex0 {
  flow.executable.export public @ex0_dispatch_0
  builtin.module {
    func.func @ex0_dispatch_0(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.addf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}
flow.executable private @ex1 {
  flow.executable.export public @ex1_dispatch_0
  builtin.module {
    func.func @ex1_dispatch_0(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.addf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}
flow.executable private @ex2 {
  flow.executable.export public @ex2_dispatch_0
  builtin.module {
    func.func @ex2_dispatch_0(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.mulf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}
util.func public @three(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.dispatch @ex0::@ex0_dispatch_0(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = flow.dispatch @ex1::@ex1_dispatch_0(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = flow.dispatch @ex2::@ex2_dispatch_0(%a) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK:       flow.executable private @ex0
// CHECK-NOT:   flow.executable private @ex1
// CHECK:       flow.executable private @ex2
// CHECK-LABEL: util.func public @three(
// CHECK:         flow.dispatch @ex0::@ex0_dispatch_0(
// CHECK-NEXT:    flow.dispatch @ex0::@ex0_dispatch_0(
// CHECK-NEXT:    flow.dispatch @ex2::@ex2_dispatch_0(
