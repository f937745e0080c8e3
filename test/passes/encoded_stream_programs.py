"""Runnable stream programs in the form of walkthrough dump 13: host tensors with serialized layouts.

``matmul_program`` writes an M x N x K matmul computed once per device: each
device imports both inputs, encodes them into its own layouts
(``#iree_encoding.layout<[...]>``), and dispatches its own copy of the matmul
executable (the bindings carry the device's layouts, the loads inside return
the verbose matmul encodings, the result is unset inside), as
``iree-stream-specialize-encodings`` leaves a program. Used by the tests of the
passes that follow it (encode-host-tensors, encode-device-tensors,
materialize-encodings).
"""

from __future__ import annotations

from dataclasses import dataclass


def _cpu(dims: str, tiles: str, perm: str, resolver: str = "cpu_encoding_resolver") -> str:
    return (
        f"#iree_encoding.layout<[#iree_cpu.{resolver}<configuration = {{encoding_info = {{"
        f"innerDimsPos = [{dims}], innerTileSizes = [{tiles}], outerDimsPerm = [{perm}]}}}}>]>"
    )


_GFX942_LHS = (
    '#iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], '
    'innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 4 : i16], '
    '["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], '
    "permutation = [1, 4, 0, 2, 3]}}}>]>"
)
_GFX942_RHS = (
    '#iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], '
    'innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = [[["CrossThread", 4 : i16], '
    '["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], '
    "permutation = [0, 2, 4, 1, 3]}}}>]>"
)


@dataclass(frozen=True)
class Layouts:
    """The serialized layouts one device chose for the matmul's LHS and RHS."""

    lhs: str
    rhs: str


LAYOUTS = {
    # x86 f32 (IREE 3.13's dumps): 8x1 tiles.
    "x86": Layouts(_cpu("0, 1", "8, 1", "0, 1"), _cpu("1, 0", "8, 1", "1, 0")),
    # A narrow-M (matvec) LHS: a tile of 1 row pads nothing.
    "x86-matvec": Layouts(_cpu("0, 1", "1, 1", "0, 1"), _cpu("1, 0", "8, 1", "1, 0")),
    # Integer tiles with a K tile, as aarch64's i8mm picks them.
    "aarch64-i8": Layouts(_cpu("0, 1", "8, 8", "0, 1"), _cpu("1, 0", "8, 8", "1, 0")),
    "vmvx": Layouts(
        _cpu("0, 1", "4, 16", "0, 1", "vmvx_encoding_resolver"), _cpu("1, 0", "8, 16", "1, 0", "vmvx_encoding_resolver")
    ),
    # The walkthrough's gfx942 layouts (dump 13), swizzle included.
    "gfx942": Layouts(_GFX942_LHS, _GFX942_RHS),
}


def _shape(*sizes: int | None) -> str:
    return "x".join("?" if s is None else str(s) for s in sizes)


