#!/usr/bin/env python3
# Copyright 2026 The acs authors.
"""acs-bench --suite: where each contact model is right, wrong, fast or slow.

Runs every scene of the suite with every solver and writes into --out (default results/):

  SCENE.json    one per scene: the runs in the bench's format (acs-bench's own JSON where the
                scene is a timing one; the same fields, measured through the acs package, where it
                is a physics one), each with the scene's measures, and the checks
  suite.csv     a row per scene and solver: status, step time, iterations, NCP residual,
                penetration, the scene's headline measure and whether its checks passed
  report.md     the tables, the checks and the plots
  *.png         the plots (matplotlib)

The scenes (test_models/ says what each reproduces and what the right answer is):

  cube_slide      E1/E2: a cube launched 30 degrees off its contact frame: straight-line
                  deceleration at mu g (NCP), the LCP's heading bias, the CCP's lift, RaiSim's
                  deceleration error; energy against the analytic curve
  sphere_cube     RaiSim's friction direction: wrong on a cube's corners, right on a sphere
  incline_slide   a box sliding down a slope: the analytic acceleration; CCP's and RaiSim's
                  excess
  cube_drag       E3/E4: a force ramp: the analytic speed, the consistency error against the same
                  solver at a fine time step (CCP: proportional to h), internal corner forces
  stack_ratio     E5: heavy-on-light stack, mass ratio 1 to 1e6: iterations to 1e-6 from a cold
                  start per solver; one second at 1e6 with the default budget
  single_step     E8: residual against iterations on single-step problems (stack, humanoid, dog)
  creep           the creep benchmark: a box on an incline below the friction angle, a capsule
                  pinched between two sprung fingers, Fetch's gripper holding a box: creep speed
                  from 1 s on, MuJoCo at its defaults, elliptic with impratio 10, and noslip
  conveyor        Castro et al. XI-A: stick-slip on an oscillating belt against the analytic
                  solution; Similar's gliding
  falling_sphere  Castro et al. XI-B: impact, sliding, rolling at 5/7 of the launch speed
  quadruped_push  E6/E9: the dm_control quadruped standing, pushed with half its weight
  piles           walls of N boxes, N = 1 to 64: time per step against contacts, log-log slopes
  robots          real robots from the dm-control and gymnasium-robotics wheels: step-time ratio
                  to mj_step, iterations, residual, penetration, finite
  humans          the shared humanoid lying after its fall and 22_humanoids, measured as the
                  robots are

--quick runs the same scenes with fewer steps (and is what the test command runs); its checks
are the same. The exit status is 1 if a check failed, 2 on a usage error or a stale build (a
source of the library or of the `acs` package newer than the package or acs-bench: run
scripts/setup.sh; ACS_SUITE_STALE=ok runs it anyway, e.g. after a checkout touched a file).

  acs-bench --suite [--solvers LIST] [--scenes LIST] [--quick] [--out DIR]
"""

import argparse
import csv
import datetime
import glob
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import mujoco
import acs

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scaling  # noqa: E402  (bench/scaling.py: the walls of boxes)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, 'test_models')
SOLVERS = ['mujoco', 'pgs', 'admm', 'raisim', 'lcp-pgs', 'ccp-pgs', 'ccp-admm', 'lagged',
           'similar']
NCP = ('pgs', 'admm')
COMPLIANT = ('lagged', 'similar')
G = 9.81

# MuJoCo's own solver: at its defaults, and the two settings its documentation offers against
# slip (an elliptic cone with a large impratio; the noslip post-processor)
MUJOCO_VARIANTS = {
    'mujoco': dict(cone=mujoco.mjtCone.mjCONE_PYRAMIDAL, impratio=1, noslip_iterations=0),
    'mujoco-elliptic': dict(cone=mujoco.mjtCone.mjCONE_ELLIPTIC, impratio=10,
                            noslip_iterations=0),
    'mujoco-noslip': dict(cone=mujoco.mjtCone.mjCONE_PYRAMIDAL, impratio=1, noslip_iterations=10),
}


#---------------------------------- running a solver ----------------------------------------------

class Sim:
  """One solver on one model: MuJoCo's mj_step ('mujoco'; 'mujoco-elliptic', 'mujoco-noslip'
  change the model's options as named; 'mujoco-as-is' keeps them) or an acs solver. Keeps the
  bench's per-step statistics of the steps it takes."""

  def __init__(self, model, solver, metrics=True, data=None, **options):
    self.m, self.solver = model, solver
    if data is not None:
      self.d = data
    else:
      self.d = mujoco.MjData(model)
      if model.nkey:
        mujoco.mj_resetDataKeyframe(model, self.d, 0)
    self.plain = solver.startswith('mujoco')
    for key, value in MUJOCO_VARIANTS.get(solver, {}).items():
      setattr(model.opt, key, value)
    self.ctx = None
    if not self.plain:
      self.ctx = acs.Context(model, solver=solver, **options)
    elif metrics:
      self.ctx = acs.Context(model, solver='native')   # evaluates MuJoCo's forces
    self.metrics = metrics
    self.nstep, self.time_us = 0, 0.0
    self.iterations, self.residual, self.penetration = [], [], 0.0
    self.status = {}
    self.error = None

  def step(self, n=1):
    """n steps; the statistics of the last one are recorded"""
    t = time.perf_counter()
    if self.plain:
      mujoco.mj_step(self.m, self.d, nstep=n)
      status = 'native'
    else:
      code = self.ctx.step(self.d, n)
      status = acs.status_name(code)
      if code == acs.STATUS_ERROR:
        self.error = self.ctx.last_error
    self.time_us += 1e6 * (time.perf_counter() - t)
    self.nstep += n
    if self.plain:
      self.iterations.append(int(self.d.solver_niter[0]))
      if self.metrics:
        self.ctx.evaluate(self.d)
    else:
      self.iterations.append(self.ctx.stats.iterations)
    if self.ctx is not None and self.metrics:
      st = self.ctx.stats
      self.residual.append(st.residual)
      self.penetration = max(self.penetration, st.penetration)
    self.status[status] = self.status.get(status, 0) + 1

  def finite(self):
    return bool(np.all(np.isfinite(self.d.qpos)) and np.all(np.isfinite(self.d.qvel)))

  def record(self, **measures):
    """the run in the bench's JSON format, with the scene's measures"""
    finite = self.finite()
    res = [r for r in self.residual if math.isfinite(r)]
    return {
        'solver': self.solver,
        'status': 'error' if self.error else ('ok' if finite and not self.status.get('diverged')
                                              else 'diverged'),
        'error': self.error,
        'steps': self.nstep,
        'step_us': {'mean': self.time_us / max(self.nstep, 1)},
        'iterations': {'mean': float(np.mean(self.iterations)) if self.iterations else 0,
                       'max': int(max(self.iterations)) if self.iterations else 0},
        'ncp_residual': {'mean': float(np.mean(res)) if res else None,
                         'max': float(max(res)) if res else None},
        'penetration_max': self.penetration,
        'steps_status': self.status,
        'nonfinite': not finite,
        'measures': measures,
    }


def load(name):
  return mujoco.MjModel.from_xml_path(os.path.join(MODELS, name))


def energy(m, d, scratch):
  """potential plus kinetic energy of d's state (evaluated on scratch)"""
  scratch.qpos[:] = d.qpos
  scratch.qvel[:] = d.qvel
  mujoco.mj_fwdPosition(m, scratch)
  mujoco.mj_energyPos(m, scratch)
  mujoco.mj_energyVel(m, scratch)
  return float(scratch.energy[0] + scratch.energy[1])


def contact_forces(m, d):
  """world-frame force of each contact on its second geom: (ncon, 3)"""
  out = np.zeros((d.ncon, 3))
  f = np.zeros(6)
  for i in range(d.ncon):
    mujoco.mj_contactForce(m, d, i, f)
    out[i] = np.asarray(d.contact[i].frame).reshape(3, 3).T @ f[:3]
  return out


#---------------------------------- the suite's bookkeeping ---------------------------------------

class Scene:
  """A scene's results: runs, checks, a table, plots."""

  def __init__(self, name, model, about, measure, unit):
    self.name, self.model, self.about = name, model, about
    self.measure, self.unit = measure, unit    # the headline measure of the CSV
    self.runs, self.checks, self.plots = [], [], []
    self.table = ''          # Markdown
    self.extra = {}          # more data for the JSON

  def add(self, run):
    self.runs.append(run)
    return run

  def check(self, solver, what, value, ok, bound):
    self.checks.append({'solver': solver, 'what': what, 'value': value, 'bound': bound,
                        'pass': bool(ok)})

  def measure_table(self, columns):
    """a Markdown table of the runs' measures: columns of (header, measure, format)"""
    return md_table(['solver'] + [c[0] for c in columns],
                    [[r['solver']] + [fmt(r['measures'][key], spec) for _, key, spec in columns]
                     for r in self.runs])

  def run_of(self, solver):
    return next((r for r in self.runs if r['solver'] == solver), None)


