// RUN: mini-iree-opt %s -p 'iree-codegen-combine-layout-transformation,canonicalize,cse' | filecheck %s

// A pack by a scalable tile (8 x vscale, known only at run time) folds like any other: the
// map_scatter delinearizes by the run-time outer size and tile (lowerPack's `divsi` of the
// padded size), and the padding loop runs up to the padded size.
func.func @pack_by_scalable_tile(%source: tensor<250x250xf32>, %result: memref<?x250x?x1xf32>) {
  %c8 = arith.constant 8 : index
  %vscale = vector.vscale
  %tile = arith.muli %c8, %vscale : index
  %outer = affine.apply affine_map<()[s0] -> (250 ceildiv s0)>()[%tile]
  %cst = arith.constant 0.0 : f32
  %dest = tensor.empty(%outer, %tile) : tensor<?x250x?x1xf32>
  %pack = linalg.pack %source padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1]
      inner_tiles = [%tile, 1] into %dest : tensor<250x250xf32> -> tensor<?x250x?x1xf32>
  iree_codegen.store_to_buffer %pack, %result : tensor<?x250x?x1xf32> into memref<?x250x?x1xf32>
  return
}
// CHECK-LABEL: func.func @pack_by_scalable_tile
// CHECK:         %[[TILE:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:         %[[PADDED:.+]] = arith.muli %{{.+}}, %[[TILE]] : index
// CHECK:         %[[OUTER:.+]] = arith.divsi %[[PADDED]], %[[TILE]] : index
// CHECK-NOT:     linalg.pack
// CHECK:         iree_linalg_ext.map_scatter
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[D:.+]]:2 = affine.delinearize_index %[[I]] into (%[[OUTER]], %[[TILE]]) : index, index
// CHECK-NEXT:      iree_linalg_ext.yield %[[D]]#0, %[[J]], %[[D]]#1, %{{.+}}, %{{.+}} : index, index, index, index, i1
// CHECK:         iree_codegen.store_to_buffer
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (250, 0) to (%[[PADDED]], 250) step (1, 64)
// CHECK-NOT:     scf.forall
