// An i8 x i8 -> i32 matmul feeding an i32 matmul: the unpack of the first result is
// relaid out in a dispatch that already holds index constants.
func.func @chain(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xi8>
  %n = tensor.dim %b, %c1 : tensor<?x?xi8>
  %p = tensor.dim %c, %c1 : tensor<?x?xi32>
  %zero = arith.constant 0 : i32
  %0 = tensor.empty(%m, %n) : tensor<?x?xi32>
  %1 = linalg.fill ins(%zero : i32) outs(%0 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %2 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%1 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %3 = tensor.empty(%m, %p) : tensor<?x?xi32>
  %4 = linalg.fill ins(%zero : i32) outs(%3 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %5 = linalg.matmul ins(%2, %c : tensor<?x?xi32>, tensor<?x?xi32>) outs(%4 : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %5 : tensor<?x?xi32>
}
