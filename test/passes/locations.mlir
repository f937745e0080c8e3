// Every pass keeps the location of the ops it rewrites (MLIR's convention):
// new ops take the location of the op they replace or serve, an op made of
// several takes their fused location, outlined code keeps its own.
// RUN: mini-iree-opt %s -p 'iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding' --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=DISPATCH
// RUN: mini-iree-opt %s -p 'data-tiling{target=gfx942}' --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=GPU
// RUN: mini-iree-opt %s -p 'data-tiling{target=x86_64:+avx512f}' --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=CPU
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_relu(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %n = tensor.dim %rhs, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%fill : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// The entry point and the imports of its arguments stand for the function; the
// exports for its return.
// DISPATCH:      hal.tensor.import {{.*}} loc("{{.*}}locations.mlir":8:1)
// Encodings are set for the matmul, at its line.
// DISPATCH:      iree_encoding.set_encoding {{.*}} loc("{{.*}}locations.mlir":16:3)
// DISPATCH:      linalg.matmul {{.*}} loc("{{.*}}locations.mlir":16:3)
// DISPATCH:      iree_encoding.unset_encoding {{.*}} loc("{{.*}}locations.mlir":16:3)
// DISPATCH:      linalg.generic
// DISPATCH:      } -> tensor<?x?xf32> loc("{{.*}}locations.mlir":17:3)
// The region holds the matmul (its root) and the fused relu: their fused location.
// DISPATCH:      } loc(fused["{{.*}}locations.mlir":16:3, "{{.*}}locations.mlir":17:3])
// DISPATCH:      hal.tensor.export {{.*}} loc("{{.*}}locations.mlir":22:3)
// DISPATCH:      util.return {{.*}} loc("{{.*}}locations.mlir":22:3)
// DISPATCH:      } loc("{{.*}}locations.mlir":8:1)

// GPU:           util.global private @__device_0 {{.*}} loc("{{.*}}locations.mlir":1:1)
// The dispatch's bindings serve the whole region (matmul and relu).
// GPU:           hal.executable private @matmul_relu_dispatch_0
// GPU:           hal.interface.binding.subspan {{.*}} loc(fused["{{.*}}locations.mlir":16:3, "{{.*}}locations.mlir":17:3])
// GPU:           iree_codegen.inner_tiled {{.*}} loc("{{.*}}locations.mlir":16:3)
// GPU:           iree_linalg_ext.map_scatter
// GPU:           iree_codegen.store_to_buffer {{.*}} loc(fused["{{.*}}locations.mlir":16:3, "{{.*}}locations.mlir":17:3])
// The encoding dispatches are made for the matmul's operands.
// GPU:           hal.executable private @_encoding_0
// GPU:           iree_linalg_ext.map_scatter {{.*}}
// GPU:           } : tensor<?x?xf32> into tensor<?x?x8x4x4x4x4xf32> -> tensor<?x?x8x4x4x4x4xf32> loc("{{.*}}locations.mlir":16:3)

// CPU:           linalg.mmt4d {{.*}} loc("{{.*}}locations.mlir":16:3)
// The packs of the operands, folded into map_scatter, keep the matmul's line.
// CPU:           hal.executable private @_encoding_0
// CPU:           iree_linalg_ext.map_scatter
// CPU:           } : tensor<?x?xf32> into tensor<?x?x16x1xf32> -> tensor<?x?x16x1xf32> loc("{{.*}}locations.mlir":16:3)
