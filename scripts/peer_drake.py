#!/usr/bin/env python3
# Copyright 2026 The acs authors.
"""Cross-check of acs's `lagged` and `similar` against Drake's kLagged and kSimilar.

Drake (MultibodyPlant, discrete, point contact) implements the same Irrotational Contact Fields
models. This script simulates the same scenes in both and reports, per scene and approximation,
the largest differences of the sphere's position and linear velocity over the trajectory. Run by
hand, not in CI: `scripts/peer_drake.sh` installs Drake in a virtual environment of its own,
outside the repository, and runs this script there.

The two simulators live in different virtual environments, so the script has three modes:
  --side drake   simulate every case with Drake, write the trajectories (JSON) to --out;
  --side acs     the same with acs (MuJoCo and the acs package of the project's .venv); with
                 --drake FILE (Drake's trajectories) also one step from each of Drake's states;
  (no --side)    compare: the Drake side in this process, then the acs side as a subprocess
                 with --acs-python (default: the project's .venv/bin/python); print the table
                 and, with --out, write it as JSON.

Setup (the same in both). A sphere of mass m = 0.5 kg and radius r = 2.5 cm (solid, inertia
2/5 m r^2: the falling sphere of the ICF paper) on a half-space (MuJoCo: a plane; Drake:
HalfSpace). Point contact of stiffness k = 1e6 N/m, Hunt & Crossley dissipation d = 10 s/m,
stiction tolerance v_s = 1e-4 m/s. Time step h = 1e-3 s, gravity 9.81 m/s^2, 1000 steps.
  acs: acs_stiffness k, acs_dissipation d, acs_stiction_tolerance v_s, friction mu on both geoms
    (MuJoCo takes the larger), elliptic cones, margin 0, acs_newton_tolerance 1e-12.
    Margin 0 because Drake's point contact sees only overlapping pairs; its margin is for
    hydroelastic contact.
  Drake: ContactModel.kPoint; set_discrete_contact_approximation(kLagged or kSimilar);
    set_stiction_tolerance(v_s). Both geometries get point_contact_stiffness 2k,
    hunt_crossley_dissipation d and CoulombFriction(mu, mu). Drake combines stiffnesses in
    series, k1 k2 / (k1 + k2) = k, and dissipations weighted by the other side's stiffness,
    (k2 d1 + k1 d2) / (k1 + k2) = d. A Simulator advances the diagram; a monitor records the
    state after each discrete update (one step).

Scenes:
  rest   A free sphere at rest at its equilibrium penetration m g / k (4.9 um): drift.
  drop   A free sphere released 5 cm above the ground: impact, penetration, rebound.
  stick  A 20 degree incline (gravity tilted) with mu = 0.5 > tan 20 deg = 0.364. The sphere
         creeps at the speed where the regularized friction balances gravity, about v_s.
  slide  The same incline with mu = 0.2 < tan 20 deg: acceleration g (sin 20 - mu cos 20).
         Here k = 1e4 N/m and 500 steps. Similar glides: its contact acts at a distance
         mu h |v_t|, and with k = 1e6 (4.6 um of penetration) that distance exceeds the
         penetration at 2 cm/s. The contact is then lost every few steps (neither side sees a
         pair at positive distance), and the chattering amplifies the stopping tests'
         1e-10 m/s into 0.3 m/s.
  skid   The sphere dropped from 5 cm with 0.1 m/s along the ground (mu = 0.5). Friction stops
         the slip during the impact.
In stick, slide and skid the sphere only translates (three slide joints in MuJoCo; in Drake,
three prismatic joints through massless bodies). A free sphere would roll; these scenes measure
friction, not rolling. In rest and drop the free sphere has no tangential force and never turns.

Columns: max|dp| and max|dv| compare the whole trajectories. step|dv| is the largest velocity
difference of one step taken by acs from each of Drake's states. It separates per-step
differences from their accumulation. step/tol divides each step's difference by what Drake's
stopping test allows, 1e-6 max(|v|, |v - v0 - h g|) (see below), and takes the largest. reg is
the largest 1e-3 mu w n0 along Drake's trajectory (w = 1/m), the term of Drake's friction
regularization.

Results (Drake 1.51.1, acs 0.2.0, MuJoCo 4.0.0). Where the setups match (the rows marked
match), the two agree to 5e-9 m/s and 1e-10 m, except slide with Similar, at 1.8e-6 m/s. In
those rows every step's difference is within what Drake's stopping test allows (step/tol at
most 0.53). Each known difference is shown by a row where it acts and, where one exists, by a
row where a changed parameter removes it:
  * Friction regularization (skid: 5.6e-5 m/s Lagged, 6.5e-4 m/s Similar). Drake regularizes
    friction with a per-contact eps = max(v_s, 1e-3 mu w n0) in both approximations: the
    regularized Lagged of the ICF paper, eq. (26). w is Drake's tangential Delassus estimate,
    1/m here; n0 is the start-of-step normal impulse h k (-phi0) (1 - d vn0). acs uses
    eps = v_s. In sustained contact 1e-3 mu w n0 is about 1e-3 mu h g (5e-6 m/s here), below
    v_s, so rest, stick and slide do not see it. The landing sphere of skid overlaps by
    0.53 mm on its first contact step, and the term reaches 5.8e-3 m/s. The differences come
    from the two steps where the term exceeds v_s (5.8e-3 and 5e-4 m/s); every other step
    agrees to 3.2e-9 m/s. With v_s = 1e-2 m/s on both sides (skid-vs1e-2), above the term at
    every step, they agree to 4e-9 m/s.
  * Momentum stopping test (slide with Similar: 1.8e-6 m/s). Drake stops Newton's iterations
    at |D r| <= 1e-14 + 1e-6 max(|D A v|, |D J' gamma|), with D = diag(A)^-1/2 and v the new
    velocities. Its SapSolverParameters are not exposed to Python. acs has the same test with
    acs_newton_tolerance, 1e-12 here, but scales it by the velocity change from free motion
    instead of v. For one body this lets Drake's step err by 1e-6 max(|v|, |v - v0 - h g|),
    1e-6 |v| when sliding. Lagged's nearly linear sliding problem converges to round-off in its
    last iteration. Similar's coupled one stops within the bound (step/tol 0.53), and its
    sliding sphere, at up to 0.76 m/s, gathers 1.8e-6 m/s over 500 steps. At acs's default
    acs_newton_tolerance 1e-5, acs's own stopping test leaves up to 2.4e-7 m/s
    (skid-vs1e-2-tol1e-5).
  * Per-geometry stiffness (rest-geomk: 2.4e-3 m/s). Drake has no per-contact stiffness: it
    combines the two geometries' point_contact_stiffness in series. Giving both geometries k
    leaves the contact k/2, and the sphere sinks to 9.81 um instead of 4.9 um. acs with
    stiffness k/2 agrees (rest-geomk-acsk2).
  * Default dissipation (drop-drake-d50: 0.1 m/s). A Drake geometry without
    hunt_crossley_dissipation takes SceneGraph's default, 50 s/m (DefaultProximityProperties).
    acs's default is 10 s/m. Against acs's 10 the rebound is 0.020 m/s instead of 0.098; acs
    with 50 agrees (drop-both-d50).

  scripts/peer_drake.sh [--cases LIST] [--out FILE]
  python3 scripts/peer_drake.py [--acs-python PY] [--cases LIST] [--out FILE]
  python3 scripts/peer_drake.py --side acs|drake [--drake FILE] [--cases LIST] --out FILE
"""

