# Copyright 2026 The acs authors.
"""acs.Context on the official bindings: exactness, physics, settings, statistics, errors."""

import os
import pathlib
import shutil
import subprocess
import sys

import mujoco
import numpy as np
import pytest

import acs
import acs.rollout

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value


def full_state(m, d):
  state = np.empty(mujoco.mj_stateSize(m, FULL))
  mujoco.mj_getState(m, d, state, FULL)
  return state


@pytest.mark.parametrize('integrator', ['euler', 'rk4'])
def test_native_equals_mj_step(humanoid, integrator):
  # native runs MuJoCo's own constraint solver inside acs's pipeline: the same arithmetic as
  # mj_step, so the states must agree bit for bit (no tolerance) over the humanoid's fall and
  # its lying contacts
  humanoid.opt.integrator = getattr(mujoco.mjtIntegrator, 'mjINT_' + integrator.upper())
  d_mj, d_acs = mujoco.MjData(humanoid), mujoco.MjData(humanoid)
  ctx = acs.Context(humanoid, solver='native')
  ncon = 0
  for _ in range(1000):
    mujoco.mj_step(humanoid, d_mj)
    assert ctx.step(d_acs) in (acs.STATUS_NATIVE, acs.STATUS_EMPTY)  # EMPTY: no rows yet
    ncon = max(ncon, d_acs.ncon)
  assert ncon > 0  # the humanoid is in contact
  np.testing.assert_array_equal(full_state(humanoid, d_acs), full_state(humanoid, d_mj))
  np.testing.assert_array_equal(d_acs.qacc, d_mj.qacc)
  np.testing.assert_array_equal(d_acs.sensordata, d_mj.sensordata)


def test_nstep_equals_loop(humanoid):
  d1, d2 = mujoco.MjData(humanoid), mujoco.MjData(humanoid)
  c1, c2 = acs.Context(humanoid, solver='admm'), acs.Context(humanoid, solver='admm')
  c1.step(d1, nstep=50)
  for _ in range(50):
    c2.step(d2)
  np.testing.assert_array_equal(full_state(humanoid, d1), full_state(humanoid, d2))


def incline_displacement(model, solver):
  data = mujoco.MjData(model)
  ctx = acs.Context(model, solver=solver)
  ctx.step(data, 500)          # 1 s: the contacts settle
  start = data.qpos[:3].copy()
  ctx.step(data, 2500)         # 1 s to 6 s
  return np.linalg.norm(data.qpos[:3] - start)


def test_pgs_holds_box_on_incline(incline):
  # friction 0.5 > tan 20 deg: Coulomb friction holds the box. The C test's bound (1e-6 m over
  # 5 s, at the solver tolerance 1e-6) holds from Python too; MuJoCo's soft contact creeps by
  # millimetres on the same slope, so the bound separates the two
  assert incline_displacement(incline, 'pgs') <= 1e-6
  assert incline_displacement(incline, 'native') > 1e-3


def test_stats(incline):
  data = mujoco.MjData(incline)
  # no warm start: each step solves from zero forces, so it iterates (warm-started, a step of the
  # box at rest can start at the solution and take no iteration)
  ctx = acs.Context(incline, solver='pgs', tolerance=1e-8, warmstart=False)
  ctx.step(data, 100)
  stats = ctx.stats
  assert stats.status == acs.STATUS_CONVERGED and stats.status_name == 'converged'
  assert stats.solver == 'pgs' and stats.ncontact == 4 and stats.nefc == 12
  assert 0 < stats.iterations <= 100
  assert stats.residual <= 1e-8
  # the history records every iteration's residual: the last one met the tolerance (the
  # reported residual is the metric recomputed from the final forces)
  assert stats.history.shape == (stats.iterations,)
  assert stats.history[-1] <= 1e-8
  assert stats.penetration < 1e-3 and stats.time_solve > 0
  # energy: the box at rest, kinetic ~ 0, potential m g z
  assert stats.energy == pytest.approx(1 * 9.81 * data.qpos[2], rel=1e-3)


