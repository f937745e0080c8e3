// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// The pack IREE's CPU materialization emits for a matmul LHS: padding, an
// identity outer permutation, static tiles over dynamic sizes.
// CHECK-LABEL: func.func @pack_padding_value(
// CHECK:         %pack = linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
// GENERIC-LABEL: sym_name = "pack_padding_value"
// GENERIC:       "linalg.pack"(%{{.+}}, %{{.+}}, %{{.+}}) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 128, 16>}> : (tensor<?x?xf32>, tensor<?x?x128x16xf32>, f32) -> tensor<?x?x128x16xf32>
func.func @pack_padding_value(%src: tensor<?x?xf32>, %dest: tensor<?x?x128x16xf32>) -> tensor<?x?x128x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %pack = linalg.pack %src padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 16] into %dest : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
  return %pack : tensor<?x?x128x16xf32>
}

// -----

// A constant RHS packed transposed (N x K tiles), without padding: 8 divides
// 512 and 1 divides 256.
// CHECK-LABEL: func.func @pack_transposed_static(
// CHECK:         linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %{{.+}} : tensor<256x512xf32> -> tensor<64x256x8x1xf32>
func.func @pack_transposed_static(%src: tensor<256x512xf32>) -> tensor<64x256x8x1xf32> {
  %dest = tensor.empty() : tensor<64x256x8x1xf32>
  %pack = linalg.pack %src outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %dest : tensor<256x512xf32> -> tensor<64x256x8x1xf32>
  return %pack : tensor<64x256x8x1xf32>
}

// -----

// A tile size given as an SSA value; its packed dimension is dynamic.
// CHECK-LABEL: func.func @pack_dynamic_tile(
// CHECK-SAME:    %[[T:[a-z0-9_]+]]: index
// CHECK:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [%[[T]], 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x?x16xf32>
// GENERIC-LABEL: sym_name = "pack_dynamic_tile"
// GENERIC:       operandSegmentSizes = array<i32: 1, 1, 1, 1>, static_inner_tiles = array<i64: -9223372036854775808, 16>
func.func @pack_dynamic_tile(%src: tensor<?x?xf32>, %dest: tensor<?x?x?x16xf32>, %t: index, %pad: f32) -> tensor<?x?x?x16xf32> {
  %pack = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [%t, 16] into %dest : tensor<?x?xf32> -> tensor<?x?x?x16xf32>
  return %pack : tensor<?x?x?x16xf32>
}

// -----

// A 1-D bias packed along its only dimension, with the attribute dictionary
// after the destination.
// CHECK-LABEL: func.func @pack_rank1_with_attrs(
// CHECK:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0] inner_dims_pos = [0] inner_tiles = [8] into %{{.+}} {some_attr} : tensor<?xf32> -> tensor<?x8xf32>
func.func @pack_rank1_with_attrs(%src: tensor<?xf32>, %dest: tensor<?x8xf32>, %pad: f32) -> tensor<?x8xf32> {
  %pack = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [0] inner_dims_pos = [0] inner_tiles = [8] into %dest {some_attr} : tensor<?xf32> -> tensor<?x8xf32>
  return %pack : tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func.func @unpack(
// CHECK:         %unpack = linalg.unpack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %{{.+}} : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "unpack"
// GENERIC:       "linalg.unpack"(%{{.+}}, %{{.+}}) <{inner_dims_pos = array<i64: 0, 1>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 128, 128>}> : (tensor<?x?x128x128xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @unpack(%src: tensor<?x?x128x128xf32>, %dest: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %unpack = linalg.unpack %src outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %dest : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
  return %unpack : tensor<?x?xf32>
}

// -----

// The destination may be smaller than the tiles cover (slicing semantics).
// CHECK-LABEL: func.func @unpack_transposed_partial_tiles(
// CHECK:         linalg.unpack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 8] into %{{.+}} : tensor<64x?x8x8xf32> -> tensor<?x509xf32>
func.func @unpack_transposed_partial_tiles(%src: tensor<64x?x8x8xf32>, %dest: tensor<?x509xf32>) -> tensor<?x509xf32> {
  %unpack = linalg.unpack %src outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 8] into %dest : tensor<64x?x8x8xf32> -> tensor<?x509xf32>
  return %unpack : tensor<?x509xf32>
}

// -----

