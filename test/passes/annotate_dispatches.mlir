// RUN: mini-iree-opt %s -p iree-flow-annotate-dispatches --split-input-file | filecheck %s

// The most expensive op names the dispatch: a dynamic matmul (1024 per dynamic
// size, doubled for the reduction) beats the fill and the elementwise consumer.
// The export, its function and the dispatch site are renamed together.

flow.executable private @ex {
  flow.executable.export public @ex_dispatch_0
  builtin.module {
    func.func @ex_dispatch_0(%in0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %in1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %m: index, %n: index, %k: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
      %cst = arith.constant 0.0 : f32
      %a = iree_tensor_ext.dispatch.tensor.load %in0, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%m, %k} -> tensor<?x?xf32>
      %b = iree_tensor_ext.dispatch.tensor.load %in1, offsets = [0, 0], sizes = [%k, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%k, %n} -> tensor<?x?xf32>
      %e = tensor.empty(%m, %n) : tensor<?x?xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %c = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.maximumf %x, %cst : f32
        linalg.yield %y : f32
      } -> tensor<?x?xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %out, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
      return
    }
  }
}
util.func public @matmul_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %m: index, %n: index, %k: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch @ex::@ex_dispatch_0(%a, %b, %m, %n, %k) : (tensor<?x?xf32>{%m, %k}, tensor<?x?xf32>{%k, %n}, index, index, index) -> tensor<?x?xf32>{%m, %n}
  util.return %0 : tensor<?x?xf32>
}
// CHECK:       flow.executable.export public @ex_dispatch_0_matmul_DxDxD_f32{{$}}
// CHECK:       func.func @ex_dispatch_0_matmul_DxDxD_f32(
// CHECK-LABEL: util.func public @matmul_dynamic(
// CHECK:         flow.dispatch @ex::@ex_dispatch_0_matmul_DxDxD_f32(

// -----

// Static loop ranges and mixed element types.

flow.executable private @ex {
  flow.executable.export public @ex_dispatch_0
  builtin.module {
    func.func @ex_dispatch_0(%in0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<255x513xi8>>, %in1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<513x1023xi8>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<255x1023xi32>>) {
      %c0 = arith.constant 0 : i32
      %a = iree_tensor_ext.dispatch.tensor.load %in0, offsets = [0, 0], sizes = [255, 513], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<255x513xi8>> -> tensor<255x513xi8>
      %b = iree_tensor_ext.dispatch.tensor.load %in1, offsets = [0, 0], sizes = [513, 1023], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<513x1023xi8>> -> tensor<513x1023xi8>
      %e = tensor.empty() : tensor<255x1023xi32>
      %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<255x1023xi32>) -> tensor<255x1023xi32>
      %c = linalg.matmul ins(%a, %b : tensor<255x513xi8>, tensor<513x1023xi8>) outs(%f : tensor<255x1023xi32>) -> tensor<255x1023xi32>
      iree_tensor_ext.dispatch.tensor.store %c, %out, offsets = [0, 0], sizes = [255, 1023], strides = [1, 1] : tensor<255x1023xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<255x1023xi32>>
      return
    }
  }
}
// CHECK: flow.executable.export public @ex_dispatch_0_matmul_255x1023x513_i8xi8xi32{{$}}

// -----

// Elementwise with a broadcast input, a transpose, and a plain copy.

