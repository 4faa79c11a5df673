"""The one toolchain: the pinned nvcc -> cubin, cached by source, flags and release; errors are one line."""

from __future__ import annotations

import hashlib

import pytest

from warpsim import registry, toolchain
from warpsim.errors import UsageError
from warpsim.toolchain import BuildOptions, build_cubin, nvcc_command, source_sha256


def _have_nvcc() -> bool:
    try:
        toolchain.find_nvcc()
    except UsageError:
        return False
    return True


skip_if_no_nvcc = pytest.mark.skipif(not _have_nvcc(), reason=f"no nvcc {toolchain.NVCC_RELEASE}: {toolchain.INSTALL}")


def test_nvcc_command_is_an_argument_list(tmp_path):
    cmd = nvcc_command("nvcc", tmp_path / "k.cu", tmp_path / "k.cubin", BuildOptions())
    assert cmd == ["nvcc", "-arch=sm_90", "-O3", "-lineinfo", "-cubin", "-o", str(tmp_path / "k.cubin"),
                   str(tmp_path / "k.cu")]


def test_cache_key_follows_source_and_flags(tmp_path):
    cu = tmp_path / "k.cu"
    cu.write_text('extern "C" __global__ void k() {}\n')
    options = BuildOptions(cache_dir=tmp_path / "cache")
    first = toolchain.cubin_path(cu, options)
    assert first.parent == tmp_path / "cache" and first.name.startswith("k-")
    assert toolchain.cubin_path(cu, BuildOptions(cache_dir=tmp_path / "cache", flags=("-O0",))) != first
    cu.write_text('extern "C" __global__ void k() { }\n')
    assert toolchain.cubin_path(cu, options) != first
    (tmp_path / "elsewhere").mkdir()
    copy = tmp_path / "elsewhere" / "k.cu"  # the same bytes at another path: its line table differs
    copy.write_bytes(cu.read_bytes())
    assert toolchain.cubin_path(copy, options) != toolchain.cubin_path(cu, options)
    assert len(source_sha256(cu)) == 64


def test_missing_nvcc_and_missing_source(tmp_path, monkeypatch):
    cu = tmp_path / "k.cu"
    cu.write_text("")
    monkeypatch.setattr(toolchain, "_wheel_bin", lambda name: None)
    monkeypatch.setattr(toolchain.shutil, "which", lambda name: None)
    monkeypatch.setattr(toolchain, "nvcc_release", lambda nvcc: "12.4")  # /usr/local/cuda, if any, is another release
    with pytest.raises(UsageError, match=r"nvcc 13\.0 not found.*pip install 'nvidia-cuda-nvcc==13\.0\.88'"):
        build_cubin(cu, BuildOptions(cache_dir=tmp_path))
    with pytest.raises(UsageError, match="not found"):
        build_cubin(tmp_path / "absent.cu", BuildOptions(cache_dir=tmp_path))


@skip_if_no_nvcc
def test_builds_every_registered_kernel_once(tmp_path):
    options = BuildOptions(cache_dir=tmp_path)
    for spec in registry.kernels().values():
        cubin = build_cubin(spec.cu_path, options)
        assert cubin.read_bytes()[:4] == b"\x7fELF"  # a cubin is an ELF file
        mtime = cubin.stat().st_mtime_ns
        assert build_cubin(spec.cu_path, options) == cubin and cubin.stat().st_mtime_ns == mtime  # cached
    assert not list(tmp_path.glob("*.tmp.cubin"))


@skip_if_no_nvcc
def test_compile_error_is_one_line(tmp_path):
    cu = tmp_path / "broken.cu"
    cu.write_text('extern "C" __global__ void k() { undefined_thing(); }\n')
    with pytest.raises(UsageError, match=r"nvcc failed on broken.cu \(exit \d+\): .*undefined") as err:
        build_cubin(cu, BuildOptions(cache_dir=tmp_path))
    assert "\n" not in str(err.value) and not list(tmp_path.glob("*.cubin"))


def test_a_header_the_kernel_includes_is_part_of_its_identity(tmp_path):
    # a user's kernel that includes a local header: a change to the header must change the
    # source's identity (which traces are stale) and the cubin's cache key (or the old cubin
    # would be counted); a file without quoted includes is identified by its bytes alone
    from warpsim import toolchain

    (tmp_path / "tile.h").write_text("#define TILE 16\n")
    cu = tmp_path / "k.cu"
    cu.write_text('#include "tile.h"\n#include <cuda_fp16.h>\n__global__ void k(float *y) { y[threadIdx.x % TILE] = 0; }\n')
    plain = tmp_path / "plain.cu"
    plain.write_text("__global__ void k(float *y) { y[0] = 0; }\n")
    assert source_sha256(plain) == hashlib.sha256(plain.read_bytes()).hexdigest()
    before, cubin = source_sha256(cu), toolchain.cubin_path(cu)
    (tmp_path / "tile.h").write_text("#define TILE 32\n")
    assert source_sha256(cu) != before and toolchain.cubin_path(cu) != cubin


def test_pin_file_dates_dates_only_undated_file_directives():
    ptx = ('\t.file\t1 "/src/k.cu"\n\t.file\t2 "/usr/include/a b.h", 1733248000, 812\n'
           '\tld.global.f32 %f1, [%rd1];  // .file 3 "x"\n')
    assert toolchain.pin_file_dates(ptx) == ('\t.file\t1 "/src/k.cu", 1, 0\n'
                                             '\t.file\t2 "/usr/include/a b.h", 1733248000, 812\n'
                                             '\tld.global.f32 %f1, [%rd1];  // .file 3 "x"\n')


@skip_if_no_nvcc
def test_a_cubin_does_not_depend_on_when_its_source_was_touched(tmp_path):
    # ptxas writes an undated source file's modification time into the line table: without the
    # pinned dates a fresh checkout built byte-different cubins of the same machine code
    import os

    cu = tmp_path / "k.cu"
    cu.write_text('extern "C" __global__ void k(float *y) { y[threadIdx.x] = 1.0f; }\n')
    first = build_cubin(cu, BuildOptions(cache_dir=tmp_path / "a")).read_bytes()
    os.utime(cu, (1_000_000_000, 1_000_000_000))
    assert build_cubin(cu, BuildOptions(cache_dir=tmp_path / "b")).read_bytes() == first
