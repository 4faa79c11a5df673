"""The shared-memory bank model: how many wavefronts does one warp instruction take?

Pure numpy. Shared memory has 32 banks of 4 bytes: byte address a lives in bank (a // 4) % 32.
Lanes that read the same 4-byte word share it (a broadcast costs nothing). One wavefront serves
at most one word per bank, so an instruction takes as many wavefronts as the busiest bank has
distinct words. An 8- or 16-byte lane access touches 2 or 4 consecutive words, so a warp of
16-byte accesses needs at least 4 wavefronts (512 bytes through a 128-byte-wide data path).

    wavefronts     = max over banks of distinct words requested in that bank
    ideal          = ceil(distinct words / 32)         (what a conflict-free layout would take)
    bank_conflicts = wavefronts - ideal

Limitations: the model assigns distinct words to wavefronts over the whole warp at once; it does
not model any split of wide accesses into fixed lane phases beyond what the word count implies.
It is checked against ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared and
l1tex__data_bank_conflicts_pipe_lsu_mem_shared on the H200 (see traces/).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BANKS = 32
WORD = 4  # bytes
_SENTINEL = np.iinfo(np.int64).max


@dataclass(frozen=True)
class SharedAccess:
    """Per-instruction counts, each an int64 array shaped (n,)."""

    active: np.ndarray
    requests: np.ndarray
    wavefronts: np.ndarray
    bank_conflicts: np.ndarray
    broadcast: np.ndarray  # 1 where two or more active lanes read one address


def shared_access(addresses: np.ndarray, mask: np.ndarray, width: int) -> SharedAccess:
    """Wavefronts and bank conflicts of each warp instruction (row of `addresses`, bytes)."""
    if width not in (1, 2, 4, 8, 16):
        raise ValueError(f"shared access width {width} B is not one of 1, 2, 4, 8, 16")
    addresses = np.asarray(addresses, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    n = addresses.shape[0]
    words_per_lane = max(1, width // WORD)
    # every word a lane touches: (n, 32 * words_per_lane)
    first = addresses // WORD
    words = (first[:, :, None] + np.arange(words_per_lane)).reshape(n, -1)
    wmask = np.repeat(mask, words_per_lane, axis=1)
    w = np.where(wmask, words, _SENTINEL)
    w.sort(axis=1)
    valid = w != _SENTINEL
    new = valid.copy()
    new[:, 1:] &= w[:, 1:] != w[:, :-1]
    # distinct words per bank
    bank = np.where(new, w % BANKS, BANKS)  # BANKS = a dustbin column for non-new entries
    flat = (np.arange(n)[:, None] * (BANKS + 1) + bank).ravel()
    per_bank = np.bincount(flat, minlength=n * (BANKS + 1)).reshape(n, BANKS + 1)
    wavefronts = per_bank[:, :BANKS].max(axis=1)
    distinct_words = np.count_nonzero(new, axis=1)
    ideal = -(-distinct_words // BANKS)

    starts = np.where(mask, addresses, _SENTINEL)
    starts.sort(axis=1)
    sv = starts != _SENTINEL
    snew = sv.copy()
    snew[:, 1:] &= starts[:, 1:] != starts[:, :-1]
    active = np.count_nonzero(mask, axis=1)
    return SharedAccess(
        active=active,
        requests=(active > 0).astype(np.int64),
        wavefronts=wavefronts,
        bank_conflicts=wavefronts - ideal,
        broadcast=(np.count_nonzero(snew, axis=1) < active).astype(np.int64),
    )
