#!/usr/bin/env python3
# Copyright 2026 The acs authors.
"""Cost against the number of contacts: walls of N boxes (N = 1 to 64), every solver.

Each wall is one pile: rows of up to 8 boxes of 10 cm, each row shifted by half a box so that every
box rests on two below (one island). acs-bench steps each wall with a fixed iteration count for the
dual solvers (a zero tolerance and a budget of --iters iterations), so that the time per step
measures the cost of an iteration, not how many a solve takes; lagged and similar run with their
defaults, their Newton iterations to their own tolerance (a compliant step cut short of
convergence can leave the stiff potentials with impulses that blow the pile apart: 20 Newton
iterations do on the walls of 32 and 64), in a second acs-bench run, and mujoco (MuJoCo's own
Newton solver) runs as it comes, for reference. Prints, per solver, the mean step time
and the constraint stage's time per N, and the log-log slope of each against the contact count
(least squares over the walls with 4 boxes or more): 1 is linear; and the slope of the
constraint stage's time per iteration (the compliant solvers' Newton iterations grow with the
pile: 1 at 4 boxes, 3 to 7 at 64), the cost at a fixed iteration count.

  python3 bench/scaling.py [--bench build/bin/acs-bench] [--solvers LIST] [--iters K]
                           [--steps S] [--json FILE]
"""

import argparse
import json
import math
import os
import subprocess
import tempfile

SIZES = [1, 2, 4, 8, 16, 32, 64]
SOLVERS = 'mujoco,pgs,admm,raisim,lcp-pgs,ccp-pgs,ccp-admm,lagged,similar'


def wall(n):
  """MJCF of a wall of n boxes (half-size 5 cm), rows of up to 8, odd rows shifted by half."""
  width = min(n, 8)
  bodies = []
  for i in range(n):
    row, col = divmod(i, width)
    x = 0.1 * col + (0.05 if row % 2 else 0)
    z = 0.05 + 0.1 * row
    bodies.append(f'    <body pos="{x:.3f} 0 {z:.4f}"><freejoint/>'
                  f'<geom type="box" size="0.05 0.05 0.05" mass="1"/></body>')
  return ('<mujoco model="wall_%d">\n  <option timestep="0.002"/>\n  <worldbody>\n'
          '    <geom type="plane" size="5 5 0.1"/>\n%s\n  </worldbody>\n</mujoco>\n'
          % (n, '\n'.join(bodies)))


def slope(xs, ys):
  """least-squares slope of log(y) against log(x)"""
  lx = [math.log(x) for x in xs]
  ly = [math.log(y) for y in ys]
  mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
  sxx = sum((a - mx) ** 2 for a in lx)
  return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sxx if sxx > 0 else float('nan')


def measure(bench, solvers, iters, steps, sizes=SIZES, warmup=50, progress=None):
  """Step each wall with acs-bench.

  Returns {solver: [(n, contacts, step_us, constraint_us, iterations)]}, iterations per step.
  """
  results = {}
  with tempfile.TemporaryDirectory() as tmp:
    for n in sizes:
      path = os.path.join(tmp, f'wall_{n}.xml')
      with open(path, 'w') as f:
        f.write(wall(n))
      compliant = [s for s in solvers if s in ('lagged', 'similar')]
      fixed = [s for s in solvers if s not in compliant]
      runs = []
      for group, sets in ((fixed, ['--set', 'acs_tolerance=0', '--set', 'acs_rel_tolerance=0',
                                   '--set', f'acs_maxiter={iters}']), (compliant, [])):
        if not group:
          continue
        out = os.path.join(tmp, f'wall_{n}.json')
        cmd = [bench, path, '--solvers', ','.join(group), '--steps', str(steps),
               '--warmup', str(warmup), '--quiet', '--json', out, '--set', 'acs_metrics=0'] + sets
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 and not os.path.exists(out):
          raise RuntimeError(f'acs-bench failed on wall_{n}: {proc.stderr}')
        runs += json.load(open(out))['runs']
      for run in runs:
        if run['status'] != 'ok':
          print(f'wall_{n}: {run["solver"]} {run["status"]}: {run.get("error")}')
          continue
        results.setdefault(run['solver'], []).append(
            (n, run['contacts']['mean'], run['step_us']['mean'], run['solve_us']['mean'],
             max(run['iterations']['mean'], 1)))
      if progress:
        progress(n)
  return results


def main():
  root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  ap.add_argument('--bench', default=os.path.join(root, 'build', 'bin', 'acs-bench'))
  ap.add_argument('--solvers', default=SOLVERS)
  ap.add_argument('--iters', type=int, default=20)
  ap.add_argument('--steps', type=int, default=200)
  ap.add_argument('--json', help='write the measurements here')
  args = ap.parse_args()

  results = measure(args.bench, args.solvers.split(','), args.iters, args.steps)

  print(f'walls of N boxes, {args.steps} steps after 50, a fixed {args.iters} iterations '
        '(lagged, similar, mujoco: their own), metrics off; mean step / constraint stage, us')
  print('%-9s' % 'N' + ''.join('%14d' % n for n in SIZES) +
        '   slope step  constraint  per iteration')
  for solver, rows in results.items():
    print('%-9s' % 'contacts' if solver == next(iter(results)) else '', end='')
    if solver == next(iter(results)):
      print(''.join('%14.1f' % r[1] for r in rows))
    big = [r for r in rows if r[0] >= 4]
    s1 = slope([r[1] for r in big], [r[2] for r in big])
    s2 = slope([r[1] for r in big], [r[3] for r in big])
    s3 = slope([r[1] for r in big], [r[3] / r[4] for r in big])
    print('%-9s' % solver + ''.join('%7.0f /%5.0f' % (r[2], r[3]) for r in rows) +
          '   %10.2f  %10.2f  %13.2f' % (s1, s2, s3))
  if args.json:
    with open(args.json, 'w') as f:
      json.dump({'iters': args.iters, 'steps': args.steps, 'sizes': SIZES,
                 'runs': {s: [dict(zip(('n', 'contacts', 'step_us', 'constraint_us',
                                        'iterations'), r))
                              for r in rows] for s, rows in results.items()}}, f, indent=1)


if __name__ == '__main__':
  main()
