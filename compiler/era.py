"""Eras: which IREE the compiler follows, as one profile that passes read.

mini-iree reproduces two generations of IREE: the data-tiling walkthrough's
(September 2025, the default) and IREE 3.13's. They lower the same programs to
the same results, but print different IR: 3.13 passes the dynamic iteration
sizes along with encodings, casts imported and exported resources, chooses GPU
tiles by arithmetic intensity, marks host size arithmetic `overflow<nsw>` and
describes its targets with more fields. Each such difference is one field of an
`EraProfile`; a pass asks the profile, never compares era names itself.

A run has one era (`mini-iree-opt --iree-era=3.13`, `set_run_era`): every pass
option that stands for an era fact (`gpu-era=`, `era=`, `encoding-dims=`,
`async-cast=`) follows it unless the option is given, and a named pipeline's
`era=` option defaults to it. `era_profile` turns what a caller holds (a name,
`3.13` read as a number, a profile, or nothing: the run's) into the profile.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = [
    "ERA_NAMES",
    "ERA_PROFILES",
    "IREE_3_13",
    "WALKTHROUGH",
    "EraProfile",
    "era_profile",
    "option_era",
    "run_era",
    "set_run_era",
    "using_era",
]


@dataclass(frozen=True)
class EraProfile:
    """The facts that differ between the IREE generations mini-iree follows."""

    name: str
    """How the era is spelled on the command line: `walkthrough`, `3.13`."""

    # Dispatch creation.
    encoding_dims: bool
    """set-encoding attaches the dynamic iteration sizes (`encoding_dims{...}`) to every encoding op."""

    cpu_bit_extends_dispatched: bool
    """On a device whose one executable target is an x86_64 or aarch64 llvm-cpu target, bit-extend
    ops are not cloned into the dispatches that read them: they form dispatches of their own."""

    fusion_group_loop_maps: bool
    """form-dispatch-regions maps the root's parallel loops onto each fused op (IREE 3.13's fusion
    groups: transposed and multi-use producers and consumers join); otherwise the walkthrough's
    rule of consumers reading the root's outer parallel loops as the identity."""

    cse_before_encoding_fusion: bool
    """fuse-encoding-ops-into-dispatch-regions first merges identical `set_encoding` ops (IREE ran
    CSE over the function); later IREE fuses each as it stands, so duplicates stay apart."""

    scalable_riscv_and_narrow_n: bool
    """Scalable data tiling (`--iree-llvmcpu-enable-scalable-vectorization`) also gives RISC-V `+v`
    a scalable N tile and keeps a narrow N (not transposed); otherwise only AArch64 SVE gets one,
    after a narrow N is transposed."""

    # Stream.
    async_cast: bool
    """Stream conversion changes the lifetime of imported and exported resources with
    `stream.async.cast` (otherwise with `stream.async.transfer`)."""
    nsw_size_arithmetic: bool
    """encode-host-tensors marks its layout size arithmetic `overflow<nsw>`."""
    fold_workload_operands: bool
    """fold-uniform-operands also folds the duplicated workload operands of a dispatch."""

    # The GPU data-tiling resolver.
    gpu_unroll_by_intensity: bool
    """M/N unrolling by IREE 3.13's arithmetic-intensity enumeration; otherwise the walkthrough's
    quadratic VGPR solve with all subgroups on N."""
    gpu_swizzle_cross_thread_outermost: bool
    """The swizzle moves the cross-thread dims outermost (the walkthrough's swizzles)."""
    gpu_lists_interleaved_operands: bool
    """`#iree_gpu.data_tiled_mma_layout` names the operands whose K unrolling is interleaved."""
    gpu_distribution_factors: bool
    """A serialized swizzle dim carries its thread distribution factor (`["CrossThread", 16, 1 : i8]`)."""
    inner_tiled_semantics: bool
    """`iree_codegen.inner_tiled` carries `#iree_gpu.mma_semantics<...>`."""
    gpu_vector_contractions_inner_tiled: bool
    """A GPU matvec/vecmat operand keeps the whole intrinsic tile (the swizzle group of the loop the
    contraction lacks stays), and the contraction lowers to `iree_codegen.inner_tiled` over its two
    loops; otherwise that group is dropped and the contraction refused."""

    # Target attributes, as the era's target backends describe each chip.
    gpu_block_intrinsics: bool
    """A GPU's `mma` list also has its block (multi-block) intrinsics, in the era's order."""
    gpu_memory_fields: bool
    """A GPU's `wgp` lists `dma_sizes` and `workgroup_memory_bank_count`."""
    cpu_name_field: bool
    """An llvm-cpu target records its (empty) `cpu` name."""
    vmvx_ukernels_field: bool
    """A VMVX target records `ukernels = "none"` when microkernels are not asked for."""
    testing_keyword_form: bool
    """`#iree_encoding.testing` prints its layouts as `layouts = [...]` (the only form IREE 3.13 parses)."""

    # Codegen.
    swizzle_noop_transpose_folded: bool
    """materialize-device-encoding lowers a swizzle whose transpose only moves unit dims to one
    `tensor.expand_shape` (`collapse_shape` for unset_encoding), or to nothing when it changes no
    shape; otherwise always expand_shape + linalg.transpose."""
    grouped_relayout_folding: bool
    """The GPU combine-layout-transformation folds reshapes group by group into `map_store` and
    combines only chains with a pack, unpack, reshape or pad (otherwise whole chains into `map_scatter`)."""