class Progress:
  """One line per finished unit (a scene's solver, wall or robot) with the time spent and left
  (from the scenes' weights: their share of the suite's time); on a terminal, a live line."""

  def __init__(self, weights, nsolver):
    self.total, self.done, self.start = sum(weights), 0.0, time.time()
    self.nsolver, self.weight = nsolver, 0.0
    self.tty = sys.stdout.isatty()

  def begin(self, weight):
    self.weight, self.scene_start = weight, self.done

  def line(self, scene, what, units=1.0):
    """units: solvers' worth of the scene's work done"""
    self.done += self.weight * units / self.nsolver
    spent = time.time() - self.start
    left = spent / self.done * max(self.total - self.done, 0) if self.done else 0
    text = '%-14s %-34s %6.1f s, about %4.0f s left' % (scene, what, spent, left)
    if self.tty:
      sys.stdout.write('\r\033[K' + text)
      sys.stdout.flush()
    else:
      print(text, flush=True)

  def finish(self, scene, summary):
    self.done = self.scene_start + self.weight
    if self.tty:
      sys.stdout.write('\r\033[K')
    print('%-14s %s' % (scene, summary), flush=True)


def fmt(x, spec='%.3g'):
  if x is None or (isinstance(x, float) and math.isnan(x)):
    return '-'
  return spec % x


def save(fig, path, legend=None):
  """a plot's file, with the legend of the axes `legend`"""
  if legend is not None:
    legend.legend(fontsize=7)
  fig.tight_layout()
  fig.savefig(path, dpi=110)


def md_table(header, rows):
  out = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
  out += ['| ' + ' | '.join(str(c) for c in row) + ' |' for row in rows]
  return '\n'.join(out) + '\n'


#---------------------------------- E1/E2: the sliding cube ---------------------------------------

def scene_cube_slide(cfg, solvers, progress):
  sc = Scene('cube_slide', 'test_models/cube_slide.xml',
             'E1/E2: a 1 kg cube launched at 1 m/s, 30 degrees off its contact frame, mu = 0.4',
             'decel_error', 'relative')
  mug = 0.4 * G
  nstep = 600                     # 0.6 s: it stops after 0.255 s
  curves = {}
  for solver in solvers:
    m = load('cube_slide.xml')
    sim = Sim(m, solver)
    scratch = mujoco.MjData(m)
    sim.step(50)                  # settle on the floor
    th = math.radians(30)
    sim.d.qvel[0:2] = [math.cos(th), math.sin(th)]
    p0, t0 = sim.d.qpos[0:3].copy(), sim.d.time
    e0 = energy(m, sim.d, scratch)
    ts, es, xs, ys, lift, stop, decel = [], [], [], [], 0.0, None, None
    for i in range(nstep):
      sim.step()
      v = math.hypot(sim.d.qvel[0], sim.d.qvel[1])
      lift = max(lift, sim.d.qpos[2] - p0[2])
      if i == 99:
        decel = (1 - v) / (sim.d.time - t0)
      if v < 1e-6 and stop is None:
        stop = sim.d.time - t0
      ts.append(sim.d.time - t0)
      es.append(energy(m, sim.d, scratch) - e0)
      xs.append(sim.d.qpos[0] - p0[0])
      ys.append(sim.d.qpos[1] - p0[1])
    dx, dy = sim.d.qpos[0] - p0[0], sim.d.qpos[1] - p0[1]
    ts = np.array(ts)
    analytic = 0.5 * np.maximum(1 - mug * ts, 0) ** 2 - 0.5   # kinetic energy change, 1 kg
    eerr = float(np.max(np.abs(np.array(es) - analytic)) / 0.5)
    run = sc.add(sim.record(decel=decel, decel_error=decel / mug - 1,
                            heading_deg=math.degrees(math.atan2(dy, dx)),
                            distance=math.hypot(dx, dy), lift_max=lift, stop_s=stop,
                            energy_error=eerr))
    curves[solver] = (ts, np.array(es), np.array(xs), np.array(ys))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))

  sc.table = sc.measure_table([('deceleration (m/s², analytic 3.924)', 'decel', '%.4f'),
                               ('heading (deg, launched 30)', 'heading_deg', '%.3f'),
                               ('lift (m)', 'lift_max', '%.2e'),
                               ('stops after (s, analytic 0.255)', 'stop_s', '%.3f'),
                               ('energy error (of E0)', 'energy_error', '%.2e')])

  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s in NCP:
      # the NCP decelerates at mu g (1e-5: the velocity tolerance 1e-6 m/s over the 0.1 s
      # measured is 1e-5 m/s^2, 2.5e-6 of mu g), straight (1e-4 deg), on the floor (1e-9 m),
      # stops after 1/(mu g) within 1.5 steps, and dissipates exactly what the analytic curve
      # says (1% of E0: the stop step)
      sc.check(s, 'deceleration = mu g', q['decel'], abs(q['decel_error']) < 1e-5, '1e-5 rel')
      sc.check(s, 'heading 30 deg', q['heading_deg'], abs(q['heading_deg'] - 30) < 1e-4, '1e-4')
      sc.check(s, 'no lift', q['lift_max'], q['lift_max'] < 1e-9, '< 1e-9 m')
      sc.check(s, 'stop at 1/(mu g)', q['stop_s'],
               q['stop_s'] is not None and abs(q['stop_s'] - 1 / mug) < 1.5e-3, '1.5 ms')
      sc.check(s, 'energy on the analytic curve', q['energy_error'], q['energy_error'] < 0.01,
               '< 1% of E0')
    elif s == 'raisim':
      # RaiSim: friction not opposite to the corner slip: less deceleration (Fig. 12)
      sc.check(s, 'deceleration below mu g (MDP violated)', q['decel'], q['decel'] < 0.995 * mug,
               '< 0.995 mu g')
    elif s == 'lcp-pgs':
      # the box cone pulls friction toward its corners: the path bends (Fig. 9)
      sc.check(s, 'heading bias (> 5 deg)', q['heading_deg'], abs(q['heading_deg'] - 30) > 5,
               '> 5 deg')
    elif s.startswith('ccp'):
      # gliding: the contact closes at v_n = mu |v_t|: the cube lifts while it slides (Fig. 10)
      sc.check(s, 'lift while sliding (gliding)', q['lift_max'], q['lift_max'] > 1e-3, '> 1 mm')

  def plot(plt, path):
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for s, (ts, es, xs, ys) in curves.items():
      ax1.plot(ts, es, label=s)
      ax2.plot(xs, ys, label=s)
    ts = np.linspace(0, nstep * 1e-3, 300)
    ax1.plot(ts, 0.5 * np.maximum(1 - mug * ts, 0) ** 2 - 0.5, 'k--', lw=2,
             label='analytic (Coulomb, MDP)')
    ax1.set(xlabel='time (s)', ylabel='mechanical energy change (J)',
            title='Sliding cube (E2): energy against the analytic curve')
    ax2.plot([0, 0.15 * math.cos(math.radians(30))], [0, 0.15 * math.sin(math.radians(30))], 'k--',
             lw=2, label='launch direction')
    ax2.set(xlabel='x (m)', ylabel='y (m)', title='Sliding cube (E1): path seen from above')
    ax2.set_aspect('equal', adjustable='datalim')
    ax1.legend(fontsize=7)
    save(fig, path)
  sc.plots.append(('cube_slide.png', plot, 'Sliding cube: energy against the analytic curve '
                   '(E2) and the path from above (E1)'))
  return sc


#---------------------------------- the incline: sliding ------------------------------------------

def scene_incline_slide(cfg, solvers, progress):
  sc = Scene('incline_slide', 'test_models/incline_slide.xml',
             'a box released on a 20 degree slope with mu = 0.2 < tan 20: its acceleration from '
             '0.2 s to 1.2 s against g (sin 20 - mu cos 20)', 'accel_error', 'relative')
  th = math.radians(20)
  expected = G * (math.sin(th) - 0.2 * math.cos(th))
  down = np.array([math.cos(th), 0, -math.sin(th)])
  for solver in solvers:
    m = load('incline_slide.xml')
    sim = Sim(m, solver)
    sim.step(100)
    v1, t1 = float(down @ sim.d.qvel[0:3]), sim.d.time
    sim.step(500)
    accel = (float(down @ sim.d.qvel[0:3]) - v1) / (sim.d.time - t1)
    sc.add(sim.record(accel=accel, accel_error=accel / expected - 1))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))
  sc.table = sc.measure_table([('acceleration (m/s², analytic %.4f)' % expected, 'accel', '%.6f'),
                               ('relative error', 'accel_error', '%+.2e')])
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s in NCP or s == 'lcp-pgs':
      # Coulomb sliding: the analytic acceleration to the tolerance (1e-6 m/s over 1 s on a
      # 1 kg box: 1e-6 relative; the LCP too, the slope being along its box axis)
      sc.check(s, 'acceleration = g (sin 20 - mu cos 20)', q['accel'],
               abs(q['accel_error']) < 1e-6, '1e-6 rel')
    if s.startswith('ccp'):
      # gliding: less normal force, less friction: 3% to 5% faster (measured 4%)
      sc.check(s, 'faster than Coulomb (gliding)', q['accel_error'],
               0.03 < q['accel_error'] < 0.05, '+3% to +5%')
    if s == 'raisim':
      # friction not opposite to the slip at the corners: less dissipation (measured +0.34%)
      sc.check(s, 'faster than Coulomb (MDP violated)', q['accel_error'],
               0.003 < q['accel_error'] < 0.004, '+0.3% to +0.4%')
  return sc


