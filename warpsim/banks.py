"""The shared-memory bank model: how many wavefronts does one warp instruction take?

Pure numpy. Shared memory has 32 banks of 4 bytes: byte address a lives in bank (a // 4) % 32.
A warp instruction is served in phases of lanes; in each phase, lanes that read the same 4-byte
word share it (a broadcast costs nothing) and one wavefront serves at most one word per bank, so
a phase takes as many wavefronts as its busiest bank has distinct words.

    phases: 4-byte and narrower: the whole warp at once;
            8-byte: two half-warps (lanes 0-15, 16-31);
            16-byte: four quarter-warps of 8 lanes, or two half-warps when the lanes pair up
            (for every active lane n, lane n^1, or for every n lane n^2, is inactive or reads
            the same address) -- measured on the H200 for every LDS.128 of the ladder
            (docs/LADDER.md), and the rule NVIDIA gives for compute capability 7.x.
    wavefronts     = sum over phases of (max over banks of distinct words in that phase)
    ideal          = phases with an active lane (what ncu counts as ideal)
    bank_conflicts = wavefronts - ideal

Limitations: the 8-byte rule has not been measured (no ladder kernel uses LDS.64/STS.64); the
pairing rule for 16-byte accesses was seen only with whole warps active. ncu's aggregate
l1tex__data_bank_conflicts_* also counts cycles lost to other traffic through the L1 data banks,
which this per-instruction model does not (and cannot) predict; see docs/LADDER.md.
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


def _phase_size(addresses: np.ndarray, mask: np.ndarray, width: int) -> np.ndarray:
    """Lanes per phase for each row (n,)."""
    n = addresses.shape[0]
    if width <= WORD:
        return np.full(n, 32)
    if width == 8:
        return np.full(n, 16)
    paired = np.zeros(n, dtype=bool)
    lanes = np.arange(32)
    for partner in (lanes ^ 1, lanes ^ 2):
        ok = ~mask | ~mask[:, partner] | (addresses == addresses[:, partner])
        paired |= ok.all(axis=1)
    return np.where(paired, 16, 8)


def shared_access(addresses: np.ndarray, mask: np.ndarray, width: int) -> SharedAccess:
    """Wavefronts and bank conflicts of each warp instruction (row of `addresses`, bytes)."""
    if width not in (1, 2, 4, 8, 16):
        raise ValueError(f"shared access width {width} B is not one of 1, 2, 4, 8, 16")
    addresses = np.asarray(addresses, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    n = addresses.shape[0]
    words_per_lane = max(1, width // WORD)
    phase = np.arange(32)[None, :] // _phase_size(addresses, mask, width)[:, None]  # (n, 32)
    # every (phase, word) a lane touches: (n, 32 * words_per_lane)
    words = ((addresses // WORD)[:, :, None] + np.arange(words_per_lane)).reshape(n, -1)
    phases = np.repeat(phase, words_per_lane, axis=1)
    live = np.repeat(mask, words_per_lane, axis=1)
    key = np.where(live, phases * (1 << 40) + words, _SENTINEL)  # words < 2^40: any real address
    key.sort(axis=1)
    new = key != _SENTINEL
    new[:, 1:] &= key[:, 1:] != key[:, :-1]
    # distinct words per (phase, bank); phases <= 4
    slot = np.where(new, (key >> 40) * BANKS + (key & ((1 << 40) - 1)) % BANKS, 4 * BANKS)
    flat = (np.arange(n)[:, None] * (4 * BANKS + 1) + slot).ravel()
    per_bank = np.bincount(flat, minlength=n * (4 * BANKS + 1)).reshape(n, 4 * BANKS + 1)[:, :-1]
    per_phase = per_bank.reshape(n, 4, BANKS).max(axis=2)  # (n, phases)
    wavefronts = per_phase.sum(axis=1)
    ideal = np.count_nonzero(per_phase, axis=1)

    starts = np.where(mask, addresses, _SENTINEL)
    starts.sort(axis=1)
    snew = starts != _SENTINEL
    snew[:, 1:] &= starts[:, 1:] != starts[:, :-1]
    active = np.count_nonzero(mask, axis=1)
    return SharedAccess(
        active=active,
        requests=(active > 0).astype(np.int64),
        wavefronts=wavefronts,
        bank_conflicts=wavefronts - ideal,
        broadcast=(np.count_nonzero(snew, axis=1) < active).astype(np.int64),
    )
