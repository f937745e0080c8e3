"""iree-stream-specialize-encodings keeps results and reproduces the walkthrough's dump 13.

Runnable stream programs in the form of walkthrough dump 10 (buffer views
imported, both matmul inputs encoded on the host, one data-tiled matmul
dispatch whose result is unset inside) are generated for several targets,
element types and static/dynamic shapes, and run before and after the pass
with ``--verify-each-with-interpreter``: the resources of encoded tensors now
take the padded sizes of the resolved layouts, and the results must not change.
A two-device program checks the executable duplication; dump 10 itself must
come out as dump 13.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import require_reference, run_opt

PASS = "iree-stream-specialize-encodings"

TARGETS = {
    "avx2": (
        '#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx,+avx2,+fma", '
        'iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>'
    ),
    "avx512": (
        '#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx512f", '
        'iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>'
    ),
    "aarch64": (
        '#hal.executable.target<"llvm-cpu", "embedded-elf-arm_64", {cpu_features = "+neon,+dotprod,+i8mm", '
        'iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "aarch64-unknown-unknown-eabi-elf"}>'
    ),
    "vmvx": '#hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>',
    # No resolver: IREE's identity resolver, `#iree_encoding.layout<[#iree_encoding.identity]>`.
    "no-resolver": '#hal.executable.target<"vmvx", "vmvx-bytecode-fb">',
    # The GPU padding resolver on a target without a known L1 cache: `padding<[0, 0]>` everywhere.
    "gpu-padding": (
        '#hal.executable.target<"rocm", "rocm-hsaco-fb", '
        "{iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<cache_line_bytes = 128, cache_sets = 4>}>"
    ),
}


def _gfx942() -> str:
    from mini_iree.compiler.resolvers.gpu import rocm_target_text

    return rocm_target_text("gfx942")


def _target(name: str) -> str:
    return _gfx942() if name == "gfx942" else TARGETS[name]


def _shape(*sizes: int | None) -> str:
    return "x".join("?" if s is None else str(s) for s in sizes)


def matmul_program(
    m: int | None, n: int | None, k: int | None, types: tuple[str, str, str], devices: list[str]
) -> str:
    """Dump 10's program for an M x N x K matmul, computed once on each device in `devices`.

    Every device imports the inputs, encodes them and dispatches the one
    executable `@ex`; the function returns one result per device.
    """
    lhs_t, rhs_t, out_t = types
    sizes = "?, ?, ?" if None in (m, n, k) else f"{m}, {n}, {k}"
    lines = [
        "#map = affine_map<(d0, d1, d2) -> (d0, d2)>",
        "#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>",
        "#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>",
    ]
    for i in range(3):
        lines.append(
            f"#encoding{i} = #iree_encoding.encoding<operand_index = {i} : index, op_type = matmul, "
            f"element_types = [{lhs_t}, {rhs_t}, {out_t}], user_indexing_maps = [#map, #map1, #map2], "
            f"iteration_sizes = [{sizes}]>"
        )
    lines.append("module attributes {stream.affinity.default = #hal.device.affinity<@device_0>} {")
    for i, device in enumerate(dict.fromkeys(devices)):
        lines.append(f'  util.global private @device_{i} = #hal.device.target<"local", [{_target(device)}]> : !hal.device')
    device_index = {d: i for i, d in enumerate(dict.fromkeys(devices))}

    lhs, rhs, out = _shape(m, k), _shape(k, n), _shape(m, n)
    zero = "0.0" if out_t.startswith("f") else "0"

    def dyn(*pairs: tuple[int | None, str]) -> str:
        values = [v for s, v in pairs if s is None]
        return "{" + ", ".join(values) + "}" if values else ""

    lines += [
        "  stream.executable private @ex {",
        "    stream.executable.export public @ex workgroups(%arg0: index, %arg1: index, %arg2: index) -> (index, index, index) {",
        "      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2)",
        "      stream.return %x, %y, %z : index, index, index",
        "    }",
        "    builtin.module {",
        "      func.func @ex(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {",
        "        %c0 = arith.constant 0 : index",
        f"        %cst = arith.constant {zero} : {out_t}",
        "        %m = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index",
        "        %n = iree_tensor_ext.dispatch.workload.ordinal %arg3, 1 : index",
        "        %k = iree_tensor_ext.dispatch.workload.ordinal %arg4, 2 : index",
    ]
    lhs_dims, rhs_dims, out_dims = dyn((m, "%m"), (k, "%k")), dyn((k, "%k"), (n, "%n")), dyn((m, "%m"), (n, "%n"))
    def sizes(*pairs: tuple[int | None, str]) -> str:
        return ", ".join(value if size is None else str(size) for size, value in pairs)

    lhs_sizes, rhs_sizes, out_sizes = sizes((m, "%m"), (k, "%k")), sizes((k, "%k"), (n, "%n")), sizes((m, "%m"), (n, "%n"))
    empty_dims = ", ".join(v for s, v in ((m, "%m"), (n, "%n")) if s is None)
    lines += [
        f"        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<{lhs}x{lhs_t}, #encoding0>>{lhs_dims}",
        f"        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<{rhs}x{rhs_t}, #encoding1>>{rhs_dims}",
        f"        %2 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<{out}x{out_t}>>{out_dims}",
        f"        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [{lhs_sizes}], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<{lhs}x{lhs_t}, #encoding0>>{lhs_dims} -> tensor<{lhs}x{lhs_t}, #encoding0>",
        f"        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [{rhs_sizes}], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<{rhs}x{rhs_t}, #encoding1>>{rhs_dims} -> tensor<{rhs}x{rhs_t}, #encoding1>",
        f"        %5 = tensor.empty({empty_dims}) : tensor<{out}x{out_t}, #encoding2>",
        f"        %6 = linalg.fill ins(%cst : {out_t}) outs(%5 : tensor<{out}x{out_t}, #encoding2>) -> tensor<{out}x{out_t}, #encoding2>",
        f"        %7 = linalg.matmul ins(%3, %4 : tensor<{lhs}x{lhs_t}, #encoding0>, tensor<{rhs}x{rhs_t}, #encoding1>) outs(%6 : tensor<{out}x{out_t}, #encoding2>) -> tensor<{out}x{out_t}, #encoding2>",
        f"        %8 = iree_encoding.unset_encoding %7 : tensor<{out}x{out_t}, #encoding2> -> tensor<{out}x{out_t}>{out_dims}",
        f"        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [{out_sizes}], strides = [1, 1] : tensor<{out}x{out_t}> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<{out}x{out_t}>>{out_dims}",
        "        return",
        "      }",
        "    }",
        "  }",
    ]
    results = ", ".join("!hal.buffer_view" for _ in devices)
    lines += [
        f"  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> ({results}) {{",
        # Sizes as the buffer views give them; static sizes are also spelled in the types.
        "    %m = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index",
        "    %k = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index",
        "    %n = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index",
    ]
    returns = []
    for i, device in enumerate(devices):
        aff = f"#hal.device.affinity<@device_{device_index[device]}>"
        p = f"%d{i}_"
        lines += [
            f"    {p}s0 = stream.tensor.sizeof on({aff}) tensor<{lhs}x{lhs_t}>{dyn((m, '%m'), (k, '%k'))} : index",
            f"    {p}a = stream.tensor.import on({aff}) %arg0 : !hal.buffer_view -> tensor<{lhs}x{lhs_t}>{dyn((m, '%m'), (k, '%k'))} in !stream.resource<external>{{{p}s0}}",
            f"    {p}a1 = stream.async.transfer {p}a : !stream.resource<external>{{{p}s0}} from({aff}) -> to({aff}) !stream.resource<*>{{{p}s0}}",
            f"    {p}s1 = stream.tensor.sizeof on({aff}) tensor<{rhs}x{rhs_t}>{dyn((k, '%k'), (n, '%n'))} : index",
            f"    {p}b = stream.tensor.import on({aff}) %arg1 : !hal.buffer_view -> tensor<{rhs}x{rhs_t}>{dyn((k, '%k'), (n, '%n'))} in !stream.resource<external>{{{p}s1}}",
            f"    {p}b1 = stream.async.transfer {p}b : !stream.resource<external>{{{p}s1}} from({aff}) -> to({aff}) !stream.resource<*>{{{p}s1}}",
            f"    {p}s2 = stream.tensor.sizeof on({aff}) tensor<{lhs}x{lhs_t}, #encoding0>{dyn((m, '%m'), (k, '%k'))} : index",
            f"    {p}ea = stream.tensor.encode on({aff}) {p}a1 : tensor<{lhs}x{lhs_t}>{dyn((m, '%m'), (k, '%k'))} in !stream.resource<*>{{{p}s0}} -> tensor<{lhs}x{lhs_t}, #encoding0>{dyn((m, '%m'), (k, '%k'))} in !stream.resource<*>{{{p}s2}}",
            f"    {p}s3 = stream.tensor.sizeof on({aff}) tensor<{rhs}x{rhs_t}, #encoding1>{dyn((k, '%k'), (n, '%n'))} : index",
            f"    {p}eb = stream.tensor.encode on({aff}) {p}b1 : tensor<{rhs}x{rhs_t}>{dyn((k, '%k'), (n, '%n'))} in !stream.resource<*>{{{p}s1}} -> tensor<{rhs}x{rhs_t}, #encoding1>{dyn((k, '%k'), (n, '%n'))} in !stream.resource<*>{{{p}s3}}",
            f"    {p}s4 = stream.tensor.sizeof on({aff}) tensor<{out}x{out_t}>{dyn((m, '%m'), (n, '%n'))} : index",
            f"    {p}r = stream.tensor.dispatch on({aff}) @ex::@ex[%m, %n, %k]({p}ea, {p}eb, %m, %n, %k) : "
            f"(tensor<{lhs}x{lhs_t}, #encoding0>{dyn((m, '%m'), (k, '%k'))} in !stream.resource<*>{{{p}s2}}, "
            f"tensor<{rhs}x{rhs_t}, #encoding1>{dyn((k, '%k'), (n, '%n'))} in !stream.resource<*>{{{p}s3}}, index, index, index) "
            f"-> tensor<{out}x{out_t}>{dyn((m, '%m'), (n, '%n'))} in !stream.resource<*>{{{p}s4}}",
            f"    {p}r1 = stream.async.transfer {p}r : !stream.resource<*>{{{p}s4}} from({aff}) -> to({aff}) !stream.resource<external>{{{p}s4}}",
            f"    {p}out = stream.tensor.export on({aff}) {p}r1 : tensor<{out}x{out_t}>{dyn((m, '%m'), (n, '%n'))} in !stream.resource<external>{{{p}s4}} -> !hal.buffer_view",
        ]
        returns.append(f"{p}out")
    lines += [f"    util.return {', '.join(returns)} : {results}", "  }", "}"]
    return "\n".join(lines) + "\n"


def _run(tmp_path, text: str, pass_: str = PASS, size: int = 13):
    path = tmp_path / "input.mlir"
    path.write_text(text)
    return run_opt([str(path), "-p", pass_, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])


F32 = ("f32", "f32", "f32")
I8 = ("i8", "i8", "i32")
F16 = ("f16", "f16", "f32")


@pytest.mark.parametrize(
    ("target", "sizes", "types"),
    [
        ("avx2", (None, None, None), F32),
        ("avx2", (37, 53, 19), F32),
        ("avx2", (1, 53, 19), F32),  # matvec-like narrow M: 1-row tiles
        ("avx2", (37, 1, 19), F32),  # narrow N: the result is transposed
        ("avx2", (None, None, None), I8),
        ("avx512", (None, None, None), F16),
        ("aarch64", (None, None, None), I8),
        ("aarch64", (21, 35, 9), F32),
        ("vmvx", (None, None, None), F32),
        ("vmvx", (15, 17, 33), I8),
        ("gfx942", (None, None, None), F32),
        ("gfx942", (130, 20, 17), F32),
        ("no-resolver", (None, None, None), F32),
        ("gpu-padding", (None, None, None), F32),
    ],
)
def test_keeps_results(tmp_path, target, sizes, types):
    result = _run(tmp_path, matmul_program(*sizes, types, [target]))
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr


def test_keeps_results_gpu_3_13(tmp_path):
    result = _run(tmp_path, matmul_program(None, None, None, F32, ["gfx942"]), f"{PASS}{{gpu-era=3.13}}")
    assert result.returncode == 0, result.stderr


def test_layouts_change_resource_sizes(tmp_path):
    """The encoded inputs really take padded sizes now (37 rows round up to 40 with 8-row tiles)."""
    out = run_opt([str(_write(tmp_path, matmul_program(37, 53, 19, F32, ["avx2"]))), "-p", PASS])
    assert out.returncode == 0, out.stderr
    assert "innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]" in out.stdout
    assert "innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]" in out.stdout
    # LHS 37x19 with 8x1 tiles: 40 x 19 elements; RHS 19x53 with 8x1 tiles: 19 x 56.
    assert _sizeof_values(out.stdout) == [37 * 19 * 4, 19 * 53 * 4, 40 * 19 * 4, 19 * 56 * 4, 37 * 53 * 4]


def _sizeof_values(text: str) -> list[int]:
    """The byte size of every (static) `stream.tensor.sizeof`, by the interpreter's sizing rule."""
    from xdsl.context import Context

    from mini_iree.compiler.interpreter.stream_ops import storage_size
    from mini_iree.compiler.ir.parsing import parse_mlir
    from mini_iree.dialects import get_all_dialects, stream

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    module = parse_mlir(ctx, text, "<test>")
    return [storage_size(op, op.encoding, []) for op in module.walk() if isinstance(op, stream.TensorSizeOfOp)]


