// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The map_scatter the layout-combining pass builds for an unpack: tensor output,
// so the op returns the updated tensor.
// CHECK-LABEL: func.func @map_scatter_tensor
// CHECK: %{{.*}} = iree_linalg_ext.map_scatter %{{.*}} into %{{.*}} {
// CHECK-NEXT: ^bb0(%[[A0:.+]]: index, %[[A1:.+]]: index, %[[A2:.+]]: index, %[[A3:.+]]: index):
// CHECK-NEXT: %[[L:.+]] = affine.linearize_index disjoint [%[[A0]], %[[A2]], %[[A1]], %[[A3]]] by (%{{.*}}, 128, %{{.*}}, 16) : index
// CHECK-NEXT: %[[D:.+]]:2 = affine.delinearize_index %[[L]] into (%{{.*}}, %{{.*}}) : index, index
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi ult, %[[D]]#0, %{{.*}} : index
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi ult, %[[D]]#1, %{{.*}} : index
// CHECK-NEXT: %[[M:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: iree_linalg_ext.yield %[[D]]#0, %[[D]]#1, %[[M]] : index, index, i1
// CHECK-NEXT: } : tensor<?x?x128x16xf32> into tensor<?x?xf32> -> tensor<?x?xf32>
func.func @map_scatter_tensor(%src: tensor<?x?x128x16xf32>, %dest: tensor<?x?xf32>, %mo: index, %no: index,
                              %mp: index, %np: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %0 = iree_linalg_ext.map_scatter %src into %dest {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l = affine.linearize_index disjoint [%i0, %i2, %i1, %i3] by (%mo, 128, %no, 16) : index
    %d:2 = affine.delinearize_index %l into (%mp, %np) : index, index
    %c0 = arith.cmpi ult, %d#0, %m : index
    %c1 = arith.cmpi ult, %d#1, %n : index
    %mask = arith.andi %c0, %c1 : i1
    iree_linalg_ext.yield %d#0, %d#1, %mask : index, index, i1
  } : tensor<?x?x128x16xf32> into tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// The 2026 name of the same op, with an attribute dictionary (printed first).
// CHECK-LABEL: func.func @map_store_attr_dict
// CHECK: iree_linalg_ext.map_store {some_attr = 1 : i64} %{{.*}} into %{{.*}} {
// CHECK: } : tensor<1x?xf32> into tensor<?x?xf32> -> tensor<?x?xf32>
func.func @map_store_attr_dict(%src: tensor<1x?xf32>, %dest: tensor<?x?xf32>, %true: i1) -> tensor<?x?xf32> {
  %0 = iree_linalg_ext.map_store {some_attr = 1 : i64} %src into %dest {
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield %i, %j, %true : index, index, i1
  } : tensor<1x?xf32> into tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A memref output is written in place: no result and no `->`.
// CHECK-LABEL: func.func @map_store_memref
// CHECK: iree_linalg_ext.map_store %{{.*}} into %{{.*}} {
// CHECK: } : tensor<4xf32> into memref<4xf32>{{$}}
func.func @map_store_memref(%src: tensor<4xf32>, %dest: memref<4xf32>) {
  iree_linalg_ext.map_store %src into %dest {
  ^bb0(%i: index):
    %true = arith.constant true
    iree_linalg_ext.yield %i, %true : index, i1
  } : tensor<4xf32> into memref<4xf32>
  return
}

// -----

// map_load, the mirror of map_store: one index per output dim in, one per source dim and a
// padding value (read where the index leaves the source) out.
// CHECK-LABEL: func.func @map_load_pack_tiles
// CHECK:         %[[R:.+]] = iree_linalg_ext.map_load %{{.+}} into %{{.+}} {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index, %[[K:.+]]: index):
// CHECK-NEXT:      %[[L:.+]] = affine.linearize_index disjoint [%[[I]], %[[K]]] by (2, 4) : index
// CHECK-NEXT:      %[[P:.+]] = ub.poison : f32
// CHECK-NEXT:      iree_linalg_ext.yield %[[L]], %[[J]], %[[P]] : index, index, f32
// CHECK-NEXT:    } : tensor<8x3xf32> into tensor<2x3x4xf32> -> tensor<2x3x4xf32>
func.func @map_load_pack_tiles(%src: tensor<8x3xf32>, %out: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = iree_linalg_ext.map_load %src into %out {
  ^bb0(%i: index, %j: index, %k: index):
    %l = affine.linearize_index disjoint [%i, %k] by (2, 4) : index
    %pad = ub.poison : f32
    iree_linalg_ext.yield %l, %j, %pad : index, index, f32
  } : tensor<8x3xf32> into tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// On memrefs it writes its output in place and has no result.
// CHECK-LABEL: func.func @map_load_memref
// CHECK:         iree_linalg_ext.map_load %{{.+}} into %{{.+}} {
// CHECK:         } : memref<5xf32> into memref<6xf32>
// CHECK-NEXT:    return
func.func @map_load_memref(%src: memref<5xf32>, %out: memref<6xf32>) {
  iree_linalg_ext.map_load %src into %out {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %s = arith.subi %i, %c1 : index
    %pad = arith.constant 0.000000e+00 : f32
    iree_linalg_ext.yield %s, %pad : index, f32
  } : memref<5xf32> into memref<6xf32>
  return
}
