"""The one exception type a user may see, as a one-line message, and its one subclass.

Every bad argument, to the command lines or to the Python API (`warpsim.analyze` and
`warpsim.engine`), raises `UsageError`: the message says what is wrong and what to do. A model
that cannot be traced raises `ModelError`, a UsageError that names the kernel, the model's line
and the `.cu` line it mirrors.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path


class UsageError(Exception):
    """Bad input: the message says what is wrong and what to do. The CLIs print it and exit 2."""


class ModelError(UsageError):
    """A kernel model (warpsim/models/*.py) did something the tracer cannot follow, such as a
    product of two block or loop indices: the message names the kernel and the lines."""


_CU_LINE = re.compile(r"\bline\s*=\s*(\d+)")
ADVICE = ("index arithmetic must stay affine in blockIdx and the k.range loop counters: keep products, "
          "/ and % of them to thread indices and constants (see warpsim/symbolic.py, Limitations)")


def _where(spec, error: BaseException) -> str:
    """'warpsim/models/x.py:12, kernels/x.cu line 13': the model's innermost line in the traceback,
    and the `line=` of the access it was computing (that line or the few after it)."""
    import traceback

    model_file = spec.model.__code__.co_filename
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == model_file]
    if not frames:
        return f"kernel {spec.name}"
    at = frames[-1].lineno
    where = f"kernel {spec.name}, {Path(model_file).name}:{at}"
    try:
        lines = Path(model_file).read_text().splitlines()[at - 1:at + 4]
    except OSError:
        return where
    for text in lines:
        m = _CU_LINE.search(text)
        if m:
            return f"{where} (kernels/{spec.name}.cu line {m.group(1)})"
    return where


@contextmanager
def model_errors(spec):
    """Run a model under it: a NotAffine, TypeError or ValueError from tracing becomes a ModelError
    that names the kernel and the lines, chained to the original."""
    try:
        yield
    except UsageError:
        raise
    except (TypeError, ValueError) as e:  # NotAffine is a TypeError
        from warpsim.symbolic import NotAffine

        advice = ADVICE if isinstance(e, NotAffine) else ("fix the model so that it mirrors its .cu file with the calls "
                                                        "warpsim/program.py describes")
        raise ModelError(f"{_where(spec, e)}: the model cannot be traced: {e}; {advice}") from e