#---------------------------------- RaiSim's friction direction: sphere against cube -------------

def scene_sphere_cube(cfg, solvers, progress):
  sc = Scene('sphere_cube', 'test_models/sphere_cube.xml',
             'a cube and a sphere launched together at 1 m/s, 30 degrees off x, mu = 0.4: '
             'deceleration over the first 50 ms', 'cube_decel_error', 'relative')
  mug = 0.4 * G
  for solver in solvers:
    m = load('sphere_cube.xml')
    sim = Sim(m, solver)
    sim.step(50)
    th = math.radians(30)
    for j in (0, 6):                # cube, sphere: linear velocity of each free joint
      sim.d.qvel[j:j + 2] = [math.cos(th), math.sin(th)]
    t0 = sim.d.time
    sim.step(50)                    # the sphere rolls after 73 ms: stay in its sliding phase
    dt = sim.d.time - t0
    dec = [(1 - math.hypot(sim.d.qvel[j], sim.d.qvel[j + 1])) / dt for j in (0, 6)]
    sc.add(sim.record(cube_decel=dec[0], sphere_decel=dec[1], cube_decel_error=dec[0] / mug - 1,
                      sphere_decel_error=dec[1] / mug - 1))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))
  sc.table = sc.measure_table([('cube deceleration / mu g - 1', 'cube_decel_error', '%+.2e'),
                               ('sphere deceleration / mu g - 1', 'sphere_decel_error', '%+.2e')])
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s in NCP or s == 'raisim':
      # a sphere's single contact through its center has G_nt = 0: every NCP-like solver gives
      # mu g (1e-5: the velocity tolerance 1e-6 m/s over 50 ms is 2e-5 m/s^2, 5e-6 of mu g)
      sc.check(s, 'sphere decelerates at mu g', q['sphere_decel_error'],
               abs(q['sphere_decel_error']) < 1e-5, '1e-5 rel')
    if s in NCP:
      sc.check(s, 'cube decelerates at mu g', q['cube_decel_error'],
               abs(q['cube_decel_error']) < 1e-5, '1e-5 rel')
    if s == 'raisim':
      sc.check(s, 'cube decelerates less (MDP violated at the corners)', q['cube_decel_error'],
               q['cube_decel_error'] < -5e-3, '< -0.5%')
  return sc


#---------------------------------- E3/E4: the dragged cube ---------------------------------------

def drag_run(solver, h, t_end, sample, metrics=False):
  """cube_drag at time step h to t_end; positions of the cube every `sample` seconds, the speed at
  the end, the y corner forces while it sticks (t = 0.15 s)"""
  m = load('cube_drag.xml')
  m.opt.timestep = h
  sim = Sim(m, solver, metrics=metrics)
  sim.d.ctrl[0] = 20.0               # N/s: the ramp 0 -> 20 N in 1 s
  per = max(1, round(sample / h))
  nsample = round(t_end / sample)
  pos = np.zeros((nsample + 1, 3))
  pos[0] = sim.d.qpos[0:3]
  internal = None
  for k in range(1, nsample + 1):
    sim.step(per)
    pos[k] = sim.d.qpos[0:3]
    if internal is None and sim.d.time >= 0.15 - 1e-9:
      f = contact_forces(m, sim.d)
      internal = float(np.sum(np.abs(f[:, 1]))) if len(f) else 0.0
  return sim, pos, internal


def scene_cube_drag(cfg, solvers, progress):
  sc = Scene('cube_drag', 'test_models/cube_drag.xml',
             'E3/E4: a 1 kg cube dragged by a force ramp 0 -> 20 N in 1 s, mu = 0.4',
             'consistency_1ms', 'm s')
  mug = 0.4 * G
  t0 = mug / 20.0
  v_end = 10 * (1 - t0 ** 2) - mug * (1 - t0)
  steps = [4e-3, 2e-3, 1e-3] if cfg.quick else [8e-3, 4e-3, 2e-3, 1e-3, 5e-4]
  h_ref = 1e-4 if cfg.quick else 1e-5
  sample = 8e-3                      # common sample times of every step size
  # the reference trajectory (Fig. 11): the NCP (pgs) at a fine time step
  _, ref, _ = drag_run('pgs', h_ref, 1.0, sample)
  curves = {}
  for solver in solvers:
    errs, run = [], None
    for h in steps:
      sim, pos, internal = drag_run(solver, h, 1.0, sample, metrics=(h == 1e-3))
      # integral consistency error (Le Lidec et al. Sec. IV): sum |q - q_ref| dt at the samples
      errs.append(float(np.sum(np.linalg.norm(pos - ref, axis=1)) * sample))
      if h == 1e-3:
        run = sim.record(v_end=float(sim.d.qvel[0]), v_end_error=float(sim.d.qvel[0]) / v_end - 1,
                         internal_y_at_0_15s=internal)
    rate = math.log(errs[0] / errs[-1]) / math.log(steps[0] / steps[-1]) \
        if errs[-1] > 0 and errs[0] > 0 else float('nan')
    run['measures'].update(consistency={str(h): e for h, e in zip(steps, errs)},
                           consistency_1ms=errs[steps.index(1e-3)], consistency_order=rate,
                           reference='pgs at h = %g s' % h_ref)
    sc.add(run)
    curves[solver] = errs
    progress.line(sc.name, '%s, %d step sizes' % (solver, len(steps) + 1))

  sc.table = sc.measure_table([
      ('speed at 1 s (analytic %.3f m/s)' % v_end, 'v_end', '%.4f'),
      ('error against the NCP at h = %g s, at h = 1 ms (m s)' % h_ref, 'consistency_1ms', '%.2e'),
      ('order in h', 'consistency_order', '%.2f'),
      ('corner |f_y| at 0.15 s (N; internal forces)', 'internal_y_at_0_15s', '%.2e')])
  pgs = sc.run_of('pgs')
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s in NCP:
      # stiction then sliding at (F - mu m g)/m: the speed at 1 s to 0.2% (the actuator applies
      # the force of the start of each step: the ramp lags by one step of 1 ms, 0.13% of the
      # speed at 1 s); the trajectory converges to the fine one at least at first order
      sc.check(s, 'speed at 1 s = analytic', q['v_end'], abs(q['v_end_error']) < 2e-3,
               '0.2% rel')
      sc.check(s, 'converges as h -> 0', q['consistency_order'], q['consistency_order'] > 0.8,
               'order > 0.8')
    if pgs and s.startswith('ccp'):
      # gliding (the cube hops at mu h |v_t| and flies longer at smaller h): the CCP trajectory
      # stays 1.6 cm s away from the NCP's at every h measured (1000x pgs's at 1 ms)
      sc.check(s, 'does not converge to the NCP (gliding)', q['consistency_1ms'],
               q['consistency_1ms'] > 100 * pgs['measures']['consistency_1ms'], '> 100x pgs')
    if pgs and s == 'raisim':
      # friction not opposite to the slip at the corners: it slides faster (Fig. 12; +0.55%)
      sc.check(s, 'slides faster than the NCP', q['v_end'],
               q['v_end'] > 1.002 * pgs['measures']['v_end'], '> 1.002x pgs')
    if s == 'admm':
      # the proximal ADMM returns the minimum-norm internal forces: none (Fig. 12)
      sc.check(s, 'no internal forces at stiction', q['internal_y_at_0_15s'],
               q['internal_y_at_0_15s'] < 1e-3, '< 1e-3 N')

  def plot(plt, path):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for s, errs in curves.items():
      if all(e > 0 for e in errs):
        ax.loglog(steps, errs, 'o-', label=s)
    ax.set(xlabel='time step h (s)', ylabel='integral consistency error (m s)',
           title='Dragged cube (E3): against the NCP at h = %g s' % h_ref)
    save(fig, path, ax)
  sc.plots.append(('cube_drag.png', plot, 'Dragged cube: consistency error against the time step '
                   '(reference: the NCP at a fine step)'))
  return sc


#---------------------------------- E5: the mass-ratio stack --------------------------------------

def stack_model(ratio):
  """stack_ratio.xml with the light box at ratio^-1/2 kg and the heavy one at ratio^1/2 kg (1e6:
  the paper's 1e-3 kg under 1e3 kg)"""
  with open(os.path.join(MODELS, 'stack_ratio.xml')) as f:
    xml = f.read()
  xml = xml.replace('mass="0.1"', 'mass="%.17g"' % ratio ** -0.5)
  xml = xml.replace('mass="100"', 'mass="%.17g"' % ratio ** 0.5)
  return mujoco.MjModel.from_xml_string(xml)


