"""Values on the walkthrough page: the tensors a pass introduces, captured on the seeded inputs, with origins."""

from __future__ import annotations

import json
import re
from html import unescape

import numpy as np
import pytest
from conftest import REPO

from mini_iree.compiler.interpreter.verify_each import ResultChecker
from mini_iree.compiler.walkthrough import values
from mini_iree.compiler.walkthrough.captures import _decode, numbering, origins_of
from mini_iree.compiler.walkthrough.stages import run_walkthrough

MATMUL = REPO / "examples" / "matmul.mlir"
SIZE = 5


@pytest.fixture(scope="module")
def cpu():
    return run_walkthrough(str(MATMUL), "data-tiling{target=x86_64:+avx512f}", dynamic_size=SIZE)


@pytest.fixture(scope="module")
def gpu():
    return run_walkthrough(str(MATMUL), "data-tiling{target=gfx942}", dynamic_size=SIZE)


def _stage(walk, flag):
    return next(s for s in walk.stages if s.flag == flag)


def _inputs(walk):
    """The seeded inputs of the page's check (the same seed and size give the same arrays)."""
    (ref,) = ResultChecker(walk.stages[0].module, walk.seed, walk.dynamic_size).references
    return ref.inputs


def numpy_pack(source, inner_dims_pos, tiles, outer_perm, pad):
    """linalg.pack in numpy: pad to whole tiles, split each tiled dim, outer dims permuted, tiles last."""
    padded_shape = list(source.shape)
    for d, t in zip(inner_dims_pos, tiles):
        padded_shape[d] = -(-source.shape[d] // t) * t
    padded = np.full(padded_shape, pad, dtype=source.dtype)
    padded[tuple(slice(0, n) for n in source.shape)] = source
    split, outer_axis, inner_axis = [], {}, {}
    for d, n in enumerate(padded_shape):
        outer_axis[d] = len(split)
        if d in inner_dims_pos:
            t = tiles[inner_dims_pos.index(d)]
            split += [n // t, t]
            inner_axis[d] = len(split) - 1
        else:
            split.append(n)
    perm = [outer_axis[d] for d in (outer_perm or range(source.ndim))] + [inner_axis[d] for d in inner_dims_pos]
    return padded.reshape(split).transpose(perm)


def test_packed_values_are_numpys_pack_and_origins_their_logical_index(cpu):
    stage = _stage(cpu, "iree-codegen-materialize-device-encoding")
    packs = [t for t in stage.values if t.op_name == "linalg.pack"]
    assert len(packs) == 2
    inputs = _inputs(cpu)
    sizes = [a.size for a in inputs]
    for tensor in packs:
        op = tensor.op
        assert tensor.origins is not None
        # Which input the pack reads: the one its elements' numbers fall in.
        k = 0 if tensor.origins[tensor.origins >= 0].min() < sizes[0] else 1
        first = sum(sizes[:k])
        args = (list(op.get_inner_dims_pos()), list(op.get_static_tiles()), list(op.get_outer_dims_perm()))
        np.testing.assert_array_equal(tensor.values, numpy_pack(inputs[k], *args, pad=0))
        logical = np.arange(first, first + sizes[k]).reshape(inputs[k].shape)
        np.testing.assert_array_equal(tensor.origins, numpy_pack(logical, *args, pad=-1))
        assert tensor.inputs[k][0] == f"%arg{k}" and tensor.inputs[k][1] == inputs[k].shape


def test_swizzled_tiles_hold_every_input_element_once(gpu):
    stage = _stage(gpu, "iree-codegen-materialize-device-encoding")
    by_kind = {}
    for tensor in stage.values:
        by_kind.setdefault(tensor.op_name, []).append(tensor)
    # Relayouts come first, with origins; the contraction's result is computed: values only.
    assert stage.values[0].origins is not None
    (contraction,) = by_kind["iree_codegen.inner_tiled"]
    assert contraction.origins is None and contraction.note
    swizzled = [t for t in by_kind["linalg.transpose"] if t.origins is not None]
    assert swizzled
    n = sum(a.size for a in _inputs(gpu))
    for tensor in swizzled:
        held = np.sort(tensor.origins[tensor.origins >= 0])
        assert len(np.unique(held)) == held.size  # each at most once
        assert held.size in (SIZE * SIZE,) and held.max() < n
        assert (tensor.values[tensor.origins < 0] == 0).all()  # the padding holds the pad value


def test_set_encoding_holds_the_logical_tensor(gpu):
    stage = _stage(gpu, "iree-dispatch-creation-set-encoding")
    encoded = [t for t in stage.values if t.op_name == "iree_encoding.set_encoding"]
    assert len(encoded) == 2
    lhs = next(t for t in encoded if t.origins.min() == 0)
    np.testing.assert_array_equal(lhs.origins, np.arange(SIZE * SIZE).reshape(SIZE, SIZE))
    np.testing.assert_array_equal(lhs.values, _inputs(gpu)[0])


def test_map_scatter_writes_are_captured_from_their_destination(gpu):
    # gfx942's relayouts are combined by the GPU variant, run on its executables by for-target-backends.
    stage = next(s for s in gpu.stages if "iree-codegen-gpu-combine-layout-transformation" in s.spec)
    scatters = [t for t in stage.values if t.op_name == "iree_linalg_ext.map_scatter"]
    assert len(scatters) == 3
    with_origins = [t for t in scatters if t.origins is not None]
    assert len(with_origins) == 2  # the two operand relayouts; the third writes the result back
    materialized = _stage(gpu, "iree-codegen-materialize-device-encoding")
    swizzled = {
        t.values.shape: t for t in materialized.values if t.op_name == "linalg.transpose" and t.origins is not None
    }
    for tensor in with_origins:
        # One map_scatter does what pack + expand_shape + transpose did: the same elements in the same places.
        np.testing.assert_array_equal(tensor.origins, swizzled[tensor.values.shape].origins)


@pytest.mark.parametrize(
    "dtype,count,runs",
    [(np.float32, 1000, 1), (np.float16, 3000, 1), (np.int8, 200, 1), (np.int8, 600, 2), (np.int32, 5000, 1),
     (np.uint8, 255, 1), (np.float64, 10, 1), ("bfloat16", 70000, 2)],
)  # fmt: skip
def test_numbering_is_exact_in_every_element_type(dtype, count, runs):
    if dtype == "bfloat16":
        import ml_dtypes

        dtype = ml_dtypes.bfloat16
    seeded = (np.arange(count) % 100).astype(dtype)
    numbers = numbering([seeded, 7])
    assert numbers.offsets == [0, -1] and numbers.runs == runs
    numbered = [numbers.inputs([seeded, 7], r)[0] for r in range(runs)]
    assert all(n.dtype == seeded.dtype for n in numbered)
    # Digits plus one: 0 never names an element.
    assert all((_decode(n) >= 1).all() for n in numbered)
    # A relayout of the numbered input: reversed, with two padding elements.
    pad = np.zeros(2, dtype)
    moved = [np.concatenate([n[::-1], pad]) for n in numbered]
    origins = origins_of(np.concatenate([seeded[::-1], pad]), moved, [seeded, 7], numbers)
    np.testing.assert_array_equal(origins, np.concatenate([np.arange(count)[::-1], [-1, -1]]))


def test_numbering_refuses_what_it_cannot_count_and_computed_values():
    assert numbering([np.zeros(255**3 + 1, np.int8)]) is None
    seeded = np.array([1.5, 2.5], np.float32)
    numbers = numbering([seeded])
    (numbered,) = numbers.inputs([seeded], 0)
    # A sum is no relayout: the numbered run's values name the wrong input elements.
    assert origins_of(seeded + 1, [numbered + 1], [seeded], numbers) is None
    # Nothing from the inputs at all (a constant): no origins either.
    assert origins_of(np.ones(2, np.float32), [np.ones(2, np.float32)], [seeded], numbers) is None


def test_i8_packs_get_origins_in_two_runs():
    walk = run_walkthrough(str(REPO / "examples" / "matmul_i8.mlir"), dynamic_size=12, check=True)
    stage = _stage(walk, "iree-codegen-materialize-device-encoding")
    packs = [t for t in stage.values if t.op_name == "linalg.pack"]
    assert packs and all(t.origins is not None for t in packs)  # 288 i8 elements: two base-255 digits
    held = np.sort(np.concatenate([t.origins[t.origins >= 0] for t in packs]))
    np.testing.assert_array_equal(held, np.arange(2 * 12 * 12))


def test_the_input_program_shows_the_seeded_inputs(gpu):
    lhs, rhs = gpu.stages[0].values
    inputs = _inputs(gpu)
    np.testing.assert_array_equal(lhs.values, inputs[0])
    np.testing.assert_array_equal(rhs.origins, np.arange(SIZE * SIZE, 2 * SIZE * SIZE).reshape(SIZE, SIZE))
    assert lhs.type_text == f"%arg0: {SIZE}x{SIZE}xf32" and 'data-op="input"' in values.render_stage(gpu, gpu.stages[0])


def test_page_shows_the_grids_within_budget(gpu):
    stage = _stage(gpu, "iree-codegen-materialize-device-encoding")
    html = values.render_stage(gpu, stage)
    blocks = re.findall(r'<div class="vt" ([^>]*)>', html)
    assert len(blocks) == len(stage.values)
    pack = next(b for b in blocks if 'data-op="linalg.pack"' in b)
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', pack))
    shape = json.loads(unescape(attrs["data-shape"]))
    numbers = attrs["data-v"].split(",")
    origins = list(map(int, attrs["data-vo"].split(",")))
    assert len(numbers) == len(origins) == min(int(np.prod(shape)), 2048)
    assert json.loads(unescape(attrs["data-in"]))[0][:2] == ["%arg0", [SIZE, SIZE]]
    assert values.render_stage(gpu, gpu.stages[1]) == ""  # introduced nothing
    shown = sum(len(a.split(",")) for a in re.findall(r'data-v="([^"]*)"', "".join(
        values.render_stage(gpu, s) for s in gpu.stages)))  # fmt: skip
    assert shown <= values.PAGE_ELEMENTS