def test_two_devices_duplicate_the_executable(tmp_path):
    """vmvx and x86 avx512 give the inputs different layouts: @ex is specialized once per device."""
    text = matmul_program(None, None, None, F32, ["vmvx", "avx512"])
    result = _run(tmp_path, text)
    assert result.returncode == 0, result.stderr
    out = run_opt([str(tmp_path / "input.mlir"), "-p", PASS])
    assert out.returncode == 0, out.stderr
    assert re.findall(r"stream\.executable private @(\w+)", out.stdout) == ["ex", "ex_dup0"]
    sites = re.findall(r"stream\.tensor\.dispatch on\(#hal\.device\.affinity<@(\w+)>\) @(\w+)::@ex", out.stdout)
    assert sites == [("device_0", "ex"), ("device_1", "ex_dup0")]
    # Each copy's bindings take the layouts of its device's resolver.
    copies = out.stdout.split("stream.executable private @")[1:]
    assert "#encoding" in copies[0] and "#encoding" in copies[1]
    aliases = dict(re.findall(r"^(#encoding\d*) = (.*)$", out.stdout, re.M))
    first = re.search(r"readonly:tensor<\?x\?xf32, (#encoding\d*)>", copies[0]).group(1)
    second = re.search(r"readonly:tensor<\?x\?xf32, (#encoding\d*)>", copies[1]).group(1)
    assert "vmvx_encoding_resolver" in aliases[first]
    assert "cpu_encoding_resolver" in aliases[second]