def scene_stack_ratio(cfg, solvers, progress):
  sc = Scene('stack_ratio', 'test_models/stack_ratio.xml',
             'E5: a heavy box on a light one, mass ratio 1 to 1e6: iterations to a residual of '
             '1e-4 on one step from zero forces, and the residual at the end of the budget; one '
             'second at 1e6 with the default settings',
             'iterations_1e6', 'iterations')
  ratios = [1, 1e2, 1e4, 1e6] if cfg.quick else [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6]
  budget = 2000 if cfg.quick else 20000
  duration = 300 if cfg.quick else 1000           # steps of 1 ms at ratio 1e6
  acs_solvers = [s for s in solvers if not s.startswith('mujoco')]
  iters = {s: [] for s in acs_solvers}
  floor = {s: [] for s in acs_solvers}
  # pgs's projected Gauss-Seidel sweeps alone (acs_subspace 0): the algorithm of the paper, whose
  # need of diagonal dominance E5 shows; the default pgs adds the subspace step
  plain = 'pgs' in acs_solvers
  if plain:
    iters['pgs-sweeps'], floor['pgs-sweeps'] = [], []
  for ratio in ratios:
    m = stack_model(ratio)
    settle = Sim(m, 'admm', metrics=False)
    settle.step(200)
    for s in list(acs_solvers) + (['pgs-sweeps'] if plain else []):
      # 1e-4 m/s: reachable at every ratio (the rounding floor of the residual grows with the
      # forces: ADMM's stops near 1e-8 at 1e4, 1e-5 at 1e6, where the heavy box weighs 1e4 N)
      for tol in (1e-4, 0):
        options = {'subspace': 0} if s == 'pgs-sweeps' else {}
        ctx = acs.Context(m, solver='pgs' if s == 'pgs-sweeps' else s, warmstart=False,
                          tolerance=tol, rel_tolerance=0, maxiter=budget, **options)
        d = mujoco.MjData(m)
        d.qpos[:], d.qvel[:] = settle.d.qpos, settle.d.qvel
        ctx.forward(d)
        if tol:
          iters[s].append(ctx.stats.iterations if ctx.stats.status == acs.STATUS_CONVERGED
                          else None)
        else:
          floor[s].append(ctx.stats.residual)
    progress.line(sc.name, 'ratio %g' % ratio, 0.5)
  for solver in solvers:
    m = stack_model(1e6)
    sim = Sim(m, solver)
    z0 = sim.d.qpos[9]
    for _ in range(duration):
      sim.step()
    run = sc.add(sim.record(drift_1e6=abs(float(sim.d.qpos[9]) - z0),
                            maxiter_share=sim.status.get('maxiter', 0) / duration,
                            iterations_by_ratio=iters.get(solver),
                            residual_by_ratio=floor.get(solver),
                            iterations_1e6=(iters.get(solver) or [None])[-1]))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))
  sc.extra = {'ratios': ratios, 'budget': budget,
              'pgs_sweeps': {'iterations_by_ratio': iters.get('pgs-sweeps'),
                             'residual_by_ratio': floor.get('pgs-sweeps')}}
  header = ['solver'] + ['%g' % r for r in ratios] + ['1e6, 1 s: heavy box moved (m)',
                                                       'steps at the limit']

  def cells(it, res):
    return (['%s / %s' % ('> %d' % budget if v is None else v, fmt(e, '%.0e'))
             for v, e in zip(it, res)] + [''] * (len(ratios) - len(it)))

  rows = []
  for r in sc.runs:
    rows.append([r['solver']] + cells(r['measures']['iterations_by_ratio'] or [],
                                      r['measures']['residual_by_ratio'] or []) +
                [fmt(r['measures']['drift_1e6'], '%.2e'),
                 '%.0f%%' % (100 * r['measures']['maxiter_share'])])
    if r['solver'] == 'pgs' and plain:
      rows.append(['pgs, sweeps alone (acs_subspace 0)'] +
                  cells(iters['pgs-sweeps'], floor['pgs-sweeps']) + ['', ''])
  sc.table = ('Iterations to an NCP residual of 1e-4 from zero forces / the residual after %d '
              'iterations, by mass ratio (lagged, similar: Newton iterations, to their own '
              'tolerance); then one second of the 1e6 stack with the default settings (steps '
              'at the limit: the residual stops above the tolerance 1e-6 at the rounding floor '
              'of its forces):\n\n' % budget + md_table(header, rows))
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s == 'admm':
      # ADMM is robust to the conditioning (Fig. 13): converged at every ratio, and the 1e6 stack
      # holds (1e-4 m: the initial settling into the slop only)
      sc.check(s, 'converges at every ratio', q['iterations_by_ratio'],
               None not in q['iterations_by_ratio'], '< budget')
      sc.check(s, '1e6 stack holds', q['drift_1e6'], q['drift_1e6'] < 1e-4, '< 1e-4 m')
    if s == 'pgs' and 'admm' in iters:
      # Gauss-Seidel needs diagonal dominance: at a mass ratio of 100 or more its sweeps alone
      # need at least 10x ADMM's iterations (or do not converge within the budget), at the ratio
      # where they are slowest. The default pgs adds its subspace step, which ends such solves
      # early: since the step goes on past the bounds that cut it short (9cebc77) in 2 sweeps up
      # to a ratio of 1e3 (the 1e4 step ran the whole budget), and since the sticking rows are
      # eliminated by their Cholesky factor and the sliding ones by a Schur complement (80bb3c3)
      # in 2 at every ratio: its table row shows it
      worst = None
      for ratio, p, a in zip(ratios, iters['pgs-sweeps'], iters['admm']):
        if ratio >= 100 and a is not None:
          x = math.inf if p is None else p / a
          worst = x if worst is None or x > worst else worst
      sc.check(s, 'its sweeps alone (acs_subspace 0) slower than ADMM by 10x at their worst '
               'ratio >= 100', worst, worst is not None and worst >= 10, '>= 10x admm')

  def plot(plt, path):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for s, it in iters.items():
      xs = [r for r, v in zip(ratios, it) if v is not None]
      ys = [max(v, 1) for v in it if v is not None]
      if xs:
        ax.loglog(xs, ys, 'o-', label='pgs, sweeps alone' if s == 'pgs-sweeps' else s)
    ax.axhline(budget, color='k', ls=':', lw=1, label='budget (not converged above)')
    ax.set(xlabel='mass ratio', ylabel='iterations to 1e-4 (cold start)',
           title='Heavy-on-light stack (E5)')
    save(fig, path, ax)
  sc.plots.append(('stack_ratio.png', plot, 'Iterations to a residual of 1e-4 against the mass '
                   'ratio (E5)'))
  return sc


#---------------------------------- E8: residual against iterations -------------------------------

def shared_model(name):
  base = os.environ.get('ACS_SHARED_MODELS', os.path.join(ROOT, '..', 'shared', 'models',
                                                          'mujoco'))
  path = os.path.join(base, name)
  return mujoco.MjModel.from_xml_path(path) if os.path.exists(path) else None


