// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors --iree-experimental-vscale-value=2 | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors --iree-experimental-vscale-value=2 --iree-era=3.13 | filecheck %s --check-prefix=NSW
// RUN: not mini-iree-opt %s -p iree-stream-encode-host-tensors 2>&1 | filecheck %s --check-prefix=NOVSCALE

// A scalable tile of 8 is 8 * vscale elements; host code cannot ask for vscale (iree-org/iree#21317)
// and sizes it with --iree-experimental-vscale-value: a 24-row dim padded to 16-row tiles is 32 rows.

#scalable = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1], scalableTiles = [true, false]}}>]>
util.func public @sizeof_scalable(%d: index) -> (index, index) {
  %0 = stream.tensor.sizeof tensor<24x8xf32, #scalable> : index
  %1 = stream.tensor.sizeof tensor<?x8xf32, #scalable>{%d} : index
  util.return %0, %1 : index, index
}
// CHECK-LABEL: util.func public @sizeof_scalable(
// CHECK-SAME:    %[[D:.+]]: index)
// CHECK-DAG:     %[[C1024:.+]] = arith.constant 1024 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         %[[CEIL:.+]] = arith.ceildivsi %[[D]], %[[C16]] : index
// CHECK:         %[[PAD:.+]] = arith.muli %[[CEIL]], %[[C16]] : index
// CHECK:         %[[SIZE:.+]] = arith.muli %[[PAD]], %[[C32]] : index
// CHECK:         util.return %[[C1024]], %[[SIZE]]
// NSW:           arith.muli %{{.+}}, %{{.+}} overflow<nsw> : index
// NOVSCALE: error: 'stream.tensor.sizeof' op failed to calculate total byte count: cannot size tensor<24x8xf32, {{.+}}>: inner tile of dim 0 is scalable and no --iree-experimental-vscale-value is given