def test_same_layouts_share_the_executable(tmp_path):
    """Two dispatches on one device resolve to the same bindings: no copy."""
    text = matmul_program(None, None, None, F32, ["avx2", "avx2"])
    out = run_opt([str(_write(tmp_path, text)), "-p", PASS])
    assert out.returncode == 0, out.stderr
    assert re.findall(r"stream\.executable private @(\w+)", out.stdout) == ["ex"]


def _write(tmp_path, text: str):
    path = tmp_path / "input.mlir"
    path.write_text(text)
    return path


def test_walkthrough_dump_10_keeps_results():
    path = require_reference() / "seed-walkthrough" / "10-convert-to-stream.after.mlir"
    result = run_opt([str(path), "-p", PASS, "--verify-each-with-interpreter", "--interpreter-dynamic-size=37"])
    assert result.returncode == 0, result.stderr


def _canonical(text: str) -> str:
    """Print `text` through mini-iree-opt so layout and line breaks do not matter."""
    result = run_opt(["-"], stdin=text.encode())
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_walkthrough_dump_10_gives_dump_13():
    """Dump 10 -> dump 13. IREE ran CSE between the two (the pipeline's cleanup), which is why `cse` follows."""
    reference = require_reference() / "seed-walkthrough"
    got = run_opt([str(reference / "10-convert-to-stream.after.mlir"), "-p", f"{PASS},cse"])
    assert got.returncode == 0, got.stderr
    expected = _canonical((reference / "13-specialize-encodings.after.mlir").read_text())
    assert got.stdout == expected