// CHECK-LABEL: func.func @unpack_dynamic_tile(
// CHECK-SAME:    %[[T:[a-z0-9_]+]]: index
// CHECK:         linalg.unpack %{{.+}} inner_dims_pos = [1] inner_tiles = [%[[T]]] into %{{.+}} : tensor<4x?x?xf32> -> tensor<4x?xf32>
func.func @unpack_dynamic_tile(%src: tensor<4x?x?xf32>, %dest: tensor<4x?xf32>, %t: index) -> tensor<4x?xf32> {
  %unpack = linalg.unpack %src inner_dims_pos = [1] inner_tiles = [%t] into %dest : tensor<4x?x?xf32> -> tensor<4x?xf32>
  return %unpack : tensor<4x?xf32>
}

// -----

// CHECK-LABEL: func.func @mmt4d(
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%{{.+}} : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
// GENERIC-LABEL: sym_name = "mmt4d"
// GENERIC:       "linalg.mmt4d"(%{{.+}}, %{{.+}}, %{{.+}}) <{operandSegmentSizes = array<i32: 2, 1>}> ({
// GENERIC-NEXT:  ^bb0(%[[IN:.+]]: f32, %[[IN0:.+]]: f32, %[[OUT:.+]]: f32):
// GENERIC-NEXT:    %[[MUL:.+]] = "arith.mulf"(%[[IN]], %[[IN0]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    %[[ADD:.+]] = "arith.addf"(%[[OUT]], %[[MUL]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "linalg.yield"(%[[ADD]]) : (f32) -> ()
func.func @mmt4d(%lhs: tensor<?x?x8x1xf32>, %rhs: tensor<?x?x8x1xf32>, %acc: tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32> {
  %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%acc : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
  return %0 : tensor<?x?x8x8xf32>
}

// -----

// Static shapes, the layout produced by packing a 512x256 LHS and a 256x?
// transposed RHS with 8x1 tiles.
// CHECK-LABEL: func.func @mmt4d_static(
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<64x256x8x1xf32>, tensor<?x256x8x1xf32>) outs(%{{.+}} : tensor<64x?x8x8xf32>) -> tensor<64x?x8x8xf32>
func.func @mmt4d_static(%lhs: tensor<64x256x8x1xf32>, %rhs: tensor<?x256x8x1xf32>, %acc: tensor<64x?x8x8xf32>) -> tensor<64x?x8x8xf32> {
  %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<64x256x8x1xf32>, tensor<?x256x8x1xf32>) outs(%acc : tensor<64x?x8x8xf32>) -> tensor<64x?x8x8xf32>
  return %0 : tensor<64x?x8x8xf32>
}

// -----

// Mixed precision: both inputs are sign-extended to the accumulator type.
// CHECK-LABEL: func.func @mmt4d_i8_i8_i32(
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x16x2xi8>, tensor<?x?x16x2xi8>) outs(%{{.+}} : tensor<?x?x16x16xi32>) -> tensor<?x?x16x16xi32>
// GENERIC-LABEL: sym_name = "mmt4d_i8_i8_i32"
// GENERIC:       ^bb0(%[[IN:.+]]: i8, %[[IN0:.+]]: i8, %[[OUT:.+]]: i32):
// GENERIC-NEXT:    %[[A:.+]] = "arith.extsi"(%[[IN]]) : (i8) -> i32
// GENERIC-NEXT:    %[[B:.+]] = "arith.extsi"(%[[IN0]]) : (i8) -> i32
// GENERIC-NEXT:    %[[MUL:.+]] = "arith.muli"(%[[A]], %[[B]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    %[[ADD:.+]] = "arith.addi"(%[[OUT]], %[[MUL]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "linalg.yield"(%[[ADD]]) : (i32) -> ()
func.func @mmt4d_i8_i8_i32(%lhs: tensor<?x?x16x2xi8>, %rhs: tensor<?x?x16x2xi8>, %acc: tensor<?x?x16x16xi32>) -> tensor<?x?x16x16xi32> {
  %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<?x?x16x2xi8>, tensor<?x?x16x2xi8>) outs(%acc : tensor<?x?x16x16xi32>) -> tensor<?x?x16x16xi32>
  return %0 : tensor<?x?x16x16xi32>
}

// -----

