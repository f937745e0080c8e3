// RUN: mini-iree-opt %s -p iree-flow-canonicalize --split-input-file | filecheck %s

// affine.apply becomes arith, term by term, as IREE 3.13 prints it.

util.func public @apply_lowered(%a: index, %b: index) -> (index, index, index, index) {
  %0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 16)>()[%a]
  %1 = affine.apply affine_map<()[s0] -> (s0 floordiv 16)>()[%a]
  %2 = affine.apply affine_map<()[s0] -> (s0 mod 16)>()[%a]
  %3 = affine.apply affine_map<()[s0, s1] -> (s0 - s1 * 2)>()[%a, %b]
  util.return %0, %1, %2, %3 : index, index, index, index
}
// CHECK-LABEL: util.func public @apply_lowered(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: index, %[[B:[a-zA-Z0-9]+]]: index
// CHECK-DAG:     %[[CM2:.+]] = arith.constant -2 : index
// CHECK-DAG:     %[[CM1:.+]] = arith.constant -1 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         %[[NONPOS:.+]] = arith.cmpi sle, %[[A]], %[[C0]] : index
// CHECK-NEXT:    %[[NEG:.+]] = arith.subi %[[C0]], %[[A]] : index
// CHECK-NEXT:    %[[DEC:.+]] = arith.subi %[[A]], %[[C1]] : index
// CHECK-NEXT:    %[[SEL:.+]] = arith.select %[[NONPOS]], %[[NEG]], %[[DEC]] : index
// CHECK-NEXT:    %[[Q:.+]] = arith.divsi %[[SEL]], %[[C16]] : index
// CHECK-NEXT:    %[[NQ:.+]] = arith.subi %[[C0]], %[[Q]] : index
// CHECK-NEXT:    %[[IQ:.+]] = arith.addi %[[Q]], %[[C1]] : index
// CHECK-NEXT:    %[[CEIL:.+]] = arith.select %[[NONPOS]], %[[NQ]], %[[IQ]] : index
// CHECK-NEXT:    %[[ISNEG:.+]] = arith.cmpi slt, %[[A]], %[[C0]] : index
// CHECK-NEXT:    %[[FLIP:.+]] = arith.subi %[[CM1]], %[[A]] : index
// CHECK-NEXT:    %[[FSEL:.+]] = arith.select %[[ISNEG]], %[[FLIP]], %[[A]] : index
// CHECK-NEXT:    %[[FQ:.+]] = arith.divsi %[[FSEL]], %[[C16]] : index
// CHECK-NEXT:    %[[FFQ:.+]] = arith.subi %[[CM1]], %[[FQ]] : index
// CHECK-NEXT:    %[[FLOOR:.+]] = arith.select %[[ISNEG]], %[[FFQ]], %[[FQ]] : index
// CHECK-NEXT:    %[[REM:.+]] = arith.remsi %[[A]], %[[C16]] : index
// CHECK-NEXT:    %[[RNEG:.+]] = arith.cmpi slt, %[[REM]], %[[C0]] : index
// CHECK-NEXT:    %[[RADD:.+]] = arith.addi %[[REM]], %[[C16]] : index
// CHECK-NEXT:    %[[MOD:.+]] = arith.select %[[RNEG]], %[[RADD]], %[[REM]] : index
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[B]], %[[CM2]] overflow<nsw> : index
// CHECK-NEXT:    %[[DIFF:.+]] = arith.addi %[[A]], %[[P]] : index
// CHECK-NEXT:    util.return %[[CEIL]], %[[FLOOR]], %[[MOD]], %[[DIFF]]

// -----

// Inserting a whole tensor into an empty one, or into a slice of the same sizes, is the tensor.

util.func public @full_inserts(%source: tensor<8x?xf32>, %dest: tensor<10x?xf32>, %size: index) -> (tensor<8x?xf32>, tensor<8x?xf32>) {
  %extract = tensor.extract_slice %dest [1, 0] [8, %size] [1, 1] : tensor<10x?xf32> to tensor<8x?xf32>
  %0 = tensor.insert_slice %source into %extract [0, 0] [8, %size] [1, 1] : tensor<8x?xf32> into tensor<8x?xf32>
  %empty = tensor.empty(%size) : tensor<8x?xf32>
  %1 = tensor.insert_slice %source into %empty [0, 0] [8, %size] [1, 1] : tensor<8x?xf32> into tensor<8x?xf32>
  util.return %0, %1 : tensor<8x?xf32>, tensor<8x?xf32>
}
// CHECK-LABEL: util.func public @full_inserts(
// CHECK-SAME:    %[[SOURCE:[a-zA-Z0-9]+]]: tensor<8x?xf32>
// CHECK-NEXT:    util.return %[[SOURCE]], %[[SOURCE]]

// -----

// An insert at an offset is not the whole tensor.

util.func public @partial_insert(%source: tensor<4xf32>, %dest: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tensor.insert_slice %source into %dest [2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  util.return %0 : tensor<8xf32>
}
// CHECK-LABEL: util.func public @partial_insert(
// CHECK:         tensor.insert_slice
