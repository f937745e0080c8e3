// RUN: mini-iree-opt %s -p iree-flow-deduplicate-executables --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p iree-flow-deduplicate-executables --split-input-file --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=LOC

// Executables are compared by structure, as IREE's DeduplicateExecutables does
// (MLIR's OperationEquivalence): SSA names, locations and the names of the
// executables and of the symbols they define do not count; ops, attributes,
// types, regions and which values feed which operands do.

// @names_differ's body is @kept's with other SSA names, block argument names and
// locations: it goes, its dispatch calls @kept, and @kept keeps both locations.
// @op_differs (mulf), @operands_differ (adds its two block arguments instead of
// one twice) and @constant_differs (another constant) stay.

flow.executable private @kept {
  flow.executable.export public @kept_fn
  builtin.module {
    func.func @kept_fn(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %c = arith.constant 1.000000e+00 : f32
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.addf %lhs, %c : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
} loc("kept.mlir":1:1)

flow.executable private @names_differ {
  flow.executable.export public @names_differ_fn
  builtin.module {
    func.func @names_differ_fn(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %c = arith.constant 1.000000e+00 : f32
      %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32> loc("other.mlir":7:3)
      %1 = tensor.empty() : tensor<4xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.addf %in, %c : f32
        linalg.yield %3 : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
} loc("other.mlir":1:1)

flow.executable private @op_differs {
  flow.executable.export public @op_differs_fn
  builtin.module {
    func.func @op_differs_fn(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %c = arith.constant 1.000000e+00 : f32
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.mulf %lhs, %c : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

flow.executable private @operands_differ {
  flow.executable.export public @operands_differ_fn
  builtin.module {
    func.func @operands_differ_fn(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.addf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

flow.executable private @operands_same {
  flow.executable.export public @operands_same_fn
  builtin.module {
    func.func @operands_same_fn(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %1 = tensor.empty() : tensor<4xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.addf %in, %in : f32
        linalg.yield %3 : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

flow.executable private @constant_differs {
  flow.executable.export public @constant_differs_fn
  builtin.module {
    func.func @constant_differs_fn(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %c = arith.constant 2.000000e+00 : f32
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.addf %lhs, %c : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

util.func public @names_ignored(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.dispatch @kept::@kept_fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = flow.dispatch @names_differ::@names_differ_fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = flow.dispatch @op_differs::@op_differs_fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = flow.dispatch @operands_differ::@operands_differ_fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = flow.dispatch @operands_same::@operands_same_fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = flow.dispatch @constant_differs::@constant_differs_fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK:       flow.executable private @kept {
// CHECK-NOT:   flow.executable private @names_differ
// CHECK:       flow.executable private @op_differs {
// CHECK:       flow.executable private @operands_differ {
// CHECK-NOT:   flow.executable private @operands_same
// CHECK:       flow.executable private @constant_differs {
// CHECK-LABEL: util.func public @names_ignored(
// CHECK-NEXT:    %[[K:.+]] = flow.dispatch @kept::@kept_fn(%{{.+}})
// CHECK-NEXT:    flow.dispatch @kept::@kept_fn(%{{.+}})
// CHECK-NEXT:    flow.dispatch @op_differs::@op_differs_fn(
// CHECK-NEXT:    flow.dispatch @operands_differ::@operands_differ_fn(
// CHECK-NEXT:    flow.dispatch @operands_differ::@operands_differ_fn(
// CHECK-NEXT:    flow.dispatch @constant_differs::@constant_differs_fn(

// LOC:       flow.executable private @kept {
// LOC:       } loc(fused["kept.mlir":1:1, "other.mlir":1:1])

// -----

// Exports are matched by position: a duplicate's second export becomes the kept
// executable's second export, whatever the names.

flow.executable private @two {
  flow.executable.export public @two_add
  flow.executable.export public @two_mul
  builtin.module {
    func.func @two_add(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.addf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
    func.func @two_mul(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.mulf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

flow.executable private @two_again {
  flow.executable.export public @first
  flow.executable.export public @second
  builtin.module {
    func.func @first(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %1 = tensor.empty() : tensor<4xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.addf %in, %in : f32
        linalg.yield %3 : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
    func.func @second(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %1 = tensor.empty() : tensor<4xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.mulf %in, %in : f32
        linalg.yield %3 : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

util.func public @exports_by_position(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.dispatch @two_again::@second(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = flow.dispatch @two_again::@first(%0) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK:       flow.executable private @two {
// CHECK-NOT:   flow.executable private @two_again
// CHECK-LABEL: util.func public @exports_by_position(
// CHECK-NEXT:    %[[M:.+]] = flow.dispatch @two::@two_mul(%{{.+}})
// CHECK-NEXT:    flow.dispatch @two::@two_add(%[[M]])

// LOC: util.func public @exports_by_position(

// -----

// The order of the functions counts (exports refer to them by position): the
// same two functions in the other order are another executable.

flow.executable private @add_then_mul {
  flow.executable.export public @add
  flow.executable.export public @mul
  builtin.module {
    func.func @add(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.addf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
    func.func @mul(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.mulf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

flow.executable private @mul_then_add {
  flow.executable.export public @add2
  flow.executable.export public @mul2
  builtin.module {
    func.func @mul2(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.mulf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
    func.func @add2(%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
      %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %empty = tensor.empty() : tensor<4xf32>
      %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%empty : tensor<4xf32>) {
      ^bb0(%lhs: f32, %acc: f32):
        %sum = arith.addf %lhs, %lhs : f32
        linalg.yield %sum : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %res, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}

util.func public @function_order(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.dispatch @add_then_mul::@add(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = flow.dispatch @mul_then_add::@add2(%a) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK:       flow.executable private @add_then_mul {
// CHECK:       flow.executable private @mul_then_add {
// CHECK-LABEL: util.func public @function_order(
// CHECK-NEXT:    flow.dispatch @add_then_mul::@add(
// CHECK-NEXT:    flow.dispatch @mul_then_add::@add2(

// LOC: util.func public @function_order(