WALKTHROUGH = EraProfile(
    name="walkthrough",
    encoding_dims=False,
    cpu_bit_extends_dispatched=False,
    fusion_group_loop_maps=False,
    cse_before_encoding_fusion=True,
    scalable_riscv_and_narrow_n=False,
    async_cast=False,
    nsw_size_arithmetic=False,
    fold_workload_operands=False,
    gpu_unroll_by_intensity=False,
    gpu_swizzle_cross_thread_outermost=True,
    gpu_lists_interleaved_operands=False,
    gpu_distribution_factors=False,
    inner_tiled_semantics=False,
    gpu_vector_contractions_inner_tiled=False,
    gpu_block_intrinsics=False,
    gpu_memory_fields=False,
    cpu_name_field=False,
    vmvx_ukernels_field=False,
    testing_keyword_form=False,
    swizzle_noop_transpose_folded=False,
    grouped_relayout_folding=False,
)
"""The data-tiling walkthrough's IREE (September 2025): the default."""

IREE_3_13 = EraProfile(
    name="3.13",
    encoding_dims=True,
    cpu_bit_extends_dispatched=True,
    fusion_group_loop_maps=True,
    cse_before_encoding_fusion=False,
    scalable_riscv_and_narrow_n=True,
    async_cast=True,
    nsw_size_arithmetic=True,
    fold_workload_operands=True,
    gpu_unroll_by_intensity=True,
    gpu_swizzle_cross_thread_outermost=False,
    gpu_lists_interleaved_operands=True,
    gpu_distribution_factors=True,
    inner_tiled_semantics=True,
    gpu_vector_contractions_inner_tiled=True,
    gpu_block_intrinsics=True,
    gpu_memory_fields=True,
    cpu_name_field=True,
    vmvx_ukernels_field=True,
    testing_keyword_form=True,
    swizzle_noop_transpose_folded=True,
    grouped_relayout_folding=True,
)
"""IREE 3.13 (`iree-base-compiler==3.13.0`)."""

ERA_PROFILES: dict[str, EraProfile] = {p.name: p for p in (WALKTHROUGH, IREE_3_13)}
ERA_NAMES: tuple[str, ...] = tuple(ERA_PROFILES)
"""The eras by name, the default first."""

# The run's era. A context variable rather than a plain global, so that
# `using_era` can scope it and restore it.
_RUN_ERA: ContextVar[EraProfile] = ContextVar("mini_iree_run_era", default=WALKTHROUGH)


def _name(era: str | int | float) -> str:
    # `3.13` on a pass's command line reads as a number.
    return era if isinstance(era, str) else f"{era:g}"


def era_profile(era: str | int | float | EraProfile | None = None) -> EraProfile:
    """The profile of `era`: a name (or `3.13` read as a number), a profile, or None for the run's.

    Raises ValueError, naming the eras, for anything else.
    """
    if era is None:
        return _RUN_ERA.get()
    if isinstance(era, EraProfile):
        return era
    name = _name(era)
    if name not in ERA_PROFILES:
        raise ValueError(f"unknown era '{name}' (expected one of: {', '.join(ERA_NAMES)})")
    return ERA_PROFILES[name]


def option_era(value: str | int | float | None, option: str) -> EraProfile:
    """The profile a pass option stands for: its value, or the run's when it is not given (`""`, None).

    A value that names no era is the pass's failure, worded with the option's
    name: `unknown gpu-era '2024' (expected one of: walkthrough, 3.13)`.
    """
    if value is None or value == "":
        return _RUN_ERA.get()
    name = _name(value)
    if name not in ERA_PROFILES:
        from xdsl.utils.exceptions import PassFailedException

        raise PassFailedException(f"unknown {option} '{name}' (expected one of: {', '.join(ERA_NAMES)})")
    return ERA_PROFILES[name]


def run_era() -> EraProfile:
    """The run's era: the one `set_run_era` chose, the walkthrough's unless told otherwise."""
    return _RUN_ERA.get()


def set_run_era(era: str | EraProfile) -> EraProfile:
    """Make `era` the run's era (`mini-iree-opt --iree-era=...`); returns its profile.

    Set it before the pipeline is built: a named pipeline's `era=` default is
    read when the pipeline is expanded. Raises ValueError for an unknown name.
    """
    profile = era_profile(era)
    _RUN_ERA.set(profile)
    _set_print_forms(profile)
    return profile


def _set_print_forms(profile: EraProfile) -> None:
    """The era's print forms and verifier rules in the dialects that have them; a dialect not
    loaded yet follows the walkthrough by default, so start-up loads it only for another era."""
    differs = profile.testing_keyword_form or profile.encoding_dims
    if differs or "mini_iree.dialects.iree_encoding" in sys.modules:
        from mini_iree.dialects import iree_encoding

        iree_encoding.set_testing_keyword_form(profile.testing_keyword_form)
        iree_encoding.set_requires_encoding_dims(profile.encoding_dims)


@contextmanager
def using_era(era: str | EraProfile) -> Iterator[EraProfile]:
    """The run's era is `era` inside the `with` block, and what it was again after it."""
    from mini_iree.dialects import iree_encoding  # here: start-up loads no dialect

    token = _RUN_ERA.set(era_profile(era))
    form = iree_encoding.set_testing_keyword_form(_RUN_ERA.get().testing_keyword_form)
    dims = iree_encoding.set_requires_encoding_dims(_RUN_ERA.get().encoding_dims)
    try:
        yield _RUN_ERA.get()
    finally:
        iree_encoding.reset_requires_encoding_dims(dims)
        iree_encoding.reset_testing_keyword_form(form)
        _RUN_ERA.reset(token)