def test_settings_read_write(humanoid):
  ctx = acs.Context(humanoid, solver='admm', tolerance=1e-8, warmstart=False, maxiter=40)
  s = ctx.settings
  assert (s.solver, s.tolerance, s.warmstart, s.maxiter) == ('admm', 1e-8, False, 40)
  s.tolerance = 1.2345678901234567e-7      # exact round trip through the C text form
  assert s.tolerance == 1.2345678901234567e-7
  s.update(solver='lagged', stiffness=2e5)
  assert (ctx.solver, s.stiffness) == ('lagged', 2e5)
  assert set(acs.options()) == set(s.as_dict())
  assert [name for name, _ in acs.solvers()] == [
      'native', 'pgs', 'admm', 'raisim', 'lcp-pgs', 'ccp-pgs', 'ccp-admm', 'lagged', 'similar']


def test_metrics_levels(humanoid):
  # True is the full level (the default), False off; the cheap level has the residual and the
  # penetration, not the criteria that need another product with J
  assert acs.Context(humanoid).settings.metrics == 2
  assert acs.Context(humanoid, metrics=True).settings.metrics == 2
  assert acs.Context(humanoid, metrics=False).settings.metrics == 0
  data = mujoco.MjData(humanoid)
  ctx = acs.Context(humanoid, solver='pgs', metrics=1)
  ctx.step(data, 50)
  st = ctx.stats
  assert np.isfinite(st.residual) and st.penetration > 0 and np.isnan(st.signorini)


def test_model_configuration(incline):
  # defaults, then the model's <custom> configuration, then the keywords, as in C
  spec = mujoco.MjSpec.from_file(str(pathlib.Path(__file__).parents[2] /
                                     'test_models/incline_stick.xml'))
  spec.add_text(name='acs_solver', data='admm')
  spec.add_numeric(name='acs_tolerance', data=[1e-9])
  model = spec.compile()
  assert acs.Context(model).solver == 'admm'
  assert acs.Context(model).settings.tolerance == 1e-9
  assert acs.Context(model, tolerance=1e-7).settings.tolerance == 1e-7
  assert acs.Context(incline).solver == 'pgs'


def test_bad_options(humanoid):
  with pytest.raises(ValueError, match=r"acs_tolerance: must be a finite number in \[0, inf\)"):
    acs.Context(humanoid, tolerance=-1)
  with pytest.raises(ValueError, match="unknown solver 'nope'; allowed: native, pgs, admm"):
    acs.Context(humanoid, solver='nope')
  with pytest.raises(ValueError, match='acs_maxiter: must be an integer'):
    acs.Context(humanoid, maxiter=2.5)
  with pytest.raises(ValueError, match='acs_warmstart: must be 0 or 1'):
    acs.Context(humanoid, warmstart=3)
  with pytest.raises(TypeError, match="unexpected keyword argument 'tolerence'"):
    acs.Context(humanoid, tolerence=1e-8)
  with pytest.raises(TypeError, match='must be a number, a bool or a str'):
    acs.Context(humanoid, tolerance=[1e-8])
  with pytest.raises(TypeError, match='model must be a mujoco.MjModel'):
    acs.Context('humanoid.xml')
  ctx = acs.Context(humanoid, tolerance=1e-8)
  with pytest.raises(ValueError, match='acs_omega'):
    ctx.settings.omega = 2.5
  assert ctx.settings.omega == 1.0             # a refused value changes nothing
  with pytest.raises(ValueError):
    ctx.settings.update(maxiter=10, omega=0)   # all or none
  assert ctx.settings.maxiter == 0            # unchanged: the default (the solver's budget)
  with pytest.raises(AttributeError, match="no acs option 'tol'"):
    ctx.settings.tol = 1
  with pytest.raises(TypeError, match='data must be a mujoco.MjData'):
    ctx.step(humanoid)
  with pytest.raises(ValueError, match='nstep must be a positive integer'):
    ctx.step(mujoco.MjData(humanoid), 0)
  other = mujoco.MjModel.from_xml_string('<mujoco><worldbody><body><freejoint/>'
                                         '<geom size=".1"/></body></worldbody></mujoco>')
  with pytest.raises(ValueError, match='data was made for another model'):
    ctx.step(mujoco.MjData(other))