import argparse
import json
import logging
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPROXIMATIONS = ('lagged', 'similar')
MASS, RADIUS, GRAVITY = 0.5, 0.025, 9.81
MATERIAL = dict(k=1e6, d=10.0, vs=1e-4, h=1e-3, steps=1000)
DRAKE_DISSIPATION = 50.0   # SceneGraph's default hunt_crossley_dissipation
DRAKE_TOLERANCE = 1e-6     # SapSolverParameters::rel_tolerance
ANGLE = math.radians(20)
HEIGHT = 0.05

# joint: free (a free body) or slide (translations only); tilt: of the gravity; rest: start at the
# equilibrium penetration, else at height z0; v0: initial velocity; k, steps: instead of MATERIAL's
SCENES = {
    'rest': dict(joint='free', tilt=0.0, mu=0.5, rest=True, v0=(0, 0, 0)),
    'drop': dict(joint='free', tilt=0.0, mu=0.5, z0=RADIUS + HEIGHT, v0=(0, 0, 0)),
    'stick': dict(joint='slide', tilt=ANGLE, mu=0.5, rest=True, v0=(0, 0, 0)),
    'slide': dict(joint='slide', tilt=ANGLE, mu=0.2, rest=True, v0=(0, 0, 0), k=1e4, steps=500),
    'skid': dict(joint='slide', tilt=0.0, mu=0.5, z0=RADIUS + HEIGHT, v0=(0.1, 0, 0)),
}