def test_identity_and_zero_padding_layouts(tmp_path):
    """No resolver: the identity layout. The padding resolver without cache info: zero padding, bindings included."""
    out = run_opt([str(_write(tmp_path, matmul_program(None, None, None, F32, ["no-resolver"]))), "-p", PASS])
    assert out.returncode == 0, out.stderr
    assert "#iree_encoding.layout<[#iree_encoding.identity]>" in out.stdout
    out = run_opt([str(_write(tmp_path, matmul_program(None, None, None, F32, ["gpu-padding"]))), "-p", PASS])
    assert out.returncode == 0, out.stderr
    layouts = {k: v for k, v in re.findall(r"^(#encoding\d*) = (.*)$", out.stdout, re.M) if "layout" in v}
    assert set(layouts.values()) == {"#iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>"}
    (alias,) = layouts
    assert f"readonly:tensor<?x?xf32, {alias}>>" in out.stdout
    sizeof = f"stream.tensor.sizeof on(#hal.device.affinity<@device_0>) tensor<?x?xf32, {alias}>"
    assert re.search(re.escape(sizeof) + r"\{%\w+, %\w+\}", out.stdout)


PADDED_CHAIN = Path(__file__).parents[1] / "e2e" / "Inputs" / "padding" / "matmul_chain_padded.mlir"


