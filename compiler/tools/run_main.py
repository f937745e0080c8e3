"""``mini-iree-run``: run a function of a .mlir file on numpy arrays (iree-run-module conventions).

    mini-iree-run matmul.mlir --function=matmul_f32f32f32 \\
        --input=2x3xf32=1,2,3,4,5,6 --input=3x2xf32=1 --output=@c.npy
    mini-iree-run after_materialization.mlir --input=@a.npy --input=@b.npy

Inputs: ``SHAPExTYPE=VALUES`` (comma- or space-separated, brackets allowed; a
single value is a splat; a value the element type cannot hold, such as
``i8=300`` or ``f32=1e40``, is an error), ``TYPE=VALUE`` for a rank-0 tensor, a
bare number for a scalar argument, or ``@file.npy`` (either byte order; bf16 as
numpy saves ml_dtypes' bfloat16, 2-byte voids). Results are printed as
iree-run-module prints them (``result[0]: hal.buffer_view`` then
``2x3xf32=[1 2 3][4 5 6]``), or written with one ``--output=@file.npy`` per
result in order, to exactly that path (``--output=-`` prints that result,
``--output=`` skips it).
Every error prints ``error: ...`` (with ``FILE:LINE:COL`` when it is about an op)
and exits with status 1.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence

from mini_iree.compiler.tools.cmdline import ArgumentParser, CommandLineError, one_line_warnings, report_internal_error
from mini_iree.compiler.tools.output_file import OutputError, check_writable, write_output

_ELEMENT_TYPES = {
    "i1": "bool",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "si8": "int8",
    "si16": "int16",
    "si32": "int32",
    "si64": "int64",
    "ui8": "uint8",
    "ui16": "uint16",
    "ui32": "uint32",
    "ui64": "uint64",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "bf16": "bfloat16",
}


# An input is built in memory; a typo such as 4294967297x16xf32 must be an error, not 256 GiB.
MAX_INPUT_BYTES = 1 << 30


class UsageError(Exception):
    """A problem with the command line or an input value."""


def _numpy_dtype(name: str):
    import numpy as np

    if name == "bf16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(_ELEMENT_TYPES[name])


def element_type_name(dtype) -> str:
    """The MLIR spelling of a numpy dtype, as iree-run-module prints it."""
    names = {"bool": "i1", "float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16"}
    if dtype.name in names:
        return names[dtype.name]
    if dtype.kind == "i":
        return f"i{dtype.itemsize * 8}"
    if dtype.kind == "u":
        return f"ui{dtype.itemsize * 8}"
    raise UsageError(f"no MLIR element type for numpy dtype {dtype}")


def _load_npy(path: str):
    """A ``.npy`` file as a native-byte-order array; a 2-byte void array (how numpy saves bf16) is bf16."""
    import numpy as np

    npy = np.lib.format
    try:
        with open(path, "rb") as f:
            # The header first: a file claiming more elements than an input may have is refused
            # before anything is allocated.
            version = npy.read_magic(f)
            read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
            shape, _, dtype = read_header(f)
            size = math.prod(shape) * dtype.itemsize
            if size > MAX_INPUT_BYTES:
                raise UsageError(
                    f"'{path}' holds {'x'.join(map(str, shape))} elements of {dtype.itemsize} bytes, "
                    f"more than mini-iree-run allocates ({MAX_INPUT_BYTES} bytes)"
                )
            f.seek(0)
            array = np.load(f, allow_pickle=False)
    except OSError as err:
        raise UsageError(f"could not read '{path}': {err.strerror or err}") from None
    except (ValueError, EOFError) as err:
        # EOFError: an empty or truncated file.
        raise UsageError(f"could not read '{path}' as a .npy file: {err}") from None
    if array.dtype.kind == "V" and array.dtype.itemsize == 2 and array.dtype.names is None:
        # numpy has no bf16: np.save writes ml_dtypes' bfloat16 as 2-byte voids ('|V2').
        array = array.view(_numpy_dtype("bf16"))
    elif not array.dtype.isnative:
        # A big-endian file holds the same numbers; the interpreter works in the machine's order.
        array = array.astype(array.dtype.newbyteorder("="))
    return array


def parse_input(text: str):
    """One ``--input`` value as a numpy array (or a Python number for a scalar argument)."""
    import numpy as np

    if text.startswith("@"):
        return _load_npy(text[1:])
    if "=" not in text:
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                raise UsageError(f"cannot parse input '{text}': expected SHAPExTYPE=VALUES, a number or @file.npy") from None
    spec, values = text.split("=", 1)
    *dims, type_name = spec.split("x")
    if type_name not in _ELEMENT_TYPES:
        raise UsageError(f"unknown element type '{type_name}' in input '{text}'")
    try:
        shape = [int(d) for d in dims]
    except ValueError:
        raise UsageError(f"invalid shape '{spec}' in input '{text}'") from None
    if any(d < 0 for d in shape):
        raise UsageError(f"invalid shape '{spec}' in input '{text}': sizes cannot be negative")
    dtype = _numpy_dtype(type_name)
    count = math.prod(shape)
    if count * dtype.itemsize > MAX_INPUT_BYTES:
        raise UsageError(
            f"input '{spec}' needs {count * dtype.itemsize} bytes, more than mini-iree-run allocates ({MAX_INPUT_BYTES})"
        )
    if values.startswith("@"):
        array = _load_npy(values[1:])
        if list(array.shape) != shape or array.dtype != dtype:
            raise UsageError(f"'{values[1:]}' holds {_describe(array)}, not {spec}")
        return array
    tokens = [t for t in re.split(r"[\s,\[\]]+", values) if t]
    if len(tokens) != count and len(tokens) != 1:
        raise UsageError(f"input '{spec}' needs {count} values (or one to splat), got {len(tokens)}")
    array = _parse_values(tokens, dtype, type_name, text)
    if len(tokens) == 1 and count != 1:
        return np.full(shape, array[0], dtype=dtype)
    return array.reshape(shape)


def _parse_values(tokens: list[str], dtype, type_name: str, text: str):
    """The values of an input as a 1-D array of ``dtype``; a value the type cannot hold is an error."""
    import numpy as np

    try:
        if type_name == "i1":
            spellings = {"0": False, "false": False, "1": True, "true": True}
            bad = next((t for t in tokens if t.lower() not in spellings), None)
            if bad is not None:
                raise UsageError(f"value {bad} in input '{text}' is out of range for i1 (0, 1, false or true)")
            return np.array([spellings[t.lower()] for t in tokens], dtype=dtype)
        if dtype.kind in "iu":
            parsed = [int(t, 0) for t in tokens]
            info = np.iinfo(dtype)
            bad = next((t for t, v in zip(tokens, parsed) if not info.min <= v <= info.max), None)
        else:
            wide = np.array([float(t) for t in tokens], dtype=np.float64)
            with np.errstate(over="ignore"):
                parsed = wide.astype(dtype)
            # A finite value that becomes inf in the element type (1e40 as f32, or 1e400 as
            # anything, which Python reads as inf) does not fit; only inf spelled out is inf.
            spelled_inf = np.array([t.lstrip("+-").lower() in ("inf", "infinity") for t in tokens], dtype=bool)
            too_large = np.isinf(parsed.astype(np.float64)) & ~spelled_inf
            bad = tokens[int(np.argmax(too_large))] if too_large.any() else None
    except ValueError as err:
        raise UsageError(f"invalid value in input '{text}': {err}") from None
    if bad is not None:
        raise UsageError(f"value {bad} in input '{text}' is out of range for {type_name}")
    return np.asarray(parsed, dtype=dtype)


def _describe(array) -> str:
    dims = "x".join(str(d) for d in array.shape)
    return f"{dims}{'x' if dims else ''}{element_type_name(array.dtype)}"


def _format_element(value, dtype) -> str:
    if dtype.kind == "b":
        return "1" if value else "0"
    if dtype.kind in "iu":
        return str(int(value))
    return "%G" % float(value)


def format_array(array, max_elements: int = 1024) -> str:
    """A buffer view as iree-run-module prints it: ``2x3xf32=[1 2 3][4 5 6]``."""
    import numpy as np

    array = np.asarray(array)
    prefix = _describe(array) + "="
    if array.ndim == 0:
        return prefix + _format_element(array[()], array.dtype)
    flat = array.reshape(-1)
    shown = [_format_element(v, array.dtype) for v in flat[:max_elements]]
    truncated = flat.size > max_elements

    # Rank 1 prints bare elements; each further dimension adds a level of brackets.
    def nest(level: int, start: int) -> tuple[str, int]:
        if level == array.ndim - 1:
            n = array.shape[level]
            return " ".join(shown[start : start + n]), start + n
        parts = []
        for _ in range(array.shape[level]):
            if start >= len(shown):
                break
            text, start = nest(level + 1, start)
            parts.append("[" + text + "]")
        return "".join(parts), start

    text, _ = nest(0, 0)
    return prefix + text + ("..." if truncated else "")


def format_result(index: int, value, is_buffer_view: bool, max_elements: int) -> str:
    import numpy as np

    array = np.asarray(value)
    if is_buffer_view:
        return f"result[{index}]: hal.buffer_view\n{format_array(array, max_elements)}\n"
    return f"result[{index}]: {element_type_name(array.dtype)}={_format_element(array[()], array.dtype)}\n"


def _is_buffer_view(type_) -> bool:
    from xdsl.dialects.builtin import ShapedType

    return isinstance(type_, ShapedType) or "buffer_view" in str(type_)


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="mini-iree-run",
        description="Run a function of a .mlir file on numpy arrays (iree-run-module conventions).",
    )
    parser.add_argument("input_file", metavar="FILE", help="the .mlir file ('-' for stdin)")
    parser.add_argument("--function", default=None, help="the function to run (default: the only public one)")
    parser.add_argument(
        "--input", action="append", default=[], help="SHAPExTYPE=VALUES, TYPE=VALUE, a number, or @file.npy"
    )
    parser.add_argument(
        "--output", action="append", default=None, help="@file.npy per result in order; '-' prints it, '' skips it"
    )
    parser.add_argument(
        "--print_max_element_count", type=int, default=1024, help="elements printed per result (default 1024)"
    )
    parser.add_argument(
        "--binding",
        action="append",
        default=[],
        help="run a dispatch function (one taking its operands through hal.interface.binding.subspan): the "
        "contents of binding 0, 1, ... in order, in --input's syntax; each binding is printed or saved "
        "(--output) afterwards with the same shape and type",
    )
    parser.add_argument(
        "--push-constant",
        action="append",
        default=[],
        type=int,
        help="a 32-bit push constant of a dispatch function, in ordinal order",
    )
    parser.add_argument(
        "--iree-experimental-vscale-value",
        type=int,
        default=-1,
        metavar="N",
        help="the value vector.vscale takes (scalable inner tiles; default 1)",
    )
    return parser


def run_tool(args: argparse.Namespace, out) -> None:
    import numpy as np

    from mini_iree.compiler.interpreter import (
        check_arguments,
        find_function,
        make_context,
        make_interpreter,
        public_functions,
    )
    from mini_iree.compiler.ir.parsing import parse_mlir

    name = args.input_file
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as f:
                data = f.read()
    except OSError as err:
        raise UsageError(f"could not open input file '{name}': {err.strerror}") from None
    # Diagnostics show the source line they point at.
    args.source_text = data.decode("utf-8", errors="replace")
    module = parse_mlir(make_context(), data, name)

    if args.function is None:
        candidates = public_functions(module)
        if len(candidates) != 1:
            names = ", ".join("@" + f.sym_name.data for f in candidates) or "none"
            raise UsageError(f"the module has {len(candidates)} public functions ({names}); choose one with --function=NAME")
        function = candidates[0]
    else:
        function = find_function(module, args.function.lstrip("@"))
    count = args.print_max_element_count
    if count < 0:
        raise UsageError(f"argument --print_max_element_count: '{count}' must not be negative")
    outputs = args.output if args.output is not None else []
    for spec in outputs:
        if spec.startswith("@"):
            # Before the run: a result is not computed only to find it cannot be saved.
            check_writable(_output_path(spec))
        elif spec not in ("", "-"):
            raise UsageError(f"invalid --output '{spec}': expected @file.npy, '-' or ''")
    if args.binding or args.push_constant:
        results, as_buffer_view = _run_dispatch_function(module, function, args)
    else:
        inputs = [parse_input(text) for text in args.input]
        arguments = check_arguments(function, inputs)
        interpreter = make_interpreter(module)
        results = list(interpreter.call_op(function, tuple(arguments)))
        as_buffer_view = [_is_buffer_view(t) for t in function.function_type.outputs.data]

    if len(outputs) > len(results):
        raise UsageError(f"{len(outputs)} --output flags for {len(results)} results")
    out.write(f"EXEC @{function.sym_name.data}\n")
    for index, value in enumerate(results):
        spec = outputs[index] if index < len(outputs) else "-"
        if spec == "":
            continue
        if spec == "-":
            out.write(format_result(index, value, as_buffer_view[index], args.print_max_element_count))
        else:
            _save_npy(_output_path(spec), np.asarray(value))


def _output_path(spec: str) -> str:
    if spec == "@":
        raise UsageError("invalid --output '@': expected @file.npy")
    return spec[1:]


def _save_npy(path: str, array) -> None:
    """Write ``array`` to exactly ``path`` (np.save would add ``.npy``), never half a file.

    bf16 is saved as numpy saves it (2-byte voids, ``|V2``), which ``_load_npy`` reads back as bf16.
    """
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    write_output(path, buffer.getvalue())


def _run_dispatch_function(module, function, args: argparse.Namespace):
    """Run an argument-less dispatch function on the given bindings and push constants.

    The results are the bindings after the run, each viewed with the shape and
    element type it was given with.
    """
    import numpy as np

    from mini_iree.compiler.interpreter.hal_ops import run_dispatch

    if args.input:
        raise UsageError("--input and --binding cannot be used together: a dispatch function takes no arguments")
    if function.function_type.inputs.data:
        raise UsageError(f"@{function.sym_name.data} takes arguments; --binding is for argument-less dispatch functions")
    bindings = [np.asarray(parse_input(text)) for text in args.binding]
    constants = [c & 0xFFFFFFFF for c in args.push_constant]
    buffers = run_dispatch(module, function.sym_name.data, bindings, constants)
    results = [buffer.view(b.dtype).reshape(b.shape) for buffer, b in zip(buffers, bindings)]
    # Bindings print like buffer views, whatever their rank.
    return results, [True] * len(results)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except CommandLineError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, render
    from mini_iree.compiler.interpreter import InterpreterError

    from mini_iree.compiler.cpu_options import set_vscale_value

    set_vscale_value(args.iree_experimental_vscale_value)
    try:
        with one_line_warnings():
            run_tool(args, sys.stdout)
        sys.stdout.flush()
    except (UsageError, OutputError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    except InterpreterError as err:
        if err.loc is None:
            sys.stderr.write(f"{err}\n")
        else:
            source = getattr(args, "source_text", None)
            sys.stderr.write(render(Diagnostic(err.loc, err.text), source, args.input_file) + "\n")
        return 1
    except DiagnosticError as err:
        source = getattr(args, "source_text", None)
        sys.stderr.write("".join(render(d, source, args.input_file) + "\n" for d in err.diagnostics))
        return 1
    except MemoryError:
        # The interpreter names the op that ran out; this is any other step (saving a huge result...).
        sys.stderr.write("error: running the program needs more memory than there is\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as err:  # noqa: BLE001 - a crash still ends in one line
        return report_internal_error(err)
    return 0


if __name__ == "__main__":
    sys.exit(main())
