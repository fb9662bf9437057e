# Copyright 2026 The acs authors.
"""MuJoCo's passive viewer, stepping with acs: python examples/passive_viewer.py [model.xml] [solver]

The viewer is MuJoCo's own (mujoco.viewer.launch_passive); the only change from a plain MuJoCo
loop is ctx.step(data) in place of mujoco.mj_step(model, data). --steps N runs N steps headless
(no window), for a quick check.
"""

import argparse
import pathlib
import time

import mujoco
import mujoco.viewer

import acs

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument('model', nargs='?', default=str(ROOT / 'test_models/incline_stick.xml'))
  parser.add_argument('solver', nargs='?', default='pgs')
  parser.add_argument('--steps', type=int, default=0, help='run headless for this many steps')
  args = parser.parse_args()

  model = mujoco.MjModel.from_xml_path(args.model)
  data = mujoco.MjData(model)
  ctx = acs.Context(model, solver=args.solver)

  if args.steps:
    ctx.step(data, args.steps)
    print(f'{args.steps} steps with {ctx.solver}: t = {data.time:.3f} s, {ctx.stats}')
    return

  with mujoco.viewer.launch_passive(model, data) as viewer:
    while viewer.is_running():
      start = time.time()
      ctx.step(data)                     # instead of mujoco.mj_step(model, data)
      viewer.sync()
      time.sleep(max(0.0, model.opt.timestep - (time.time() - start)))


if __name__ == '__main__':
  main()