def robot_model(rel):
  base = os.environ.get('ACS_ROBOTS', os.path.join(
      os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')), 'acs', 'robots'))
  path = os.path.join(base, rel)
  return path if os.path.exists(path) else None


def scene_single_step(cfg, solvers, progress):
  sc = Scene('single_step', '(several)',
             'E8: residual after each iteration on single-step problems, from zero forces',
             'iterations_to_1e-6', 'iterations')
  problems = [('stack 1e3', lambda: load('stack_ratio.xml'), 200),
              ('humanoid lying', lambda: shared_model('humanoid.xml'), 300)]
  dog = robot_model('dm_control/suite/dog.xml')
  if dog:
    problems.append(('dog', lambda: mujoco.MjModel.from_xml_path(dog), 100))
  # the dual solvers (lagged and similar solve a compliant problem with Newton's method: their
  # iterations and residual are not comparable)
  acs_solvers = [s for s in solvers if not s.startswith('mujoco') and s not in COMPLIANT]
  curves = {}
  for label, loader, settle in problems:
    m = loader()
    if m is None:
      continue
    base = Sim(m, 'admm', metrics=False)
    base.step(settle)
    for s in acs_solvers:
      ctx = acs.Context(m, solver=s, warmstart=False, tolerance=0, rel_tolerance=0, maxiter=200)
      d = mujoco.MjData(m)
      d.qpos[:], d.qvel[:], d.act[:], d.ctrl[:] = base.d.qpos, base.d.qvel, base.d.act, \
          base.d.ctrl
      ctx.forward(d)
      h = np.array(ctx.stats.history)
      curves[(label, s)] = h
      below = np.nonzero(h <= 1e-6)[0]
      run = sc.add({'solver': s, 'problem': label, 'status': 'ok', 'measures': {
          'iterations_to_1e-6': int(below[0]) + 1 if len(below) else None,
          'residual_after_10': float(h[9]) if len(h) >= 10 else None,
          'residual_after_200': float(h[-1]) if len(h) else None}})
      run['solver'] = s
    progress.line(sc.name, label, len(acs_solvers) / len(solvers))
  labels = list(dict.fromkeys(k[0] for k in curves))
  rows = []
  for s in acs_solvers:
    row = [s]
    for label in labels:
      r = next(r for r in sc.runs if r['solver'] == s and r['problem'] == label)
      q = r['measures']
      row.append('%s / %s' % (q['iterations_to_1e-6'] or '> 200',
                              fmt(q['residual_after_200'], '%.1e')))
    rows.append(row)
  sc.table = ('Iterations to a residual of 1e-6 / the residual after 200 iterations, from zero '
              'forces, each problem after a settling run with admm:\n\n' +
              md_table(['solver'] + labels, rows))

  def plot(plt, path):
    fig, axes = plt.subplots(1, len(labels), figsize=(4.5 * len(labels), 4), squeeze=False)
    for ax, label in zip(axes[0], labels):
      for s in acs_solvers:
        h = curves.get((label, s))
        if h is not None and len(h):
          # the Gauss-Seidel solvers measure their residual after each of their first 10 sweeps,
          # then every 5th (NaN between): the line joins the measured ones
          it = np.nonzero(np.isfinite(h))[0]
          ax.semilogy(it + 1, np.maximum(h[it], 1e-16), label=s)
      ax.set(xlabel='iteration', ylabel='residual', title=label)
    axes[0][0].legend(fontsize=7)
    fig.suptitle('Residual against iterations, one step from zero forces (E8)')
    save(fig, path)
  sc.plots.append(('single_step.png', plot, 'Residual against iterations on single-step '
                   'problems (E8)'))
  return sc


#---------------------------------- the creep benchmark -------------------------------------------

def fetch_gripper():
  """Fetch's two-finger gripper (gymnasium-robotics' pick-and-place MJCF, as shipped) holding its
  2 kg block in the air: (model, data, block body, gripper body), or None without the robot
  models.

  The gripper is welded to its mocap body, held fixed, pointing down as the Gymnasium
  environment puts it: gravity lies in the plane of the finger pads. The fingers' position
  actuators are commanded closed (ctrl 0): they squeeze the block with about 720 N each (9.8 N
  would hold it). The robot's base slides and torso lift are locked by joint damping (1e11, 1e7),
  which MuJoCo's Euler step integrates implicitly: acs states its problem with the same M + hB.
  The block is placed between the open fingers, which close on it for 0.5 s with MuJoCo's
  solver; every solver starts from that state."""
  path = robot_model('gymnasium_robotics/envs/assets/fetch/pick_and_place.xml')
  if not path:
    return None
  m = mujoco.MjModel.from_xml_path(path)
  d = mujoco.MjData(m)
  grip = m.body('robot0:gripper_link').id
  oq = m.joint('object0:joint').qposadr[0]
  ov = m.joint('object0:joint').dofadr[0]
  # as the environment's set-up: the weld at identity, the mocap at the grip site moved, the
  # gripper pointing down; the block out of the way on the table while the arm follows
  m.eq_data[0, 3:10] = [0, 0, 0, 1, 0, 0, 0]
  d.qpos[oq:oq + 7] = [1.25, 0.53, 0.425, 1, 0, 0, 0]
  mujoco.mj_forward(m, d)
  d.mocap_pos[0] = d.site('robot0:grip').xpos + [-0.498, 0.005, -0.231]
  d.mocap_quat[0] = np.array([1.0, 0.0, 1.0, 0.0]) / math.sqrt(2)
  d.ctrl[:] = 0.05                                 # fingers open
  mujoco.mj_step(m, d, nstep=500)
  # the block centred between the finger pads, the fingers on its faces, then closed
  d.qpos[oq:oq + 3] = d.xpos[grip]
  d.qpos[oq + 3:oq + 7] = d.xquat[grip]
  d.qvel[ov:ov + 6] = 0
  for name in ('robot0:r_gripper_finger_joint', 'robot0:l_gripper_finger_joint'):
    d.qpos[m.joint(name).qposadr[0]] = 0.0241
    d.qvel[m.joint(name).dofadr[0]] = 0
  d.ctrl[:] = 0.0
  mujoco.mj_step(m, d, nstep=250)
  d.time = 0.0
  mujoco.mj_forward(m, d)
  return m, d, m.body('object0').id, grip


def creep_run(solver, make, t_end):
  """creep speed (um/s) of a body relative to another between 1 s and t_end; make() returns
  (model, data or None, body, reference body or None)"""
  m, d, body, ref = make()
  sim = Sim(m, solver, metrics=False, data=d)
  h = m.opt.timestep
  sim.step(round(1.0 / h))
  p1 = sim.d.xpos[body] - (sim.d.xpos[ref] if ref is not None else 0)
  sim.step(round((t_end - 1.0) / h))
  p2 = sim.d.xpos[body] - (sim.d.xpos[ref] if ref is not None else 0)
  speed = float(np.linalg.norm(p2 - p1) / (t_end - 1.0)) * 1e6
  # held: finite and touching something (a dropped object has left every contact)
  touching = any(body in (m.geom_bodyid[c.geom1], m.geom_bodyid[c.geom2])
                 for c in sim.d.contact[:sim.d.ncon])
  return sim, speed, bool(sim.finite() and touching)


def regularized_creep(r, v_s=1e-4):
  return 1e6 * v_s * r / math.sqrt(1 - r * r)    # um/s


REGULARIZED = {'incline': regularized_creep(math.tan(math.radians(20)) / 0.5),
               'pinch': regularized_creep(0.1 * G / (1.0 * 10.0))}


def scene_creep(cfg, solvers, progress):
  sc = Scene('creep', '(several)',
             'the creep benchmark: creep speed (um/s) of a held object from 1 s on',
             'creep_um_s', 'um/s')
  t_end = 2.0 if cfg.quick else 6.0
  def scene(name, body):
    def make():
      m = load(name)
      return m, None, m.body(body).id, None
    return make
  cases = [('incline', scene('incline_stick.xml', 'box')), ('pinch', scene('pinch.xml', 'capsule'))]
  if fetch_gripper() is not None:
    cases.append(('fetch gripper', fetch_gripper))
  variants = []
  for s in solvers:
    variants += list(MUJOCO_VARIANTS) if s == 'mujoco' else [s]
  speeds = {}
  for case, make in cases:
    for s in variants:
      sim, speed, held = creep_run(s, make, t_end)
      speeds[(case, s)] = speed
      sc.add(sim.record(case=case, creep_um_s=speed, held=held))
      sc.runs[-1]['problem'] = case
      progress.line(sc.name, '%s %s, %d steps' % (case, s, sim.nstep), 1.0 / len(cases))
  cases_done = list(dict.fromkeys(c for c, _ in speeds))
  sc.table = ('Creep speed (um/s) between 1 s and %g s (MuJoCo: at its defaults, with an '
              'elliptic cone and impratio 10, with noslip):\n\n' % t_end +
              md_table(['solver'] + cases_done,
                       [[s] + [fmt(speeds.get((c, s)), '%.3g') for c in cases_done]
                        for s in variants]))
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s in NCP:
      # hard contact and exact Coulomb stiction: no creep (0.1 um/s, the bar; the
      # solver tolerance 1e-6 m/s on a 1 kg body is 1 um/s at worst, and the warm-started
      # iterate sits far below it once settled)
      sc.check(s, '%s: no creep' % q['case'], q['creep_um_s'], q['creep_um_s'] < 0.1,
               '< 0.1 um/s')
    if s in ('lagged', 'similar') and q['case'] in REGULARIZED:
      # regularized friction f = mu N (v/v_s) / sqrt(1 + (v/v_s)^2) holds a load r mu N at
      # v = v_s r / sqrt(1 - r^2): incline r = tan 20 / 0.5, pinch r = 0.981 N / (1 * 10 N);
      # 5%: the pinch's squeeze is 5 N up to the fingers' 4 um compression of their springs
      v = REGULARIZED[q['case']]
      sc.check(s, '%s: creeps at its regularization speed %.3g' % (q['case'], v),
               q['creep_um_s'], abs(q['creep_um_s'] / v - 1) < 0.05, '5% rel')
    if s == 'mujoco':
      # MuJoCo's soft contact at its defaults creeps: a measurement that reads zero is broken
      sc.check(s, '%s: creeps (soft contact)' % q['case'], q['creep_um_s'],
               q['creep_um_s'] > 1, '> 1 um/s')
    sc.check(s, '%s: object held' % q['case'], q['held'], q['held'], 'held')

  def plot(plt, path):
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.8 / len(cases_done)
    for k, c in enumerate(cases_done):
      ys = [max(speeds.get((c, s), float('nan')), 1e-6) for s in variants]
      ax.bar(np.arange(len(variants)) + k * width, ys, width, label=c)
    ax.set_yscale('log')
    ax.axhline(0.1, color='k', ls=':', lw=1, label='0.1 um/s')
    ax.set_xticks(np.arange(len(variants)) + 0.4 - width / 2)
    ax.set_xticklabels(variants, rotation=30, ha='right', fontsize=8)
    ax.set(ylabel='creep speed (um/s; 1e-6: none)', title='Creep from 1 s to %g s' % t_end)
    ax.legend(fontsize=8)
    save(fig, path)
  sc.plots.append(('creep.png', plot, 'Creep speed per solver (log scale)'))
  return sc


#---------------------------------- Castro et al.: conveyor and falling sphere --------------------

BELT = 0.2 * 2 * math.pi           # belt speed amplitude (0.2 m at 1 Hz)


def belt_speed(t):
  return BELT * math.cos(2 * math.pi * t)


def analytic_belt_box(n, h, mug):
  """the box's speed at the end of each of n steps of h (1-D Coulomb friction, fine substeps):
  it sticks while the belt's acceleration is below mu g, slides at mu g toward the belt
  otherwise"""
  sub, v, stick, out = 1000, 0.0, False, [0.0]
  dt = h / sub
  for i in range(n - 1):
    for j in range(sub):
      t = (i * sub + j) * dt
      vb, ab = belt_speed(t), -BELT * 2 * math.pi * math.sin(2 * math.pi * t)
      if stick and abs(ab) <= mug:
        v = belt_speed(t + dt)
        continue
      stick = False
      dv = (1 if vb > v else -1) * mug * dt
      vbn = belt_speed(t + dt)
      if (v + dv - vbn) * (v - vb) <= 0 and abs(ab) <= mug:
        v, stick = vbn, True
      else:
        v += dv
    out.append(v)
  return np.array(out)


def scene_conveyor(cfg, solvers, progress):
  sc = Scene('conveyor', 'test_models/conveyor.xml',
             'Castro et al. XI-A: a box on a belt oscillating at 1 Hz (0.2 m), mu = 0.7',
             'speed_error', 'm/s')
  n = 1500 if cfg.quick else 3000
  vref = analytic_belt_box(n, 1e-3, 0.7 * G)
  for solver in solvers:
    m = load('conveyor.xml')
    m.flg_surfacevel = 1
    belt = m.geom('belt').id
    sim = Sim(m, solver)
    sim.step(200)
    t0, h, z0 = sim.d.time, m.opt.timestep, sim.d.qpos[2]
    err, lift = 0.0, 0.0
    for i in range(1, n):
      m.geom_surfacevel[belt, 0] = belt_speed(sim.d.time - t0 + h)
      sim.step()
      err = max(err, abs(sim.d.qvel[0] - vref[i]))
      lift = max(lift, abs(sim.d.qpos[2] - z0))
    sc.add(sim.record(speed_error=err, vertical_motion=lift))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))
  sc.table = sc.measure_table([
      ('largest speed error (m/s, belt amplitude 1.257)', 'speed_error', '%.3g'),
      ('vertical motion (m)', 'vertical_motion', '%.2e')])
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s == 'lagged':
      # Lagged is exact at steady normal force: speeds within 1% of the belt amplitude, no
      # vertical motion (1 um)
      sc.check(s, 'follows the analytic speed', q['speed_error'],
               q['speed_error'] < 0.01 * BELT, '< 1% of the belt')
      sc.check(s, 'no vertical motion', q['vertical_motion'], q['vertical_motion'] < 1e-6,
               '< 1 um')
    if s == 'similar':
      # Similar glides while sliding (contact at v_n = mu |v_t|): the box lifts by mm
      sc.check(s, 'glides (lifts while sliding)', q['vertical_motion'],
               q['vertical_motion'] > 1e-3, '> 1 mm')
    if s in NCP:
      sc.check(s, 'follows the analytic speed', q['speed_error'],
               q['speed_error'] < 0.01 * BELT, '< 1% of the belt')
  return sc