# (name, scene, acs settings, Drake settings, what the row shows): the rows marked match have the
# same setup on both sides; each other row shows one known difference
CASES = [
    ('rest', 'rest', {}, {}, 'match'),
    ('drop', 'drop', {}, {}, 'match'),
    ('stick', 'stick', {}, {}, 'match'),
    ('slide', 'slide', {}, {}, 'match'),
    ('skid-vs1e-2', 'skid', {'vs': 1e-2}, {'vs': 1e-2}, 'match'),
    ('skid', 'skid', {}, {}, 'regularization'),
    ('skid-vs1e-2-tol1e-5', 'skid', {'vs': 1e-2, 'newton_tolerance': 1e-5}, {'vs': 1e-2},
     'acs tolerance 1e-5'),
    ('rest-geomk', 'rest', {}, {'kgeom': 1.0}, 'series stiffness'),
    ('rest-geomk-acsk2', 'rest', {'k': MATERIAL['k'] / 2}, {'kgeom': 1.0}, 'match'),
    ('drop-drake-d50', 'drop', {}, {'d': None}, 'default dissipation'),
    ('drop-both-d50', 'drop', {'d': 50.0}, {'d': None}, 'match'),
]


def gravity(tilt):
  """gravity vector of a ground tilted by tilt about y: the slope descends along +x"""
  return (GRAVITY * math.sin(tilt), 0.0, -GRAVITY * math.cos(tilt))


def params(case, side):
  """the settings of a case on one side: MATERIAL, the scene's, then the side's"""
  _, scene, acs_over, drake_over, _ = case
  # kgeom: Drake's per-geometry stiffness in units of k; d None: Drake's default
  p = dict(MATERIAL, newton_tolerance=1e-12, kgeom=2.0)
  p.update((key, SCENES[scene][key]) for key in ('mu', 'k', 'steps') if key in SCENES[scene])
  p.update(acs_over if side == 'acs' else drake_over)
  return p


def initial(scene):
  """initial position and velocity of the centre; a resting sphere at its discrete equilibrium"""
  s = SCENES[scene]
  if s.get('rest'):
    z0 = RADIUS - MASS * GRAVITY * math.cos(s['tilt']) / s.get('k', MATERIAL['k'])
  else:
    z0 = s['z0']
  return (0.0, 0.0, z0), s['v0']


def case_names(text):
  """the cases of a comma-separated list, checked"""
  names = text.split(',')
  unknown = set(names) - {c[0] for c in CASES}
  if unknown:
    sys.exit('unknown cases: ' + ', '.join(sorted(unknown)))
  return names


#------------------------------------------ acs side -----------------------------------------------

def mjcf(scene, p):
  """MJCF of a scene: the ground plane and the sphere, free or on three slide joints"""
  s = SCENES[scene]
  g = gravity(s['tilt'])
  inertia = 0.4 * MASS * RADIUS ** 2
  joints = ('<freejoint/>' if s['joint'] == 'free' else
            '<joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 1 0"/>'
            '<joint type="slide" axis="0 0 1"/>')
  return f'''<mujoco model="peer_{scene}">
  <option timestep="{p['h']!r}" gravity="{g[0]!r} {g[1]!r} {g[2]!r}" cone="elliptic"/>
  <worldbody>
    <geom name="ground" type="plane" size="0 0 1" friction="{p['mu']!r} 0 0" margin="0"/>
    <body name="ball">
      {joints}
      <inertial pos="0 0 0" mass="{MASS!r}" diaginertia="{inertia!r} {inertia!r} {inertia!r}"/>
      <geom type="sphere" size="{RADIUS!r}" friction="{p['mu']!r} 0 0" margin="0"/>
    </body>
  </worldbody>
</mujoco>
'''