@pytest.mark.parametrize("size", [1, 7])
def test_padding_program_keeps_results(tmp_path, size):
    """A `padding<[0, ?]>` hand-over between two dispatches on gfx942 with the padding resolver.

    The resource of the padded tensor grows to 1056 floats a row (its binding too);
    the program, run before and after the pass, must give the same results.
    """
    stages = (
        "iree-hal-assign-target-devices{targetDevices=gfx942:encoding-layout-resolver=pad},"
        "iree-hal-materialize-target-devices,iree-dispatch-creation-convert-dispatch-regions-to-workgroups,"
        "iree-flow-capture-dynamic-dims,canonicalize,cse,iree-flow-outline-dispatch-regions,iree-stream-conversion,canonicalize,cse"
    )
    stream_form = run_opt([str(PADDED_CHAIN), "-p", stages])
    assert stream_form.returncode == 0, stream_form.stderr
    path = _write(tmp_path, stream_form.stdout)
    result = run_opt([str(path), "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr
    out = run_opt([str(path), "-p", PASS])
    assert "#iree_encoding.layout<[#iree_encoding.padding<[0, 56]>]>" in out.stdout
    assert "tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>>" not in out.stdout.split("util.func")[-1]


def test_gpu_3_13_layouts_match_iree_3_13_dump():
    """Dump 10 with `gpu-era=3.13` gives, character for character, the layouts IREE 3.13 printed for gfx942."""
    reference = require_reference()
    got = run_opt([str(reference / "seed-walkthrough" / "10-convert-to-stream.after.mlir"), "-p", f"{PASS}{{gpu-era=3.13}}"])
    assert got.returncode == 0, got.stderr
    iree = (reference / "iree-3.13" / "gfx942-dynamic-matmul" / "10_SpecializeEncodingsPass.mlir").read_text()
    pattern = r"^#encoding1? = #iree_encoding\.layout<.*$"
    expected = re.findall(pattern, iree, re.M)
    assert len(expected) == 2 and ", 1 : i8]" in expected[1]
    assert re.findall(pattern, got.stdout, re.M) == expected


def test_bad_gpu_era_is_an_error(tmp_path):
    path = _write(tmp_path, matmul_program(None, None, None, F32, ["gfx942"]))
    out = run_opt([str(path), "-p", f"{PASS}{{gpu-era=2024}}"])
    assert out.returncode == 1
    assert "error: unknown gpu-era '2024' (expected one of: walkthrough, 3.13)" in out.stderr
    assert "Traceback" not in out.stderr


def test_after_stream_conversion_gives_dump_13():
    """Dump 09 through iree-stream-conversion and this pass (then CSE, as IREE's cleanup) is dump 13, with the same results."""
    reference = require_reference() / "seed-walkthrough"
    pipeline = f"iree-stream-conversion,{PASS},cse"
    got = run_opt(
        [
            str(reference / "09-convert-to-stream.before.mlir"),
            "-p",
            pipeline,
            "--verify-each-with-interpreter",
            "--interpreter-dynamic-size=37",
        ]
    )
    assert got.returncode == 0, got.stderr
    assert f"pass '{PASS}' kept the results of 1 function" in got.stderr
    assert got.stdout == _canonical((reference / "13-specialize-encodings.after.mlir").read_text())


def test_three_variants_keep_iree_copy_order(tmp_path):
    """Each copy is inserted right after the original, as IREE's rewriter does: @ex, @ex_dup1, @ex_dup0."""
    result = _run(tmp_path, matmul_program(None, None, None, F32, ["vmvx", "avx2", "avx512"]))
    assert result.returncode == 0, result.stderr
    out = run_opt([str(tmp_path / "input.mlir"), "-p", PASS])
    assert re.findall(r"stream\.executable private @(\w+)", out.stdout) == ["ex", "ex_dup1", "ex_dup0"]
    sites = re.findall(r"stream\.tensor\.dispatch on\(#hal\.device\.affinity<@(\w+)>\) @(\w+)::@ex", out.stdout)
    assert sites == [("device_0", "ex"), ("device_1", "ex_dup0"), ("device_2", "ex_dup1")]


@pytest.mark.parametrize(
    "case", ["dynamic-matmul", "const-weight-matmul", "elementwise-producer-consumer", "gfx942-dynamic-matmul"]
)
def test_iree_3_13_specialized_dumps_are_left_alone(case):
    """IREE 3.13's own output is fully serialized: running the pass again changes nothing."""
    path = require_reference() / "iree-3.13" / case / "10_SpecializeEncodingsPass.mlir"
    before = run_opt([str(path)])
    after = run_opt([str(path), "-p", PASS])
    assert before.returncode == 0 and after.returncode == 0, after.stderr
    assert after.stdout == before.stdout