def scene_falling_sphere(cfg, solvers, progress):
  sc = Scene('falling_sphere', 'test_models/falling_sphere.xml',
             'Castro et al. XI-B: a 0.5 kg sphere dropped from 5 cm at 2 m/s, mu = 0.5',
             'final_speed_error', 'relative')
  u0, n = 2.0, 250 if cfg.quick else 500
  for solver in solvers:
    m = load('falling_sphere.xml')
    sim = Sim(m, solver)
    sim.d.qvel[0] = u0
    r = m.geom_size[1, 0]
    first, rolling = None, None
    for _ in range(n):
      sim.step()
      if first is None and sim.d.ncon and np.any(sim.d.efc_force[:sim.d.nefc] != 0):
        first = sim.d.time
      if first is not None and rolling is None and \
         abs(sim.d.qvel[0] - r * sim.d.qvel[4]) < 1e-3:
        rolling = sim.d.time
    v = float(sim.d.qvel[0])
    sc.add(sim.record(final_speed=v, final_speed_error=v / (5 / 7 * u0) - 1,
                      first_force_s=first, rolling_s=rolling))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))
  t_touch = math.sqrt(2 * 0.05 / G)
  sc.table = sc.measure_table([
      ('final speed (m/s, 5/7 of 2 = 1.4286)', 'final_speed', '%.4f'),
      ('first contact force (s, touches at %.4f)' % t_touch, 'first_force_s', '%.3f'),
      ('rolls from (s)', 'rolling_s', '%.3f')])
  for r in sc.runs:
    s, q = r['solver'], r['measures']
    if s.startswith('mujoco'):
      continue      # soft contact: rolling resistance from its compliance (-2% here), not checked
    # angular momentum about the contact point is conserved by any contact force: every model
    # ends rolling at 5/7 u0 (0.5%: the compliant models roll on a contact point slightly below
    # the surface, and end the run still settling by a fraction of a percent)
    sc.check(s, 'ends rolling at 5/7 u0', q['final_speed'], abs(q['final_speed_error']) < 5e-3,
             '0.5% rel')
  return sc


#---------------------------------- timing scenes (acs-bench) -------------------------------------

def bench_json(cfg, model, solvers, steps, warmup, repeat=1, sets=(), perturb=0):
  with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'run.json')
    cmd = [cfg.bench, model, '--solvers', ','.join(solvers), '--steps', str(steps),
           '--warmup', str(warmup), '--repeat', str(repeat), '--quiet', '--json', out]
    if perturb:
      cmd += ['--perturb', repr(perturb)]
    for s in sets:
      cmd += ['--set', s]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if not os.path.exists(out):
      raise RuntimeError('acs-bench failed on %s: %s' % (model, proc.stderr.strip()))
    with open(out) as f:
      return json.load(f)


def scene_piles(cfg, solvers, progress):
  sc = Scene('piles', '(generated: bench/scaling.py)',
             'walls of N boxes: time per step against contacts, a fixed 20 iterations (lagged, '
             'similar, mujoco: to their own tolerance), metrics off', 'slope_step', 'log-log')
  sizes = [1, 4, 16] if cfg.quick else scaling.SIZES
  steps = 30 if cfg.quick else 200
  res = scaling.measure(cfg.bench, solvers, 20, steps, sizes, warmup=20 if cfg.quick else 50,
                        progress=lambda n: progress.line(sc.name, 'N = %d' % n,
                                                         len(solvers) / len(sizes)))
  for s, rows in res.items():
    big = [r for r in rows if r[0] >= 4]
    sc.add({'solver': s, 'status': 'ok', 'measures': {
        'walls': [dict(zip(('n', 'contacts', 'step_us', 'constraint_us', 'iterations'), r))
                  for r in rows],
        'slope_step': scaling.slope([r[1] for r in big], [r[2] for r in big]),
        'slope_constraint': scaling.slope([r[1] for r in big], [r[3] for r in big]),
        'slope_iteration': scaling.slope([r[1] for r in big], [r[3] / r[4] for r in big])}})
  sc.table = md_table(
      ['solver'] + ['N = %d' % n for n in sizes] +
      ['slope (step)', 'slope (constraint)', 'slope (per iteration)'],
      [[r['solver']] + [fmt(w['step_us'], '%.0f') for w in r['measures']['walls']] +
       [fmt(r['measures']['slope_step'], '%.2f'), fmt(r['measures']['slope_constraint'], '%.2f'),
        fmt(r['measures']['slope_iteration'], '%.2f')]
       for r in sc.runs])
  sc.table = ('Mean step time (us); the slopes of the step time, of the constraint stage and of '
              'the constraint stage per iteration against the contacts:\n\n' + sc.table)
  for r in sc.runs:
    if len(r['measures']['walls']) < len(sizes):
      sc.check(r['solver'], 'ran every wall', len(r['measures']['walls']), False, len(sizes))
    elif not cfg.quick and r['solver'] != 'mujoco':
      # at a fixed iteration count, the cost grows with the contacts no faster than linearly
      # (least squares over walls of 4 to 64 boxes; 1.3 leaves room for the machine's noise and
      # the piles' growing fill)
      v = r['measures']['slope_iteration']
      sc.check(r['solver'], 'constraint time per iteration grows at most linearly (slope)', v,
               v <= 1.3, '<= 1.3')

  def plot(plt, path):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for r in sc.runs:
      w = r['measures']['walls']
      ax.loglog([x['contacts'] for x in w], [x['step_us'] for x in w], 'o-', label=r['solver'])
    ax.set(xlabel='contacts', ylabel='time per step (us)',
           title='Walls of 1 to %d boxes' % sizes[-1])
    save(fig, path, ax)
  sc.plots.append(('piles.png', plot, 'Time per step against the number of contacts (log-log)'))
  return sc