def run_acs(case, approximation, drake_traj=None):
  """acs on a case: the trajectory (per step the centre's position and linear velocity) and,
  given Drake's trajectory, the state after one step from each of its states"""
  import acs  # pylint: disable=g-import-not-at-top
  import mujoco  # pylint: disable=g-import-not-at-top
  p = params(case, 'acs')
  model = mujoco.MjModel.from_xml_string(mjcf(case[1], p))
  data = mujoco.MjData(model)
  ctx = acs.Context(model, solver=approximation, stiffness=p['k'], dissipation=p['d'],
                    stiction_tolerance=p['vs'], newton_tolerance=p['newton_tolerance'],
                    metrics=False)

  def start(x):
    # qpos and qvel begin with the centre's position and linear velocity, free or slide joints;
    # the rest (the free joint's identity quaternion, zero angular velocity) as reset
    mujoco.mj_resetData(model, data)
    data.qpos[0:3] = x[0:3]
    data.qvel[0:3] = x[3:6]
    ctx.reset()

  def step():
    # one step, converged to the tolerance (or without contact), and the state after it
    status = ctx.step(data)
    if status not in (acs.STATUS_CONVERGED, acs.STATUS_EMPTY):
      sys.exit(f'{case[0]}: acs {approximation} step {acs.status_name(status)}')
    return list(data.qpos[0:3]) + list(data.qvel[0:3])

  pos, vel = initial(case[1])
  start(list(pos) + list(vel))
  traj = [list(pos) + list(vel)]
  for _ in range(p['steps']):
    traj.append(step())
  steps = []
  for x in drake_traj[:-1] if drake_traj else []:
    start(x)
    steps.append(step())
  return {'traj': traj, 'steps': steps}


#----------------------------------------- Drake side ----------------------------------------------

def run_drake(case, approximation):
  """Drake on a case: the trajectory, per step the centre's position and linear velocity"""
  # pylint: disable=g-import-not-at-top
  from pydrake.geometry import AddContactMaterial, HalfSpace, ProximityProperties, Sphere
  from pydrake.math import RigidTransform
  from pydrake.multibody.math import SpatialVelocity
  from pydrake.multibody.plant import (AddMultibodyPlantSceneGraph, ContactModel, CoulombFriction,
                                       DiscreteContactApproximation)
  from pydrake.multibody.tree import PrismaticJoint, SpatialInertia
  from pydrake.systems.analysis import Simulator
  from pydrake.systems.framework import DiagramBuilder, EventStatus
  # not the warning that half-spaces do not touch deformable bodies
  logging.getLogger('drake').setLevel(logging.ERROR)
  p = params(case, 'drake')
  s = SCENES[case[1]]

  builder = DiagramBuilder()
  plant, _ = AddMultibodyPlantSceneGraph(builder, time_step=p['h'])
  plant.set_discrete_contact_approximation(
      getattr(DiscreteContactApproximation, 'k' + approximation.capitalize()))
  plant.set_contact_model(ContactModel.kPoint)
  plant.set_stiction_tolerance(p['vs'])
  plant.mutable_gravity_field().set_gravity_vector(gravity(s['tilt']))
  ball = plant.AddRigidBody('ball', SpatialInertia.SolidSphereWithMass(MASS, RADIUS))
  joints = []
  if s['joint'] == 'slide':
    parent = plant.world_body()
    for axis, name in zip(((1, 0, 0), (0, 1, 0), (0, 0, 1)), 'xyz'):
      child = ball if name == 'z' else plant.AddRigidBody('slider_' + name, SpatialInertia.Zero())
      joints.append(plant.AddJoint(PrismaticJoint(name, parent.body_frame(), child.body_frame(),
                                                  axis)))
      parent = child
  for body, shape in ((ball, Sphere(RADIUS)), (plant.world_body(), HalfSpace())):
    props = ProximityProperties()
    AddContactMaterial(dissipation=p['d'], point_stiffness=p['kgeom'] * p['k'],
                       friction=CoulombFriction(p['mu'], p['mu']), properties=props)
    plant.RegisterCollisionGeometry(body, RigidTransform(), shape, body.name(), props)
  plant.Finalize()
  diagram = builder.Build()

  simulator = Simulator(diagram)
  context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
  pos, vel = initial(case[1])
  if joints:
    for joint, x, v in zip(joints, pos, vel):
      joint.set_translation(context, x)
      joint.set_translation_rate(context, v)
  else:
    plant.SetFreeBodyPose(context, ball, RigidTransform(pos))
    plant.SetFreeBodySpatialVelocity(context, ball, SpatialVelocity((0, 0, 0), vel))

  # the monitor sees the initial state, then the state after each discrete update
  traj = []

  def monitor(_):
    traj.append(list(ball.EvalPoseInWorld(context).translation()) +
                list(ball.EvalSpatialVelocityInWorld(context).translational()))
    return EventStatus.Succeeded()

  simulator.set_monitor(monitor)
  simulator.Initialize()
  simulator.AdvanceTo(p['steps'] * p['h'])
  if len(traj) != p['steps'] + 1:
    sys.exit(f'{case[0]}: Drake took {len(traj) - 1} steps, not {p["steps"]}')
  return traj


