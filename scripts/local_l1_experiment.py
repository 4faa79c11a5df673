"""Experiment (reverted in the next commit): local memory replayed through the sampled L1s beside
the global accesses, in lockstep, against the 15 local launches of blind batches 11 and 12. Prints per
launch the predicted and measured share of local load sectors that miss L1 (measured: L2 read sectors
less the global loads' L1 misses) and the global L1 hit share. Run from the repository root."""
import json, glob, sys
import numpy as np
from warpsim.sass.analyze import prepare
from warpsim.caches import program as P, l1, tiles, lanes
from warpsim.caches.residency import residency
from warpsim.caches.hardware import H200
pat = sys.argv[1] if len(sys.argv) > 1 else ''
for f in sorted(glob.glob('traces/holdout/blind11/local/*.json')+glob.glob('traces/holdout/blind12/spill/*.json')):
    if 'ticket' in f or pat not in f: continue
    t=json.load(open(f)); meta=t['meta']; m=t['metrics']
    k=prepare(meta['source'], meta['entry'], meta['grid_text'], meta['block_text'], meta['args'])
    prog=P.from_machine_code(k)
    res=residency(prog.threads, prog.registers, prog.shared_bytes, H200)
    stream_of, keys = tiles.streams(prog)
    rep=l1.replay(prog, res, stream_of, H200)
    loc=[lanes.count(a, prog.threads) for a in prog.local]
    ls=np.array([c.get('sectors',0) for c in loc],float)
    ld=np.array([a.op=='load' for a in prog.local])
    hits=(ls*rep.local_hit_share)[ld].sum(); lds=ls[ld].sum()
    g=[lanes.count(a, prog.threads) for a in prog.accesses]
    gs=np.array([c.get('sectors',0) for c in g],float); gl=np.array([a.op=='load' for a in prog.accesses])
    ghit=(gs*rep.hit_share)[gl].sum()
    meas_lmiss=m['lts__t_sectors_srcunit_tex_op_read.sum']-m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum']
    mld=m['l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum']
    print(f"{f.split('/')[-1][:30]:30s} bps={res.blocks_per_sm} l1={res.l1_bytes//1024}K  local ld {lds:.0f}/{mld} miss pred {1-hits/lds:.3f} meas {meas_lmiss/mld:.3f} | glob hit pred {ghit/gs[gl].sum():.3f} meas {m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum']/m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']:.3f}")
