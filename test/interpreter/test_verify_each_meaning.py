"""``--verify-each-with-interpreter`` compares what a program means, not how it stores it.

Storage sizes (``stream.tensor.sizeof`` and what is computed from it) legitimately
change when an encoding is resolved, and an exported encoded tensor is held as its
logical value before codegen and as its layout's packed storage after: neither is a
change of results. A real change still is.
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass

from conftest import REPO
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.dialects import iree_encoding, stream

def parse_attribute(text: str):
    from xdsl.parser import Parser

    from mini_iree.compiler.interpreter import make_context

    return Parser(make_context(), text).parse_attribute()


SPLIT = re.compile(r"(?m)^// -----[ \t]*$")


def case(name: str, index: int) -> str:
    """One `// -----` case of a test input of test/passes/."""
    return SPLIT.split((REPO / "test" / "passes" / name).read_text())[index]


@dataclass(frozen=True)
class RetileExportPass(ModulePass):
    """A deliberately wrong pass: every exported encoded tensor claims 4x1 tiles instead of 8x1."""

    name = "test-retile-export"

    def apply(self, ctx, op: ModuleOp) -> None:
        for export in op.walk():
            if isinstance(export, stream.TensorExportOp):
                type_ = export.source_encoding
                text, count = re.subn(r"innerTileSizes = \[8\b", "innerTileSizes = [4", str(type_.encoding))
                assert count == 1, text
                export.properties["source_encoding"] = type_.__class__(
                    type_.element_type, type_.shape, parse_attribute(text)
                )


@dataclass(frozen=True)
class BumpOneConstantsPass(ModulePass):
    """A deliberately wrong pass: every index constant 1 becomes 2."""

    name = "test-bump-one-constants"

    def apply(self, ctx, op: ModuleOp) -> None:
        for constant in op.walk():
            if isinstance(constant, arith.ConstantOp) and constant.value == IntegerAttr.from_index_int_value(1):
                constant.properties["value"] = IntegerAttr.from_index_int_value(2)


class OptWithTestPasses(MiniIREEOptMain):
    def register_all_passes(self):
        super().register_all_passes()
        for cls in (RetileExportPass, BumpOneConstantsPass):
            self.register_pass(cls.name, lambda cls=cls: cls)


def run(text: str, tmp_path, pipeline: str, *flags: str) -> tuple[int, str]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = OptWithTestPasses(
            args=[str(path), "-p", pipeline, "--verify-each-with-interpreter", "--interpreter-dynamic-size=5", *flags]
        ).run()
    return code, err.getvalue()


# specialize_encodings.mlir case 3: two `stream.tensor.sizeof` results of a gfx942 matmul's
# operands; the resolved layout pads 5x5 f32 (100 bytes) to 128x16 tiles (8192 bytes).
SIZEOF_GFX942 = case("specialize_encodings.mlir", 3)

# encode_host_tensors.mlir case 12: an imported tensor encoded with 8x1 tiles and exported.
EXPORT_PACKED = case("encode_host_tensors.mlir", 12)
TO_DEVICE_CODE = (
    "iree-hal-assign-target-devices{targetDevices=x86_64:+avx,+avx2,+fma},iree-hal-materialize-target-devices,"
    "iree-stream-encode-host-tensors,iree-stream-materialize-encodings,data-tiling-codegen"
)


def test_byte_sizes_of_resolved_encodings_are_storage(tmp_path):
    code, err = run(SIZEOF_GFX942, tmp_path, "iree-stream-specialize-encodings")
    assert code == 0, err
    assert "pass 'iree-stream-specialize-encodings' kept the results of 1 function" in err


def test_an_index_result_that_is_not_a_size_is_still_compared(tmp_path):
    text = SIZEOF_GFX942.replace(
        "util.return %0, %1 : index, index",
        "%c1 = arith.constant 1 : index\n  %dim = arith.addi %d0, %c1 : index\n"
        "  util.return %0, %1, %dim : index, index, index",
    ).replace("-> (index, index)", "-> (index, index, index)", 1)
    assert "arith.addi %d0" in text
    code, err = run(text, tmp_path, "iree-stream-specialize-encodings,test-bump-one-constants")
    assert code == 1
    assert (
        "error: pass 'test-bump-one-constants' changed the results of @gfx942_swizzle: "
        "largest error 1 in result 2 at [] (expected 6, got 7)"
    ) in err


def test_an_exported_packed_tensor_means_its_logical_value(tmp_path):
    code, err = run(EXPORT_PACKED, tmp_path, TO_DEVICE_CODE)
    assert code == 0, err
    assert "pass 'iree-codegen-materialize-device-encoding' kept the results of 1 function" in err
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results of 1 function" in err


def test_an_exported_swizzled_tensor_means_its_logical_value(tmp_path):
    """The same program on gfx942: 128x16 tiles, swizzled for the MFMA."""
    layout = re.search(r"(?m)^#encoding = (.*)$", _specialized_gfx942()).group(1)
    text = re.sub(r"(?m)^#lhs = .*$", lambda _: f"#lhs = {layout}", EXPORT_PACKED).replace("?x4xf32", "?x20xf32")
    pipeline = TO_DEVICE_CODE.replace("x86_64:+avx,+avx2,+fma", "gfx942")
    code, err = run(text, tmp_path, pipeline)
    assert code == 0, err
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results of 1 function" in err


def _specialized_gfx942() -> str:
    from conftest import run_opt

    result = run_opt(["-", "-p", "iree-stream-specialize-encodings"], stdin=SIZEOF_GFX942.encode())
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_reading_packed_storage_through_another_layout_is_caught(tmp_path):
    code, err = run(EXPORT_PACKED, tmp_path, TO_DEVICE_CODE + ",test-retile-export")
    assert code == 1
    assert "error: pass 'test-retile-export' changed the results of @import_encode_export_kept" in err


def test_storage_size_results_follow_arithmetic_on_sizes():
    from mini_iree.compiler.interpreter import parse_module_text
    from mini_iree.compiler.interpreter.verify_each import storage_size_results

    module = parse_module_text(
        """
util.func public @f(%n: index) -> (index, index, index) {
  %s = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %c2 = arith.constant 2 : index
  %twice = arith.muli %s, %c2 : index
  %n2 = arith.muli %n, %c2 : index
  util.return %n2, %twice, %s : index, index, index
}
"""
    )
    function = next(op for op in module.walk() if op.name == "util.func")
    assert storage_size_results(function) == {1, 2}


def test_logical_value_unpacks_8x1_tiles():
    from mini_iree.compiler.interpreter.verify_each import logical_value

    layout = parse_attribute(
        "#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = "
        "{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>"
    )
    assert isinstance(layout, iree_encoding.LayoutAttr)
    logical = np.arange(15, dtype=np.float32).reshape(5, 3)
    # linalg.pack with 8x1 tiles: 1x3x8x1, rows 5-7 padding.
    packed = np.full((8, 3), -1, np.float32)
    packed[:5] = logical
    storage = np.zeros(packed.nbytes, np.uint8)  # the resource, as the interpreter allocates it
    storage[:] = np.ascontiguousarray(packed.reshape(1, 8, 3, 1).transpose(0, 2, 1, 3)).reshape(-1).view(np.uint8)
    view = storage[: logical.nbytes].view(np.float32).reshape(5, 3)
    np.testing.assert_array_equal(logical_value(view, layout), logical)
