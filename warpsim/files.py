"""Writing files so that none is lost: the one place this project writes a file whole or not at all.

`check_out` refuses, before any work is done, what would lose or misplace a file: an existing
file without `force`, a directory, a missing or unwritable folder, or an extension that names no
format the caller writes. It creates no folder. `replacing` yields a temporary path in the target's
folder; when the block succeeds, the file appears whole under its name, with the permissions
open() would give it (0666 less the umask), and never over an existing file unless `force`;
when the block fails, the temporary is removed and the target is as it was.

Used by the pictures (`warpsim draw`, `profile plot`), the traces and bench tables, and the
cubin cache.

Limitations: between `check_out` and the end of `replacing` another process may create the
target; without `force` the final step is a hard link, which refuses to replace it, except on
file systems without hard links, where it falls back to checking first.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from warpsim.errors import UsageError

#: Picture formats by file extension: what `--out` may name for `warpsim draw` and `profile plot`.
FIGURE_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def _exists(path: Path) -> UsageError:
    return UsageError(f"{path} already exists; pass --force to replace it")


def check_out(path: Path | str, force: bool = False, formats: dict[str, str] | None = None,
              option: str = "--out") -> str | None:
    """Refuse a target that would lose or misplace a file (see the module docstring); return the
    format its extension names when `formats` is given (else None)."""
    path = Path(path)
    if path.is_dir():
        example = next(iter(formats)) if formats else ""
        raise UsageError(f"{option} {path} is a folder; name a file in it, e.g. {path / ('out' + example)}")
    fmt = None
    if formats is not None:
        fmt = formats.get(path.suffix.lower())
        if fmt is None:
            what = f"the extension {path.suffix}" if path.suffix else "a name without an extension"
            raise UsageError(f"{option} {path}: {what} names no format written here; end the name with "
                             f"{', '.join(formats)}")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: the folder {folder} does not exist; create it first")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: the folder {folder} is not writable")
    if path.exists() and not force:
        raise _exists(path)
    return fmt


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def replacing(path: Path | str, force: bool = False, make_parents: bool = False, suffix: str = ".tmp"):
    """Yield a temporary Path beside `path`; on success it becomes `path` (see the module docstring).
    `make_parents` creates the missing folders first (for layouts the caller owns, such as traces/)."""
    path = Path(path)
    if make_parents:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot create the folder {path.parent}: {e.strerror}") from e
    check_out(path, force, option="output")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from e
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600
        if force:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from e
    finally:
        tmp.unlink(missing_ok=True)


def _link_new(tmp: Path, path: Path) -> None:
    """Give `tmp`'s file the name `path`, refusing an existing `path`."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise _exists(path) from None
    except OSError:  # no hard links here (some network and FAT file systems)
        if path.exists():
            raise _exists(path) from None
        os.replace(tmp, path)