def test_refused_step_leaves_data(incline):
  data = mujoco.MjData(incline)
  ctx = acs.Context(incline)
  ctx.step(data, 10)
  before = full_state(incline, data)
  incline.opt.timestep = 0                     # a model acs cannot step
  with pytest.raises(acs.Error, match='opt.timestep must be a positive number'):
    ctx.step(data)
  np.testing.assert_array_equal(full_state(incline, data), before)
  assert 'timestep' in ctx.last_error


def test_one_libmujoco():
  # the extension uses the libmujoco that `import mujoco` loaded, never a second copy
  maps = pathlib.Path('/proc/self/maps').read_text()
  paths = {line.split()[-1] for line in maps.splitlines() if 'libmujoco' in line}
  assert len(paths) == 1, paths
  assert pathlib.Path(next(iter(paths))).parent == pathlib.Path(mujoco.__file__).parent


def test_version_mismatch(tmp_path):
  # fake the MuJoCo version the extension reports it was built for: a copy of the installed
  # package whose _build.py names another version must refuse to import, naming both
  package = pathlib.Path(acs.__file__).parent
  shutil.copytree(package, tmp_path / 'acs')
  other = '3.12.0' if mujoco.__version__ != '3.12.0' else '4.0.0'
  build = tmp_path / 'acs' / '_build.py'
  build.write_text(build.read_text().replace(f'"{acs.MUJOCO_VERSION}"', f'"{other}"'))
  env = dict(os.environ, PYTHONPATH=str(tmp_path))
  run = subprocess.run([sys.executable, '-c', 'import acs'], env=env, capture_output=True,
                       text=True, check=False)
  assert run.returncode == 1, run.stderr        # an exception, not a crash (a signal)
  assert 'ImportError' in run.stderr
  assert f'built for MuJoCo {other}' in run.stderr
  assert f'MuJoCo {mujoco.__version__} is installed' in run.stderr


def small_arena(memory):
  return mujoco.MjModel.from_xml_string(
      f'<mujoco><size memory="{memory}"/><worldbody><geom type="plane" size="1 1 .1"/>'
      '<body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody>'
      '</mujoco>')


def test_mujoco_error_raises_fatal_error(capfd):
  # mju_error inside an acs step (a stack overflow in collision) raises mujoco.FatalError, as
  # mujoco.mj_step does, instead of ending the process; the context stays usable
  model = small_arena('2K')
  data = mujoco.MjData(model)
  ctx = acs.Context(model, solver='pgs')
  with pytest.raises(mujoco.FatalError, match='mj_stackAlloc: out of memory'):
    mujoco.mj_step(model, mujoco.MjData(model), 10)
  for _ in range(2):
    with pytest.raises(mujoco.FatalError, match='mj_stackAlloc: out of memory'):
      ctx.step(data, 10)
  mujoco.mj_resetData(model, data)
  state0 = full_state(model, data)[None]
  with pytest.raises(mujoco.FatalError, match='inside an acs rollout'):
    acs.rollout.rollout(model, data, state0, nstep=5)
  # warnings still reach MuJoCo's handler (printed), as without acs
  capfd.readouterr()
  roomy = small_arena('64K')
  data = mujoco.MjData(roomy)
  data.qvel[0] = np.nan
  assert acs.Context(roomy, solver='pgs').step(data) == acs.STATUS_DIVERGED
  out, err = capfd.readouterr()
  assert 'Nan, Inf or huge value in QVEL' in out + err