// CHECK-LABEL: func.func @batch_mmt4d(
// CHECK:         linalg.batch_mmt4d ins(%{{.+}}, %{{.+}} : tensor<2x?x?x8x1xf32>, tensor<2x?x?x8x1xf32>) outs(%{{.+}} : tensor<2x?x?x8x8xf32>) -> tensor<2x?x?x8x8xf32>
func.func @batch_mmt4d(%lhs: tensor<2x?x?x8x1xf32>, %rhs: tensor<2x?x?x8x1xf32>, %acc: tensor<2x?x?x8x8xf32>) -> tensor<2x?x?x8x8xf32> {
  %0 = linalg.batch_mmt4d ins(%lhs, %rhs : tensor<2x?x?x8x1xf32>, tensor<2x?x?x8x1xf32>) outs(%acc : tensor<2x?x?x8x8xf32>) -> tensor<2x?x?x8x8xf32>
  return %0 : tensor<2x?x?x8x8xf32>
}

// -----

// The default maps are not printed, in the generic form either.
// CHECK-LABEL: func.func @matmul_f32(
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "matmul_f32"
// GENERIC:       "linalg.matmul"(%{{.+}}, %{{.+}}, %{{.+}}) <{operandSegmentSizes = array<i32: 2, 1>}> ({
func.func @matmul_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// -----