#------------------------------------------ compare ------------------------------------------------

def largest(a, b, part):
  """largest difference over the steps of a part (slice) of two lists of states"""
  return max(abs(x - y) for u, w in zip(a, b) for x, y in zip(u[part], w[part]))


def tolerance_ratio(steps, traj, h, tilt):
  """largest ratio of the one-step velocity difference to what Drake's stopping test allows,
  1e-6 max(|v|, |v - v0 - h g|) for one body (|D r| <= 1e-6 |D A v| gives |dv| <= 1e-6 |v|)"""
  g = gravity(tilt)
  ratio = 0
  for x, v0, v in zip(steps, traj, traj[1:]):
    norm = math.sqrt(sum(a * a for a in v[3:]))
    jump = math.sqrt(sum((a - b - h * c) ** 2 for a, b, c in zip(v[3:], v0[3:], g)))
    diff = max(abs(a - b) for a, b in zip(x[3:], v[3:]))
    ratio = max(ratio, diff / (DRAKE_TOLERANCE * max(norm, jump) + 1e-14 / math.sqrt(MASS)))
  return ratio


def regularization(traj, p):
  """largest 1e-3 mu w n0 on a Drake trajectory (its friction regularization term), w = 1/m"""
  k = p['kgeom'] * p['k'] / 2
  d = DRAKE_DISSIPATION if p['d'] is None else p['d']
  big = 0
  for x in traj[:-1]:
    n0 = p['h'] * k * max(0, RADIUS - x[2]) * max(0, 1 - d * x[5])
    big = max(big, 1e-3 * p['mu'] * n0 / MASS)
  return big