def matmul_program(
    m: int | None, n: int | None, k: int | None, types: tuple[str, str, str], devices: list[str]
) -> str:
    """Dump 13's form of an M x N x K matmul (None = dynamic), computed on each device of `devices`.

    `devices` are keys of LAYOUTS; the function returns one result per device.
    """
    lhs_t, rhs_t, out_t = types
    lines = [
        "#map = affine_map<(d0, d1, d2) -> (d0, d2)>",
        "#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>",
        "#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>",
    ]
    for i in range(3):
        lines.append(
            f"#enc{i} = #iree_encoding.encoding<operand_index = {i} : index, op_type = matmul, "
            f"element_types = [{lhs_t}, {rhs_t}, {out_t}], user_indexing_maps = [#map, #map1, #map2]>"
        )
    for i, device in enumerate(devices):
        lines.append(f"#lhs{i} = {LAYOUTS[device].lhs}")
        lines.append(f"#rhs{i} = {LAYOUTS[device].rhs}")
    lines.append("module attributes {stream.affinity.default = #hal.device.affinity<@device_0>} {")
    for i in range(len(devices)):
        lines.append(f'  util.global private @device_{i} = #hal.device.target<"local", []> : !hal.device')

    lhs, rhs, out = _shape(m, k), _shape(k, n), _shape(m, n)
    zero = "0.0" if out_t.startswith("f") else "0"

    def dyn(*pairs: tuple[int | None, str]) -> str:
        values = [v for s, v in pairs if s is None]
        return "{" + ", ".join(values) + "}" if values else ""

    def sizes(*pairs: tuple[int | None, str]) -> str:
        return ", ".join(v if s is None else str(s) for s, v in pairs)

    lhs_dims, rhs_dims, out_dims = dyn((m, "%m"), (k, "%k")), dyn((k, "%k"), (n, "%n")), dyn((m, "%m"), (n, "%n"))
    empty_dims = ", ".join(v for s, v in ((m, "%m"), (n, "%n")) if s is None)
    for i in range(len(devices)):
        lt, rt = f"tensor<{lhs}x{lhs_t}, #lhs{i}>", f"tensor<{rhs}x{rhs_t}, #rhs{i}>"
        lines += [
            f"  stream.executable private @ex{i} {{",
            f"    stream.executable.export public @ex{i} workgroups(%arg0: index, %arg1: index, %arg2: index) -> (index, index, index) {{",
            "      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2)",
            "      stream.return %x, %y, %z : index, index, index",
            "    }",
            "    builtin.module {",
            f"      func.func @ex{i}(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {{",
            "        %c0 = arith.constant 0 : index",
            f"        %cst = arith.constant {zero} : {out_t}",
            "        %m = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index",
            "        %n = iree_tensor_ext.dispatch.workload.ordinal %arg3, 1 : index",
            "        %k = iree_tensor_ext.dispatch.workload.ordinal %arg4, 2 : index",
            f"        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:{lt}>{lhs_dims}",
            f"        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:{rt}>{rhs_dims}",
            f"        %2 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<{out}x{out_t}>>{out_dims}",
            f"        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [{sizes((m, '%m'), (k, '%k'))}], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:{lt}>{lhs_dims} -> tensor<{lhs}x{lhs_t}, #enc0>",
            f"        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [{sizes((k, '%k'), (n, '%n'))}], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:{rt}>{rhs_dims} -> tensor<{rhs}x{rhs_t}, #enc1>",
            f"        %5 = tensor.empty({empty_dims}) : tensor<{out}x{out_t}, #enc2>",
            f"        %6 = linalg.fill ins(%cst : {out_t}) outs(%5 : tensor<{out}x{out_t}, #enc2>) -> tensor<{out}x{out_t}, #enc2>",
            f"        %7 = linalg.matmul ins(%3, %4 : tensor<{lhs}x{lhs_t}, #enc0>, tensor<{rhs}x{rhs_t}, #enc1>) outs(%6 : tensor<{out}x{out_t}, #enc2>) -> tensor<{out}x{out_t}, #enc2>",
            f"        %8 = iree_encoding.unset_encoding %7 : tensor<{out}x{out_t}, #enc2> -> tensor<{out}x{out_t}>{out_dims}",
            f"        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [{sizes((m, '%m'), (n, '%n'))}], strides = [1, 1] : tensor<{out}x{out_t}> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<{out}x{out_t}>>{out_dims}",
            "        return",
            "      }",
            "    }",
            "  }",
        ]
    results = ", ".join("!hal.buffer_view" for _ in devices)
    lines += [
        f"  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> ({results}) {{",
        "    %m = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index",
        "    %k = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index",
        "    %n = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index",
    ]
    returns = []
    for i in range(len(devices)):
        aff = f"#hal.device.affinity<@device_{i}>"
        p = f"%d{i}_"
        lt, rt = f"tensor<{lhs}x{lhs_t}, #lhs{i}>", f"tensor<{rhs}x{rhs_t}, #rhs{i}>"
        lines += [
            f"    {p}s0 = stream.tensor.sizeof on({aff}) tensor<{lhs}x{lhs_t}>{lhs_dims} : index",
            f"    {p}a = stream.tensor.import on({aff}) %arg0 : !hal.buffer_view -> tensor<{lhs}x{lhs_t}>{lhs_dims} in !stream.resource<external>{{{p}s0}}",
            f"    {p}a1 = stream.async.transfer {p}a : !stream.resource<external>{{{p}s0}} from({aff}) -> to({aff}) !stream.resource<*>{{{p}s0}}",
            f"    {p}s1 = stream.tensor.sizeof on({aff}) tensor<{rhs}x{rhs_t}>{rhs_dims} : index",
            f"    {p}b = stream.tensor.import on({aff}) %arg1 : !hal.buffer_view -> tensor<{rhs}x{rhs_t}>{rhs_dims} in !stream.resource<external>{{{p}s1}}",
            f"    {p}b1 = stream.async.transfer {p}b : !stream.resource<external>{{{p}s1}} from({aff}) -> to({aff}) !stream.resource<*>{{{p}s1}}",
            f"    {p}s2 = stream.tensor.sizeof on({aff}) {lt}{lhs_dims} : index",
            f"    {p}ea = stream.tensor.encode on({aff}) {p}a1 : tensor<{lhs}x{lhs_t}>{lhs_dims} in !stream.resource<*>{{{p}s0}} -> {lt}{lhs_dims} in !stream.resource<*>{{{p}s2}}",
            f"    {p}s3 = stream.tensor.sizeof on({aff}) {rt}{rhs_dims} : index",
            f"    {p}eb = stream.tensor.encode on({aff}) {p}b1 : tensor<{rhs}x{rhs_t}>{rhs_dims} in !stream.resource<*>{{{p}s1}} -> {rt}{rhs_dims} in !stream.resource<*>{{{p}s3}}",
            f"    {p}s4 = stream.tensor.sizeof on({aff}) tensor<{out}x{out_t}>{out_dims} : index",
            f"    {p}r = stream.tensor.dispatch on({aff}) @ex{i}::@ex{i}[%m, %n, %k]({p}ea, {p}eb, %m, %n, %k) : "
            f"({lt}{lhs_dims} in !stream.resource<*>{{{p}s2}}, {rt}{rhs_dims} in !stream.resource<*>{{{p}s3}}, index, index, index) "
            f"-> tensor<{out}x{out_t}>{out_dims} in !stream.resource<*>{{{p}s4}}",
            f"    {p}r1 = stream.async.transfer {p}r : !stream.resource<*>{{{p}s4}} from({aff}) -> to({aff}) !stream.resource<external>{{{p}s4}}",
            f"    {p}out = stream.tensor.export on({aff}) {p}r1 : tensor<{out}x{out_t}>{out_dims} in !stream.resource<external>{{{p}s4}} -> !hal.buffer_view",
        ]
        returns.append(f"{p}out")
    lines += [f"    util.return {', '.join(returns)} : {results}", "  }", "}"]
    return "\n".join(lines) + "\n"