flow.executable private @ex {
  flow.executable.export public @ew
  flow.executable.export public @tr
  flow.executable.export public @copy
  builtin.module {
    func.func @ew(%in0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %in1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %m: index, %n: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in0, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%m, %n} -> tensor<?x?xf32>
      %b = iree_tensor_ext.dispatch.tensor.load %in1, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      %e = tensor.empty(%m, %n) : tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %out, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
      return
    }
    func.func @tr(%in0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x4xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in0, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32>> -> tensor<4x8xf32>
      %e = tensor.empty() : tensor<8x4xf32>
      %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
      iree_tensor_ext.dispatch.tensor.store %t, %out, offsets = [0, 0], sizes = [8, 4], strides = [1, 1] : tensor<8x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x4xf32>>
      return
    }
    func.func @copy(%in0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %a, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}
// CHECK: flow.executable.export public @ew_elementwise_DxD_f32{{$}}
// CHECK: flow.executable.export public @tr_transpose_8x4_f32{{$}}
// CHECK: flow.executable.export public @copy_slow_memcpy{{$}}

// -----

// Nothing to summarize: the names stay.

flow.executable private @ex {
  flow.executable.export public @nothing
  builtin.module {
    func.func @nothing() {
      return
    }
  }
}
// CHECK: flow.executable.export public @nothing{{$}}
// CHECK: func.func @nothing()

// -----

// An encoding op names the dispatch only when nothing else is there: its
// operand role (LHS, RHS, RESULT) and the plain tensor's shape.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
flow.executable private @ex {
  flow.executable.export public @ex_dispatch_0
  builtin.module {
    func.func @ex_dispatch_0(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x8xf32>>, %m: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x8xf32, #encoding>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%m, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x8xf32>>{%m} -> tensor<?x8xf32>
      %e = iree_encoding.set_encoding %a : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
      iree_tensor_ext.dispatch.tensor.store %e, %out, offsets = [0, 0], sizes = [%m, 8], strides = [1, 1] : tensor<?x8xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x8xf32, #encoding>>{%m}
      return
    }
  }
}
// CHECK: flow.executable.export public @ex_dispatch_0_set_encoding_LHS_Dx8{{$}}

// -----

// The roles of the other op types: a scaled matmul's scales, a convolution's operands.

#sm = #iree_encoding.encoding<operand_index = 3, op_type = scaled_matmul, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32]>
#conv = #iree_encoding.encoding<operand_index = 1, op_type = conv, element_types = [f32, f32, f32]>
flow.executable private @scales {
  flow.executable.export public @scales_dispatch_0
  builtin.module {
    func.func @scales_dispatch_0(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf8E8M0FNU>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xf8E8M0FNU, #sm>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf8E8M0FNU>> -> tensor<4x8xf8E8M0FNU>
      %e = iree_encoding.set_encoding %a : tensor<4x8xf8E8M0FNU> -> tensor<4x8xf8E8M0FNU, #sm>
      iree_tensor_ext.dispatch.tensor.store %e, %out, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : tensor<4x8xf8E8M0FNU, #sm> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xf8E8M0FNU, #sm>>
      return
    }
  }
}
flow.executable private @filter {
  flow.executable.export public @filter_dispatch_0
  builtin.module {
    func.func @filter_dispatch_0(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x3xf32, #conv>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x3xf32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [3, 3], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x3xf32, #conv>> -> tensor<3x3xf32, #conv>
      %e = iree_encoding.unset_encoding %a : tensor<3x3xf32, #conv> -> tensor<3x3xf32>
      iree_tensor_ext.dispatch.tensor.store %e, %out, offsets = [0, 0], sizes = [3, 3], strides = [1, 1] : tensor<3x3xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x3xf32>>
      return
    }
  }
}
// CHECK: flow.executable.export public @scales_dispatch_0_set_encoding_RHS_SCALES_4x8{{$}}
// CHECK: flow.executable.export public @filter_dispatch_0_unset_encoding_CONV_FILTER_3x3{{$}}

// -----

// A linalg.map is named after its op (not summarized as a generic would be).

flow.executable private @ex {
  flow.executable.export public @mp
  builtin.module {
    func.func @mp(%in0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xi32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xi32>>) {
      %a = iree_tensor_ext.dispatch.tensor.load %in0, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xi32>> -> tensor<4x8xi32>
      %e = tensor.empty() : tensor<4x8xi32>
      %m = linalg.map { arith.muli } ins(%a, %a : tensor<4x8xi32>, tensor<4x8xi32>) outs(%e : tensor<4x8xi32>)
      iree_tensor_ext.dispatch.tensor.store %m, %out, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : tensor<4x8xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xi32>>
      return
    }
  }
}
// CHECK: flow.executable.export public @mp_map_4x8_i32{{$}}