def summary(scene, traj, p):
  """what a scene is about, from one trajectory"""
  h = p['h']
  z = [x[2] for x in traj]
  if scene == 'rest':
    return 'pen %.4g um, drift %.2g m' % ((RADIUS - z[-1]) * 1e6, max(abs(a - z[0]) for a in z))
  if scene in ('drop', 'skid'):
    text = 'pen max %.4g mm, rebound %.4g m/s' % ((RADIUS - min(z)) * 1e3, max(x[5] for x in traj))
    if scene == 'skid':
      stop = next((i for i, x in enumerate(traj) if abs(x[3]) < 1e-6), len(traj))
      text += ', slip < 1 um/s at %d ms' % round(stop * h * 1e3)
    return text
  if scene == 'stick':
    return 'creep %.4g m/s' % traj[-1][3]
  n = len(traj) - 1
  return 'accel %.6g m/s2' % ((traj[n][3] - traj[n // 2][3]) / ((n - n // 2) * h))


def versions(side):
  """the versions of the packages of one side"""
  from importlib import metadata  # pylint: disable=g-import-not-at-top
  packages = ('drake', 'numpy') if side == 'drake' else ('mujoco', 'acs', 'numpy')
  return {name: metadata.version(name) for name in packages}


def simulate(side, names, out, drake=None):
  """one side: every case of names with both approximations, written to out (JSON) with the
  versions; returns the runs"""
  runs = {}
  for case in CASES:
    if case[0] in names:
      for approximation in APPROXIMATIONS:
        key = f'{case[0]}/{approximation}'
        if side == 'drake':
          runs[key] = run_drake(case, approximation)
        else:
          runs[key] = run_acs(case, approximation, drake[key] if drake else None)
  with open(out, 'w') as f:
    json.dump({'versions': versions(side), 'runs': runs}, f)
  return runs


def main():
  ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  ap.add_argument('--side', choices=('acs', 'drake'), help='simulate one side only')
  ap.add_argument('--drake', help='--side acs: Drake\'s trajectories, to step from its states')
  ap.add_argument('--acs-python', default=os.path.join(ROOT, '.venv', 'bin', 'python'),
                  help='the python of the environment with mujoco and acs')
  ap.add_argument('--cases', default=','.join(c[0] for c in CASES),
                  help='comma-separated case names')
  ap.add_argument('--out', help='write the trajectories (--side) or the table (JSON) here')
  args = ap.parse_args()
  names = case_names(args.cases)

  if args.side:
    if not args.out:
      sys.exit('--side needs --out')
    drake = None
    if args.drake:
      with open(args.drake) as f:
        drake = json.load(f)['runs']
    simulate(args.side, names, args.out, drake)
    return

  start = time.time()
  with tempfile.TemporaryDirectory() as tmp:
    drake_path, acs_path = os.path.join(tmp, 'drake.json'), os.path.join(tmp, 'acs.json')
    drake = simulate('drake', names, drake_path)
    cmd = [args.acs_python, os.path.abspath(__file__), '--side', 'acs', '--drake', drake_path,
           '--out', acs_path, '--cases', ','.join(names)]
    if subprocess.run(cmd, check=False).returncode != 0:
      sys.exit('the acs side failed: ' + ' '.join(cmd))
    with open(acs_path) as f:
      acs_out = json.load(f)
  acs_runs, acs_versions = acs_out['runs'], acs_out['versions']

  rows = []
  for case in CASES:
    if case[0] not in names:
      continue
    for approximation in APPROXIMATIONS:
      key = f'{case[0]}/{approximation}'
      a, b = acs_runs[key], drake[key]
      pa, pd = params(case, 'acs'), params(case, 'drake')
      rows.append(dict(
          case=case[0], scene=case[1], approximation=approximation, shows=case[4],
          dp=largest(a['traj'], b, slice(0, 3)), dv=largest(a['traj'], b, slice(3, 6)),
          step_dv=largest(a['steps'], b[1:], slice(3, 6)),
          step_tol=tolerance_ratio(a['steps'], b, pd['h'], SCENES[case[1]]['tilt']),
          reg=regularization(b, pd), acs=summary(case[1], a['traj'], pa),
          drake=summary(case[1], b, pd)))
  seconds = time.time() - start

  info = {'drake side': versions('drake'), 'acs side': acs_versions}
  print('Drake %s against acs %s (MuJoCo %s): largest differences over the trajectories, '
        'position m, velocity m/s' % (info['drake side']['drake'], acs_versions['acs'],
                                       acs_versions['mujoco']))
  print('%-19s %-8s %9s %9s %9s %8s %8s  %-19s %s' % (
      'case', 'approx', 'max|dp|', 'max|dv|', 'step|dv|', 'step/tol', 'reg', 'shows',
      'acs | Drake'))
  for r in rows:
    print('%-19s %-8s %9.2g %9.2g %9.2g %8.2g %8.2g  %-19s %s | %s' % (
        r['case'], r['approximation'], r['dp'], r['dv'], r['step_dv'], r['step_tol'], r['reg'],
        r['shows'], r['acs'], r['drake']))
  matched = [r for r in rows if r['shows'] == 'match']
  if matched:
    print('rows marked match: largest max|dv| %.2g m/s, largest step/tol %.2g (at most 1: each '
          'step within Drake\'s stopping test)' % (max(r['dv'] for r in matched),
                                                   max(r['step_tol'] for r in matched)))
  print('%.1f s' % seconds)
  if args.out:
    with open(args.out, 'w') as f:
      json.dump({'versions': info, 'material': MATERIAL, 'mass': MASS, 'radius': RADIUS,
                 'scenes': SCENES, 'seconds': seconds, 'rows': rows}, f, indent=1)


if __name__ == '__main__':
  main()
