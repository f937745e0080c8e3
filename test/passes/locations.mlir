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
// DISPATCH:      iree_encoding.set_encoding {{.*}} loc("{{.*}}locations.mlir":16:8)
// DISPATCH:      linalg.matmul {{.*}} loc("{{.*}}locations.mlir":16:8)
// DISPATCH:      iree_encoding.unset_encoding {{.*}} loc("{{.*}}locations.mlir":16:8)
// DISPATCH:      linalg.generic
// DISPATCH:      } -> tensor<?x?xf32> loc("{{.*}}locations.mlir":17:8)
// The region holds the matmul (its root) and the fused relu: their fused location.
// DISPATCH:      } loc(fused["{{.*}}locations.mlir":16:8, "{{.*}}locations.mlir":17:8])
// DISPATCH:      hal.tensor.export {{.*}} loc("{{.*}}locations.mlir":22:3)
// DISPATCH:      util.return {{.*}} loc("{{.*}}locations.mlir":22:3)
// DISPATCH:      } loc("{{.*}}locations.mlir":8:1)

// GPU:           util.global private @__device_0 {{.*}} loc("{{.*}}locations.mlir":0:0)
// The dispatch's bindings serve the whole region (matmul and relu).
// GPU:           hal.executable private @matmul_relu_dispatch_0
// GPU:           hal.interface.binding.subspan {{.*}} loc(fused["{{.*}}locations.mlir":16:8, "{{.*}}locations.mlir":17:8])
// GPU:           iree_codegen.inner_tiled {{.*}} loc("{{.*}}locations.mlir":16:8)
// GPU:           iree_linalg_ext.map_scatter
// GPU:           iree_codegen.store_to_buffer {{.*}} loc(fused["{{.*}}locations.mlir":16:8, "{{.*}}locations.mlir":17:8])
// The encoding dispatches are made for the matmul's operands.
// GPU:           hal.executable private @_encoding_0
// GPU:           iree_linalg_ext.map_scatter {{.*}}
// GPU:           } : tensor<?x?xf32> into tensor<?x?x8x4x4x4x4xf32> -> tensor<?x?x8x4x4x4x4xf32> loc("{{.*}}locations.mlir":16:8)

// CPU:           linalg.mmt4d {{.*}} loc("{{.*}}locations.mlir":16:8)
// The packs of the operands, folded into map_scatter, keep the matmul's line.
// CPU:           hal.executable private @_encoding_0
// CPU:           iree_linalg_ext.map_scatter
// CPU:           } : tensor<?x?xf32> into tensor<?x?x16x1xf32> -> tensor<?x?x16x1xf32> loc("{{.*}}locations.mlir":16:8)

// After the stream passes: an outlined executable keeps the locations of the ops it
// was made from; the host code that runs a dispatch (sizes, the dispatch) takes the
// location of the region or encoding it runs; imports stand for the function.
// RUN: mini-iree-opt %s -p 'data-tiling-dispatch-creation,data-tiling-stream{target=gfx942}' --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=STREAM
// STREAM:        stream.executable.export public @matmul_relu_dispatch_0{{.*}}(%arg0: index loc(fused["{{.*}}locations.mlir":16:8, "{{.*}}locations.mlir":17:8])
// STREAM:        stream.executable.export public @_encoding_0{{.*}}(%arg0: index loc("{{.*}}locations.mlir":16:8)
// STREAM:        stream.tensor.import {{.*}} loc("{{.*}}locations.mlir":8:1)
// STREAM:        arith.muli {{.*}} loc("{{.*}}locations.mlir":16:8)
// STREAM:        stream.async.dispatch {{.*}}@_encoding_0{{.*}} loc("{{.*}}locations.mlir":16:8)
// STREAM:        stream.async.dispatch {{.*}}@matmul_relu_dispatch_0{{.*}} loc(fused["{{.*}}locations.mlir":16:8, "{{.*}}locations.mlir":17:8])
// STREAM:        stream.tensor.export {{.*}} loc("{{.*}}locations.mlir":22:3)

// Without --mlir-print-local-scope, locations print as MLIR prints them: an op
// refers to `#locN`, defined after the module; a block argument's location is
// printed in full and its alias defined before the module (a `util.func`'s arguments
// print none, as IREE's printer); a fused location's parts have aliases of their own,
// defined before the fused one.
// RUN: mini-iree-opt %s -p 'iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions' --mlir-print-debuginfo | filecheck %s --check-prefix=ALIASES
// ALIASES:       #[[IN:loc[0-9]*]] = loc("{{.*}}locations.mlir":18:8)
// ALIASES:       module {
// ALIASES:         util.func public @matmul_relu(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view
// ALIASES:         hal.tensor.import {{.*}} loc(#[[FUNC:loc[0-9]*]])
// ALIASES:         linalg.matmul {{.*}} loc(#[[MATMUL:loc[0-9]*]])
// ALIASES:         ^bb0(%in: f32 loc("{{.*}}locations.mlir":18:8), %out: f32 loc("{{.*}}locations.mlir":18:18)):
// ALIASES:         } loc(#[[REGION:loc[0-9]*]])
// ALIASES:       {{^}}} loc(#[[MODULE:loc[0-9]*]])
// ALIASES-NEXT:  #[[MODULE]] = loc("{{.*}}locations.mlir":0:0)
// ALIASES-NEXT:  #[[FUNC]] = loc("{{.*}}locations.mlir":8:1)
// ALIASES:       #[[MATMUL]] = loc("{{.*}}locations.mlir":16:8)
// ALIASES-NEXT:  #[[GENERIC:loc[0-9]*]] = loc("{{.*}}locations.mlir":17:8)
// ALIASES:       #[[REGION]] = loc(fused[#[[MATMUL]], #[[GENERIC]]])
// ALIASES-NOT:   #loc