def scene_quadruped_push(cfg, solvers, progress):
  sc = Scene('quadruped_push', 'dm_control/suite/quadruped.xml',
             'E6/E9: the dm_control quadruped standing (its servos at zero), pushed at the torso '
             'with half its weight along x for 0.2 s, then released for 0.8 s',
             'displacement', 'm')
  path = robot_model('dm_control/suite/quadruped.xml')
  if not path:
    progress.line(sc.name, 'not installed', len(solvers))
    return sc
  for solver in solvers:
    m = mujoco.MjModel.from_xml_path(path)
    sim = Sim(m, solver)
    h = m.opt.timestep
    torso = m.body('torso').id
    sim.step(round(1.0 / h))                              # stand and settle
    x0 = sim.d.xpos[torso].copy()
    sim.iterations, sim.residual, sim.penetration, sim.status = [], [], 0.0, {}
    sim.d.xfrc_applied[torso, 0] = 0.5 * G * mujoco.mj_getTotalmass(m)
    for _ in range(round(0.2 / h)):
      sim.step()
    pushed = float(sim.d.xpos[torso, 0] - x0[0])
    sim.d.xfrc_applied[torso] = 0
    for _ in range(round(0.8 / h)):
      sim.step()
    conv = sim.status.get('converged', 0) + sim.status.get('native', 0) + \
        sim.status.get('empty', 0)
    sc.add(sim.record(pushed=pushed, displacement=float(sim.d.xpos[torso, 0] - x0[0]),
                      height_change=float(sim.d.xpos[torso, 2] - x0[2]),
                      converged=conv / max(sum(sim.status.values()), 1)))
    progress.line(sc.name, '%s, %d steps' % (solver, sim.nstep))
  sc.table = md_table(
      ['solver', 'torso moved in the push (m)', 'after 0.8 s more (m)', 'height change (m)',
       'max penetration (m)', 'max NCP residual', 'iterations', 'converged', 'step (us)'],
      [[r['solver'], fmt(r['measures']['pushed'], '%.4f'), fmt(r['measures']['displacement'],
                                                              '%.4f'),
        fmt(r['measures']['height_change'], '%+.4f'), fmt(r['penetration_max'], '%.2e'),
        fmt(r['ncp_residual']['max'], '%.1e'), fmt(r['iterations']['mean'], '%.1f'),
        '%.0f%%' % (100 * r['measures']['converged']), fmt(r['step_us']['mean'], '%.0f')]
       for r in sc.runs])
  for r in sc.runs:
    # every model stays finite and stands (the torso does not drop by 5 cm); hard contact
    # penetrates at most the 1 cm MuJoCo's own soft contact reaches here
    sc.check(r['solver'], 'finite', not r['nonfinite'], not r['nonfinite'], 'finite')
    if not r['solver'].startswith('mujoco'):
      sc.check(r['solver'], 'penetration below 1 cm', r['penetration_max'],
               r['penetration_max'] < 0.01, '< 1 cm')
  return sc


ROBOTS = [('dog', 'dm_control/suite/dog.xml'),
          ('humanoid_CMU', 'dm_control/suite/humanoid_CMU.xml'),
          ('quadruped', 'dm_control/suite/quadruped.xml'),
          ('manipulator', 'dm_control/suite/manipulator.xml'),
          ('stacker', 'dm_control/suite/stacker.xml'),
          ('shadow_block', 'gymnasium_robotics/envs/assets/hand/manipulate_block.xml'),
          # Fetch push as Gymnasium simulates it (scripts/fetch_envs.py; the bare push.xml is a
          # state no environment steps, in which the hard weld, limit and floor fight)
          ('fetch_push', 'gymnasium_robotics/envs/assets/fetch/push_env.xml')]


ROBOT_PERTURB = 1e-4   # rad/s or m/s (Fetch push under mj_step itself blows up at 1e-3: its bad-
                       # acceleration reset at step 6 of the first draw)


def timing_scene(sc, cfg, solvers, progress, entries, label):
  """Mean step time over mj_step's (acs-bench, metrics off, rounds interleaved; the median over
  the entry's repeats, each from its own draw of every dof's initial speed, up to ROBOT_PERTURB)
  and, from a second run with metrics on over the same repeats, the share of converged steps, the
  iterations, residual and penetration; entries: (name, path or None, steps, warmup, repeats)"""
  # the repeats are different trajectories: a rounding-level change moves one run between
  # contact configurations or in and out of a phase of unconverged steps (the Shadow hand's pgs:
  # 100% and 1.6x, or 88% and 3.0x, by the commit), so the shares pool the repeats
  bench_solvers = ['mujoco'] + [s for s in solvers if not s.startswith('mujoco')]
  for name, path, steps, warmup, repeat in entries:
    if not path:
      progress.line(sc.name, '%s: not installed' % name, len(bench_solvers) / len(entries))
      continue
    # speed: metrics off (what a pipeline pays); physics: a second run with metrics on
    speed = bench_json(cfg, path, bench_solvers, steps, warmup, repeat, ['acs_metrics=0'],
                       ROBOT_PERTURB)
    phys = {r['solver']: r for r in bench_json(cfg, path, bench_solvers, steps, warmup, repeat,
                                               (), ROBOT_PERTURB)['runs']}
    for r in speed['runs']:
      p = phys.get(r['solver'], {})
      total = sum(p.get('steps_status', {}).values()) or 1
      r['robot'] = name
      r['measures'] = {
          'x_mujoco': r['x_mujoco']['median'], 'step_us': r['step_us']['mean'],
          'converged': p.get('steps_status', {}).get('converged', 0) / total,
          'iterations': p.get('iterations', {}).get('mean'),
          'residual_max': p.get('ncp_residual', {}).get('max'),
          'penetration_max': p.get('penetration_max'),
          'finite': not p.get('nonfinite', True) and p.get('status') == 'ok'}
      sc.add(r)
    progress.line(sc.name, name, len(bench_solvers) / len(entries))
  names = list(dict.fromkeys(r['robot'] for r in sc.runs))
  rows = []
  for s in bench_solvers:
    row = [s]
    for n in names:
      r = next((r for r in sc.runs if r['robot'] == n and r['solver'] == s), None)
      q = r['measures'] if r else {}
      conv = '' if s == 'mujoco' else ' (%.0f%%)' % (100 * q.get('converged', 0))
      row.append('%s%s' % (fmt(q.get('x_mujoco'), '%.2fx'), conv) if r else '-')
    rows.append(row)
  lengths = [(n, st, w, r) for n, pth, st, w, r in entries if pth]
  if len(set(x[1:] for x in lengths)) <= 1:
    steps = '%d steps after %d, %d repeat(s)' % lengths[0][1:] if lengths else 'no steps'
  else:
    steps = ', '.join('%s %d steps after %d, %d repeat(s)' % x for x in lengths)
  sc.table = ('Mean step time over mj_step\'s (median over the repeats; share of steps '
              'converged, over them), %s, each repeat with every dof\'s initial speed raised by '
              'up to %g, metrics off:\n\n' % (steps, ROBOT_PERTURB) +
              md_table(['solver'] + names, rows))
  detail = []
  for r in sc.runs:
    q = r['measures']
    detail.append([r['robot'], r['solver'], fmt(q['step_us'], '%.1f'), fmt(q['iterations'], '%.1f'),
                   fmt(q['residual_max'], '%.2e'), fmt(q['penetration_max'], '%.2e'),
                   'yes' if q['finite'] else 'NO'])
  sc.table += '\n' + md_table([label, 'solver', 'step (us)', 'iterations', 'max residual',
                               'max penetration (m)', 'finite'], detail)
  for r in sc.runs:
    sc.check(r['solver'], '%s: stays finite' % r['robot'], r['measures']['finite'],
             r['measures']['finite'], 'finite')
  return sc


def scene_robots(cfg, solvers, progress):
  sc = Scene('robots', '(dm-control 1.0.50, gymnasium-robotics 1.4.2 wheels)',
             'real robots: mean step time over mj_step\'s in one acs-bench process (metrics off, '
             'rounds interleaved), share of converged steps, iterations, residual, penetration',
             'x_mujoco', 'x mj_step')
  robots = ROBOTS[1:3] if cfg.quick else ROBOTS
  steps, warmup, repeat = (30, 20, 1) if cfg.quick else (300, 100, 4)
  entries = [(name, robot_model(rel), steps, warmup, repeat) for name, rel in robots]
  return timing_scene(sc, cfg, solvers, progress, entries, 'robot')


def scene_humans(cfg, solvers, progress):
  """The shared humanoid (keyframe 0, the squat: it falls and lies after 300 steps) and
  22_humanoids (keyframe 0, 22 of them on the floor), the issue's two scenes of humans in
  contact, as the robots are measured"""
  sc = Scene('humans', '(shared models: humanoid.xml, 22_humanoids.xml)',
             'humans in contact: mean step time over mj_step\'s in one acs-bench process '
             '(metrics off, rounds interleaved), share of converged steps, iterations, residual, '
             'penetration', 'x_mujoco', 'x mj_step')
  base = os.environ.get('ACS_SHARED_MODELS', os.path.join(ROOT, '..', 'shared', 'models',
                                                          'mujoco'))
  def path(name):
    p = os.path.join(base, name)
    return p if os.path.exists(p) else None
  # the lying humanoid's step is mostly fixed costs, and its few sweeps or iterations a step are
  # a draw of its trajectory (pgs 1.63x and 2.14x on two sets of three draws a commit apart, the
  # sweeps 1.52 and 1.75 a step): eight draws (3 s of the suite) steady the median
  if cfg.quick:
    entries = [('humanoid lying', path('humanoid.xml'), 30, 300, 1)]
  else:
    entries = [('humanoid lying', path('humanoid.xml'), 1000, 300, 8),
               ('22_humanoids', path('22_humanoids.xml'), 300, 100, 3)]
  return timing_scene(sc, cfg, solvers, progress, entries, 'scene')


