// An unsigned i8 contraction: the body zero-extends both operands (element types ui8, ui8, i32).
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_u8u8i32(%lhs: tensor<?x?xi8>, %rhs: tensor<?x?xi8>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xi8>
  %n = tensor.dim %rhs, %c1 : tensor<?x?xi8>
  %zero = arith.constant 0 : i32
  %0 = tensor.empty(%m, %n) : tensor<?x?xi32>
  %1 = linalg.fill ins(%zero : i32) outs(%0 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%lhs, %rhs : tensor<?x?xi8>, tensor<?x?xi8>) outs(%1 : tensor<?x?xi32>) {
  ^bb0(%a: i8, %b: i8, %out: i32):
    %3 = arith.extui %a : i8 to i32
    %4 = arith.extui %b : i8 to i32
    %5 = arith.muli %3, %4 : i32
    %6 = arith.addi %out, %5 : i32
    linalg.yield %6 : i32
  } -> tensor<?x?xi32>
  return %2 : tensor<?x?xi32>
}