// Discardable attributes go before `ins`, as IREE's data-tiling hint does.
// CHECK-LABEL: func.func @matmul_with_attrs(
// CHECK:         linalg.matmul {iree.opt.data_tiling} ins(%{{.+}}, %{{.+}} : tensor<?x256xf32>, tensor<256x512xf32>) outs(%{{.+}} : tensor<?x512xf32>) -> tensor<?x512xf32>
func.func @matmul_with_attrs(%a: tensor<?x256xf32>, %b: tensor<256x512xf32>, %c: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%a, %b : tensor<?x256xf32>, tensor<256x512xf32>) outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_i8_i8_i32(
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xi8>, tensor<?x?xi8>) outs(%{{.+}} : tensor<?x?xi32>) -> tensor<?x?xi32>
// GENERIC-LABEL: sym_name = "matmul_i8_i8_i32"
// GENERIC:       ^bb0(%[[IN:.+]]: i8, %[[IN0:.+]]: i8, %[[OUT:.+]]: i32):
// GENERIC-NEXT:    %[[A:.+]] = "arith.extsi"(%[[IN]]) : (i8) -> i32
// GENERIC-NEXT:    %[[B:.+]] = "arith.extsi"(%[[IN0]]) : (i8) -> i32
// GENERIC-NEXT:    %[[MUL:.+]] = "arith.muli"(%[[A]], %[[B]])
// GENERIC-NEXT:    %[[ADD:.+]] = "arith.addi"(%[[OUT]], %[[MUL]])
// GENERIC-NEXT:    "linalg.yield"(%[[ADD]]) : (i32) -> ()
func.func @matmul_i8_i8_i32(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// -----

// CHECK-LABEL: func.func @matmul_f16_f16_f32(
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// GENERIC-LABEL: sym_name = "matmul_f16_f16_f32"
// GENERIC:       ^bb0(%[[IN:.+]]: f16, %[[IN0:.+]]: f16, %[[OUT:.+]]: f32):
// GENERIC-NEXT:    %[[A:.+]] = "arith.extf"(%[[IN]]) : (f16) -> f32
// GENERIC-NEXT:    %[[B:.+]] = "arith.extf"(%[[IN0]]) : (f16) -> f32
// GENERIC-NEXT:    %[[MUL:.+]] = "arith.mulf"(%[[A]], %[[B]])
// GENERIC-NEXT:    %[[ADD:.+]] = "arith.addf"(%[[OUT]], %[[MUL]])
func.func @matmul_f16_f16_f32(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_bf16_bf16_f32(
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%{{.+}} : tensor<?x?xf32>) -> tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "matmul_bf16_bf16_f32"
// GENERIC:       "arith.extf"(%{{.+}}) : (bf16) -> f32
func.func @matmul_bf16_bf16_f32(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Integer inputs with a float accumulator convert with arith.sitofp.
// GENERIC-LABEL: sym_name = "matmul_i8_i8_f32"
// GENERIC:       "arith.sitofp"(%{{.+}}) : (i8) -> f32
func.func @matmul_i8_i8_f32(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A transposed RHS through user indexing maps.
// CHECK-DAG:   #[[$LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transpose_b(
// CHECK:         linalg.matmul indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]] ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<16x8xf32>) outs(%{{.+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_transpose_b(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A broadcast LHS (one row for every M) combined with an attribute dictionary.
// CHECK-LABEL: func.func @matmul_broadcast_lhs(
// CHECK:         linalg.matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] {some_attr} ins(%{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8x16xf32>) outs(%{{.+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
func.func @matmul_broadcast_lhs(%a: tensor<8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {some_attr} ins(%a, %b : tensor<8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Maps spelled out but equal to the defaults are not printed back.
// CHECK-LABEL: func.func @matmul_explicit_default_maps(
// CHECK:         linalg.matmul ins(
func.func @matmul_explicit_default_maps(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// On buffers the op has no result and no arrow.
// CHECK-LABEL: func.func @matmul_memref(
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.+}} : memref<4x16xf32>){{$}}
func.func @matmul_memref(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x?x?xf16>, tensor<2x?x?xf16>) outs(%{{.+}} : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
// GENERIC-LABEL: sym_name = "batch_matmul"
// GENERIC:       "arith.extf"(%{{.+}}) : (f16) -> f32
func.func @batch_matmul(%a: tensor<2x?x?xf16>, %b: tensor<2x?x?xf16>, %c: tensor<2x?x?xf32>) -> tensor<2x?x?xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x?x?xf16>, tensor<2x?x?xf16>) outs(%c : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  return %0 : tensor<2x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul_transpose_b(
// CHECK:         linalg.batch_matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(%{{.+}}, %{{.+}} : tensor<2x4x8xf32>, tensor<2x16x8xf32>) outs(%{{.+}} : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @batch_matmul_transpose_b(%a: tensor<2x4x8xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %0 = linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// CHECK-LABEL: func.func @matvec_family(
// CHECK:         linalg.matvec ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK:         linalg.vecmat ins(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4x8xf32>) outs(%{{.+}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK:         linalg.batch_matvec ins(%{{.+}}, %{{.+}} : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%{{.+}} : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         linalg.batch_vecmat ins(%{{.+}}, %{{.+}} : tensor<2x4xf32>, tensor<2x4x8xf32>) outs(%{{.+}} : tensor<2x8xf32>) -> tensor<2x8xf32>
func.func @matvec_family(%m: tensor<4x8xf32>, %v8: tensor<8xf32>, %v4: tensor<4xf32>, %bm: tensor<2x4x8xf32>, %bv8: tensor<2x8xf32>, %bv4: tensor<2x4xf32>) {
  %0 = linalg.matvec ins(%m, %v8 : tensor<4x8xf32>, tensor<8xf32>) outs(%v4 : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%v4, %m : tensor<4xf32>, tensor<4x8xf32>) outs(%v8 : tensor<8xf32>) -> tensor<8xf32>
  %2 = linalg.batch_matvec ins(%bm, %bv8 : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%bv4 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = linalg.batch_vecmat ins(%bv4, %bm : tensor<2x4xf32>, tensor<2x4x8xf32>) outs(%bv8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @fill_and_copy(
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
// CHECK:         linalg.copy {some_attr} ins(%{{.+}} : tensor<1x?x2xf32>) outs(%{{.+}} : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
func.func @fill_and_copy(%src: tensor<1x?x2xf32>, %dest: tensor<1x?x2xf32>, %cst: f32) -> tensor<1x?x2xf32> {
  %0 = linalg.fill ins(%cst : f32) outs(%dest : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
  %1 = linalg.copy {some_attr} ins(%src : tensor<1x?x2xf32>) outs(%0 : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
  return %1 : tensor<1x?x2xf32>
}

// -----

// The bias-add IREE's elementwise consumer uses, with aliased maps and named
// block arguments.
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @generic_bias_add(
// CHECK:         linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %{{.+}} : tensor<?x?xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?x?xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %[[IN2:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[IN]], %[[IN2]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<?x?xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @generic_bias_add(%a: tensor<?x?xf32>, %b: tensor<?xf32>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %1 = arith.addf %in, %in_2 : f32
    linalg.yield %1 : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A reduction with linalg.index in the body.
// CHECK-LABEL: func.func @generic_reduction_index(
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<4xf32>) {
// CHECK:           linalg.index 1 : index
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @generic_reduction_index(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %1 = arith.addf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// MLIR ends a transpose line with a space after the permutation.
// CHECK-LABEL: func.func @transpose(
// CHECK:         %transposed = linalg.transpose ins(%{{.+}} : tensor<?x?x2x4x16x4x4xf32>) outs(%{{.+}} : tensor<?x?x2x4x4x16x4xf32>) permutation = [0, 1, 2, 3, 6, 4, 5] {{$}}
// GENERIC-LABEL: sym_name = "transpose"
// GENERIC:       "linalg.transpose"(%{{.+}}, %{{.+}}) <{permutation = array<i64: 0, 1, 2, 3, 6, 4, 5>}> ({
// GENERIC-NEXT:  ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// GENERIC-NEXT:    "linalg.yield"(%[[IN]]) : (f32) -> ()
func.func @transpose(%a: tensor<?x?x2x4x16x4x4xf32>, %b: tensor<?x?x2x4x4x16x4xf32>) -> tensor<?x?x2x4x4x16x4xf32> {
  %transposed = linalg.transpose ins(%a : tensor<?x?x2x4x16x4x4xf32>) outs(%b : tensor<?x?x2x4x4x16x4xf32>) permutation = [0, 1, 2, 3, 6, 4, 5]
  return %transposed : tensor<?x?x2x4x4x16x4xf32>
}

// -----

// The attribute dictionary follows the permutation, after MLIR's double space.
// CHECK-LABEL: func.func @transpose_with_attrs(
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<8x4xf32>) permutation = [1, 0]  {some_attr}
func.func @transpose_with_attrs(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %transposed = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0] {some_attr}
  return %transposed : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast(
// CHECK:         %broadcasted = linalg.broadcast ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4x8xf32>) dimensions = [1] {{$}}
func.func @broadcast(%a: tensor<4xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %broadcasted = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x8xf32>) dimensions = [1]
  return %broadcasted : tensor<4x8xf32>
}

// -----

// A body made of one op applied to (init, in) prints in the short form.
// CHECK-LABEL: func.func @reduce_short_form(
// CHECK:         %reduced = linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<4xf32>) dimensions = [1] {{$}}
// CHECK:         linalg.reduce { arith.maximumf {fastmath = #arith.fastmath<fast>} } ins(
// GENERIC-LABEL: sym_name = "reduce_short_form"
// GENERIC:       ^bb0(%[[IN:.+]]: f32, %[[INIT:.+]]: f32):
// GENERIC-NEXT:    %[[R:.+]] = "arith.addf"(%[[INIT]], %[[IN]])
// GENERIC-NEXT:    "linalg.yield"(%[[R]]) : (f32) -> ()
func.func @reduce_short_form(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %reduced = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
  %reduced_0 = linalg.reduce { arith.maximumf {fastmath = #arith.fastmath<fast>} } ins(%a : tensor<4x8xf32>) outs(%reduced : tensor<4xf32>) dimensions = [1]
  return %reduced_0 : tensor<4xf32>
}

// -----

// Any other body prints as a region on the next line.
// CHECK-LABEL: func.func @reduce_region(
// CHECK:         linalg.reduce ins(%{{.+}} : tensor<4x8x16xf32>) outs(%{{.+}} : tensor<4xf32>) dimensions = [1, 2] {{$}}
// CHECK-NEXT:      (%[[IN:in]]: f32, %[[INIT:init]]: f32) {
// CHECK-NEXT:        %[[M:.+]] = arith.mulf %[[IN]], %[[IN]] : f32
// CHECK-NEXT:        %[[S:.+]] = arith.addf %[[M]], %[[INIT]] : f32
// CHECK-NEXT:        linalg.yield %[[S]] : f32
// CHECK-NEXT:      }
func.func @reduce_region(%a: tensor<4x8x16xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %reduced = linalg.reduce ins(%a : tensor<4x8x16xf32>) outs(%init : tensor<4xf32>) dimensions = [1, 2]
    (%in: f32, %acc: f32) {
      %0 = arith.mulf %in, %in : f32
      %1 = arith.addf %0, %acc : f32
      linalg.yield %1 : f32
    }
  return %reduced : tensor<4xf32>
}

// -----

// The iterator type attribute, as inner_tiled ops spell their iterators.
// CHECK-LABEL: func.func @iterator_type_attr(
// CHECK:         "test.op"() {iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} : () -> ()
func.func @iterator_type_attr() {
  "test.op"() {iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} : () -> ()
  return
}

// -----

// linalg.elementwise: the kind names the function; maps are printed only when
// they are not the identity.

// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.+}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>)
// GENERIC-LABEL: sym_name = "elementwise"
// GENERIC: "linalg.elementwise"(%{{.+}}, %{{.+}}) <{kind = #linalg.elementwise_kind<exp>, operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC: math.exp
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<8x4xf32>, %m: tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %init = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp>
      ins(%a : tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [#id, #tr, #id] ins(%a, %c : tensor<4x8xf32>, tensor<8x4xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%m, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A generic with several results prints them in parentheses, as MLIR does, and
// reads them back.

// CHECK-LABEL: func.func @generic_two_results
// CHECK:   %{{.+}}:2 = linalg.generic
// CHECK:   } -> (tensor<4xf32>, tensor<4xf32>)
#id1 = affine_map<(d0) -> (d0)>
func.func @generic_two_results(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s, %x : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Convolutions: `strides` and `dilations` default to 1. Written without them, the op
// prints without them, as MLIR prints it; written with them, it keeps them.
func.func @conv_default_strides(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>, %out: tensor<1x6x6x4xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x3x3x4xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf ins(%in, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%out : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %e = tensor.empty() : tensor<1x3x3x4xf32>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%in, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%e : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %0, %1 : tensor<1x6x6x4xf32>, tensor<1x3x3x4xf32>
}
// CHECK-LABEL: func.func @conv_default_strides
// CHECK:         linalg.conv_2d_nhwc_hwcf ins(%{{.+}}, %{{.+}} : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%{{.+}} : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(
// GENERIC-LABEL: "func.func"() <{function_type = (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<1x6x6x4xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x3x3x4xf32>), sym_name = "conv_default_strides"}>
// GENERIC:         "linalg.conv_2d_nhwc_hwcf"(%{{.+}}, %{{.+}}, %{{.+}}) <{operandSegmentSizes = array<i32: 2, 1>}>
// GENERIC:         "linalg.conv_2d_nhwc_hwcf"(%{{.+}}, %{{.+}}, %{{.+}}) <{dilations = dense<1> : tensor<2xi64>, operandSegmentSizes = array<i32: 2, 1>, strides = dense<2> : tensor<2xi64>}>

// -----

// linalg.map: the short form whenever the mapper applies one op to the inputs'
// scalars (a non-default fastmath shows), else the mapper with its arguments;
// the init is the mapper's last argument. A memref init gives no result.
// CHECK-LABEL: func.func @maps
// CHECK:         %mapped = linalg.map { math.absf } ins(%arg0 : tensor<4x?xf32>) outs(%arg2 : tensor<4x?xf32>)
// CHECK:         %mapped_0 = linalg.map ins(%arg0, %arg1 : tensor<4x?xf32>, tensor<4x?xf32>) outs(%mapped : tensor<4x?xf32>)
// CHECK-NEXT:      ({{%[a-z_0-9]+}}: f32, {{%[a-z_0-9]+}}: f32, [[ACC:%[a-z_0-9]+]]: f32) {
// CHECK-NEXT:        %[[S:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:        %[[P:.+]] = arith.mulf %[[S]], [[ACC]] : f32
// CHECK-NEXT:        linalg.yield %[[P]] : f32
// CHECK-NEXT:      }
// CHECK:         linalg.map { arith.negf {fastmath = #arith.fastmath<fast>} } ins(%arg3 : memref<4xf32>) outs(%arg4 : memref<4xf32>) {note = 1 : i64}
// GENERIC-LABEL: "func.func"() <{function_type = (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>, memref<4xf32>, memref<4xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>), sym_name = "maps"}>
// GENERIC:         "linalg.map"(%{{.+}}, %{{.+}}) ({
// GENERIC-NEXT:    ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// GENERIC-NEXT:      %[[ABS:.+]] = "math.absf"(%[[IN]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
// GENERIC-NEXT:      "linalg.yield"(%[[ABS]]) : (f32) -> ()
// GENERIC-NEXT:    }) : (tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
// GENERIC:         }) : (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
// GENERIC:         }) {note = 1 : i64} : (memref<4xf32>, memref<4xf32>) -> ()
func.func @maps(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>, %i: tensor<4x?xf32>, %ma: memref<4xf32>, %mi: memref<4xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>) {
  %m = linalg.map { math.absf } ins(%a : tensor<4x?xf32>) outs(%i : tensor<4x?xf32>)
  %n = linalg.map ins(%a, %b : tensor<4x?xf32>, tensor<4x?xf32>) outs(%m : tensor<4x?xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %0 = arith.addf %x, %y : f32
      %1 = arith.mulf %0, %o : f32
      linalg.yield %1 : f32
    }
  linalg.map { arith.negf {fastmath = #arith.fastmath<fast>} } ins(%ma : memref<4xf32>) outs(%mi : memref<4xf32>) {note = 1}
  return %m, %n : tensor<4x?xf32>, tensor<4x?xf32>
}
