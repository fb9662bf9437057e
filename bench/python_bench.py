# Copyright 2026 The acs authors.
"""Python-side costs of acs: per-call overhead of Context.step and rollout throughput.

  .venv/bin/python bench/python_bench.py [--model humanoid.xml] [--threads 1,2]

1. Per-call overhead: Context(solver='native', metrics=False).step(d) against
   mujoco.mj_step(m, d), the same state (after --warmup steps), interleaved --reps times, best of
   each (these machines drift by up to 2x within seconds).
2. Rollout throughput (steps per second) of --nroll rollouts of --nstep steps with small random
   controls: mujoco.rollout, and acs.rollout with each --solvers, on each thread count, every
   configuration interleaved --reps times, best of each.
3. Batch throughput: a mujoco.batch.Batch of --nroll simulations stepped --nstep times by
   batch.step and by acs.batch.step with each --solvers (MuJoCo >= 3.17), as above.
"""

import argparse
import os
import pathlib
import time

import mujoco
import mujoco.rollout
import numpy as np

import acs
import acs.batch
import acs.rollout

if acs._acs.HAS_MJBATCH:  # pylint: disable=protected-access
  import mujoco.batch  # pylint: disable=g-import-not-at-top

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument('--model', default=str(ROOT.parent / 'shared/models/mujoco/humanoid.xml'))
  parser.add_argument('--warmup', type=int, default=300)
  parser.add_argument('--steps', type=int, default=2000, help='steps per overhead sample')
  parser.add_argument('--reps', type=int, default=8)
  parser.add_argument('--nroll', type=int, default=32)
  parser.add_argument('--nstep', type=int, default=200)
  parser.add_argument('--threads', default=f'1,2,{os.cpu_count()}')
  parser.add_argument('--solvers', default='native,pgs,admm,lagged')
  args = parser.parse_args()

  m = mujoco.MjModel.from_xml_path(args.model)
  d = mujoco.MjData(m)
  mujoco.mj_step(m, d, args.warmup)
  s0 = np.empty(mujoco.mj_stateSize(m, FULL))
  mujoco.mj_getState(m, d, s0, FULL)
  print(f'{pathlib.Path(args.model).name}, MuJoCo {mujoco.__version__}, acs {acs.__version__}, '
        f'{os.cpu_count()} CPUs')

  ctx = acs.Context(m, solver='native', metrics=False)
  best = {'mj_step': np.inf, 'ctx.step': np.inf}
  for _ in range(args.reps):
    for name in best:
      mujoco.mj_setState(m, d, s0, FULL)
      start = time.perf_counter()
      if name == 'mj_step':
        for _ in range(args.steps):
          mujoco.mj_step(m, d)
      else:
        for _ in range(args.steps):
          ctx.step(d)
      best[name] = min(best[name], (time.perf_counter() - start) / args.steps * 1e6)
  print(f'per call, {args.steps} steps after {args.warmup}, best of {args.reps}: mj_step '
        f'{best["mj_step"]:.2f} us, ctx.step (native) {best["ctx.step"]:.2f} us, ratio '
        f'{best["ctx.step"] / best["mj_step"]:.3f}')

  rng = np.random.default_rng(0)
  state0 = np.tile(s0, (args.nroll, 1))
  control = 0.2 * rng.standard_normal((args.nroll, args.nstep, m.nu))
  threads = [int(t) for t in args.threads.split(',')]
  configs = [('mujoco.rollout', None)] + [('acs ' + s, s) for s in args.solvers.split(',')]
  rate = {}
  for _ in range(args.reps):
    for nthread in sorted(set(threads)):
      datas = [mujoco.MjData(m) for _ in range(nthread)]
      data = datas if nthread > 1 else datas[0]
      for name, solver in configs:
        start = time.perf_counter()
        if solver is None:
          mujoco.rollout.rollout(m, data, state0, control)
        else:
          acs.rollout.rollout(m, data, state0, control, solver=solver, metrics=False)
        steps = args.nroll * args.nstep / (time.perf_counter() - start)
        rate[name, nthread] = max(rate.get((name, nthread), 0), steps)
  print(f'rollout throughput, steps/s ({args.nroll} rollouts x {args.nstep} steps, best of '
        f'{args.reps}):')
  table(rate, configs, threads)

  if not acs._acs.HAS_MJBATCH:  # pylint: disable=protected-access
    return   # MuJoCo 3.12: no batch API
  configs = [('mujoco.batch', None)] + [('acs ' + s, s) for s in args.solvers.split(',')]
  rate = {}
  for _ in range(args.reps):
    for nthread in sorted(set(threads)):
      for name, solver in configs:
        batch = mujoco.batch.Batch(m, args.nroll, nthread=nthread)
        row = np.empty(batch.nstate)
        mujoco.mj_setState(m, d, s0, FULL)
        mujoco.mj_getState(m, d, row, mujoco.mjtState.mjSTATE_INTEGRATION.value)
        batch.state[:] = row
        start = time.perf_counter()
        if solver is None:
          batch.step(nstep=args.nstep)
        else:
          acs.batch.step(batch, args.nstep, solver=solver, metrics=False)
        steps = args.nroll * args.nstep / (time.perf_counter() - start)
        rate[name, nthread] = max(rate.get((name, nthread), 0), steps)
  print(f'batch throughput, steps/s ({args.nroll} simulations x {args.nstep} steps, best of '
        f'{args.reps}):')
  table(rate, configs, threads)


def table(rate, configs, threads):
  """Rows of steps/s per thread count, with the scaling from the fewest to the most threads."""
  print(f'{"":16s}' + ''.join(f'{t:>12d}T' for t in sorted(set(threads))) + '   scaling')
  for name, _ in configs:
    row = [rate[name, t] for t in sorted(set(threads))]
    print(f'{name:16s}' + ''.join(f'{r:13.0f}' for r in row) + f'   {row[-1] / row[0]:.2f}x')


if __name__ == '__main__':
  main()