SCENES = {
    'cube_slide': scene_cube_slide,
    'sphere_cube': scene_sphere_cube,
    'incline_slide': scene_incline_slide,
    'cube_drag': scene_cube_drag,
    'stack_ratio': scene_stack_ratio,
    'single_step': scene_single_step,
    'creep': scene_creep,
    'conveyor': scene_conveyor,
    'falling_sphere': scene_falling_sphere,
    'quadruped_push': scene_quadruped_push,
    'piles': scene_piles,
    'robots': scene_robots,
    'humans': scene_humans,
}
# seconds each scene took on 2 cores (full, --quick), for the time left
WEIGHT = {'cube_drag': (1.3, 0.4), 'stack_ratio': (3, 0.5), 'single_step': (0.6, 0.7),
          'creep': (6.7, 2.4), 'conveyor': (1.9, 1), 'quadruped_push': (1.3, 1.3),
          'piles': (111, 1), 'robots': (25, 0.4), 'humans': (60, 1)}


#---------------------------------- output ---------------------------------------------------------

def commit():
  try:
    out = subprocess.run(['git', '-C', ROOT, 'describe', '--always', '--dirty'],
                         capture_output=True, text=True, timeout=10)
    return out.stdout.strip() or 'unknown'
  except (OSError, subprocess.SubprocessError):
    return 'unknown'


def machine():
  cpu = platform.processor() or platform.machine()
  try:
    with open('/proc/cpuinfo') as f:
      names = [ln.split(':', 1)[1].strip() for ln in f if ln.startswith('model name')]
      if names:
        cpu = names[0]
  except OSError:
    pass
  return '%s, %d cores' % (cpu, os.cpu_count() or 0)


def write(scenes, cfg, header):
  os.makedirs(cfg.out, exist_ok=True)
  for sc in scenes:
    with open(os.path.join(cfg.out, sc.name + '.json'), 'w') as f:
      json.dump(dict(header, scene=sc.name, model=sc.model, about=sc.about, runs=sc.runs,
                     checks=sc.checks, **sc.extra), f, indent=1, default=float)
  with open(os.path.join(cfg.out, 'suite.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['scene', 'problem', 'solver', 'status', 'steps', 'step_us_mean', 'x_mujoco',
                'iterations_mean', 'ncp_residual_max', 'penetration_max', 'nonfinite', 'measure',
                'value', 'unit', 'checks'])
    for sc in scenes:
      for r in sc.runs:
        problem = r.get('problem') or r.get('robot') or ''
        mine = [c for c in sc.checks if c['solver'] == r['solver'] and
                (not problem or problem in c['what'] or sc.name not in ('creep', 'robots'))]
        value = r.get('measures', {}).get(sc.measure)
        w.writerow([sc.name, problem, r['solver'], r.get('status', ''), r.get('steps', ''),
                    (r.get('step_us') or {}).get('mean', ''),
                    (r.get('x_mujoco') or {}).get('median', ''),
                    (r.get('iterations') or {}).get('mean', ''),
                    (r.get('ncp_residual') or {}).get('max', ''),
                    r.get('penetration_max', ''), r.get('nonfinite', ''), sc.measure,
                    '' if value is None else value, sc.unit,
                    ('fail' if any(not c['pass'] for c in mine) else 'pass') if mine else ''])

  plotted = {}
  try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    for sc in scenes:
      for name, fn, caption in sc.plots:
        fn(plt, os.path.join(cfg.out, name))
        plt.close('all')
        plotted[name] = caption
  except ImportError:
    print('acs-bench --suite: matplotlib is missing: no plots (run scripts/setup.sh)')

  lines = ['# acs evidence suite%s\n' % (' (--quick)' if cfg.quick else ''),
           '%s; MuJoCo %s; acs commit %s; %s; solvers %s.\n' % (
               header['date'], header['mujoco_version'], header['commit'], header['machine'],
               ', '.join(header['solvers'])),
           'Step times are of this run, on this machine (shared machines drift: compare ratios '
           'measured in one process, not times across runs).\n']
  nfail = sum(not c['pass'] for sc in scenes for c in sc.checks)
  ncheck = sum(len(sc.checks) for sc in scenes)
  lines.append('**Checks: %d of %d passed.**\n' % (ncheck - nfail, ncheck))
  for sc in scenes:
    lines.append('## %s\n\n%s (`%s`).\n\n%s' % (sc.name, sc.about, sc.model, sc.table))
    for name, _, caption in sc.plots:
      if name in plotted:
        lines.append('\n![%s](%s)\n' % (caption, name))
    if sc.checks:
      lines.append('\nChecks:\n')
      for c in sc.checks:
        lines.append('- %s %s: %s: %s (bound %s)' % (
            'pass' if c['pass'] else '**FAIL**', c['solver'], c['what'],
            c['value'] if not isinstance(c['value'], float) else '%.3g' % c['value'], c['bound']))
      lines.append('')
  with open(os.path.join(cfg.out, 'report.md'), 'w') as f:
    f.write('\n'.join(lines) + '\n')
  return nfail, ncheck


def stale_build(bench):
  """The newest of the sources (plugin/, include/acs/, the package's python/src/ and python/acs/),
  with the build it is newer than (the acs Python package the suite imports, or the acs-bench
  binary it runs), else None. The suite's
  Python scenes (creep, single steps, ...) run the package that scripts/setup.sh installed in the
  venv, which `cmake --build` does not rebuild: a suite run after an edit and a plain rebuild
  measured two builds (the README's single-step table at 4b1c2b2 came from a package of
  f07602d, the session's first commit)"""
  sources = [f for pattern in ('plugin/*.[ch]', 'include/acs/*.h', 'python/src/*.[ch]',
                                'python/acs/*.py') for f in glob.glob(os.path.join(ROOT, pattern))]
  if not sources:
    return None
  newest = max(sources, key=os.path.getmtime)
  built = [getattr(getattr(acs, '_acs', None), '__file__', None), bench]
  for b in built:
    if b and os.path.exists(b) and os.path.getmtime(newest) > os.path.getmtime(b):
      return os.path.relpath(newest, ROOT), os.path.relpath(b, ROOT)
  return None


def main():
  ap = argparse.ArgumentParser(prog='acs-bench --suite', description=__doc__.split('\n')[0],
                               epilog='Scenes: ' + ', '.join(SCENES))
  ap.add_argument('--bench', default=os.path.join(ROOT, 'build', 'bin', 'acs-bench'),
                  help=argparse.SUPPRESS)
  ap.add_argument('--solvers', default=','.join(SOLVERS),
                  help='comma-separated (default: %(default)s); mujoco is MuJoCo\'s own solver')
  ap.add_argument('--scenes', default=','.join(SCENES), help='comma-separated (default: all)')
  ap.add_argument('--quick', action='store_true', help='the same scenes, fewer steps')
  ap.add_argument('--out', default='results', help='output folder (default: %(default)s)')
  cfg = ap.parse_args()
  solvers = cfg.solvers.split(',')
  known = ['mujoco'] + [name for name, _ in acs.solvers()]
  for s in solvers:
    if s not in known:
      ap.error('--solvers: unknown solver %r (known: %s)' % (s, ', '.join(known)))
  scenes = cfg.scenes.split(',')
  for s in scenes:
    if s not in SCENES:
      ap.error('--scenes: unknown scene %r (known: %s)' % (s, ', '.join(SCENES)))

  stale = stale_build(cfg.bench)
  if stale and os.environ.get('ACS_SUITE_STALE') != 'ok':
    print('acs-bench --suite: %s is newer than %s: the suite would measure an older build; run '
          'scripts/setup.sh (it rebuilds both), or set ACS_SUITE_STALE=ok (a file touched but not '
          'changed)' % stale, file=sys.stderr)
    return 2

  header = {'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
            'mujoco_version': mujoco.__version__, 'acs_version': acs.__version__,
            'commit': commit(), 'machine': machine(), 'quick': cfg.quick, 'solvers': solvers}
  print('acs evidence suite%s: %d scenes, solvers %s -> %s/' % (
      ' (--quick)' if cfg.quick else '', len(scenes), ','.join(solvers), cfg.out), flush=True)
  weight = {s: WEIGHT.get(s, (0.1, 0.1))[1 if cfg.quick else 0] for s in scenes}
  progress = Progress(weight.values(), len(solvers))
  done = []
  for name in scenes:
    t = time.time()
    progress.begin(weight[name])
    sc = SCENES[name](cfg, solvers, progress)
    nfail = sum(not c['pass'] for c in sc.checks)
    progress.finish(name, '%d runs, %d checks, %d failed, %.1f s' % (
        len(sc.runs), len(sc.checks), nfail, time.time() - t))
    for c in sc.checks:
      if not c['pass']:
        print('  FAIL %s: %s: %s (bound %s)' % (c['solver'], c['what'], c['value'], c['bound']))
    done.append(sc)
  nfail, ncheck = write(done, cfg, header)
  print('acs evidence suite: %d of %d checks passed, %.0f s; report %s' % (
      ncheck - nfail, ncheck, time.time() - progress.start, os.path.join(cfg.out, 'report.md')))
  return 1 if nfail else 0


if __name__ == '__main__':
  sys.exit(main())
