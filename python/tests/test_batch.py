# Copyright 2026 The acs authors.
"""acs.rollout and acs.batch: many simulations on many threads, identical to a sequential loop."""

import copy

import mujoco
import mujoco.rollout
import numpy as np
import pytest

import acs
import acs.batch
import acs.rollout

SOLVERS = [name for name, _ in acs.solvers()]
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
NROLL, NSTEP = 6, 40


def initial_states(model, nroll=NROLL, seed=0):
  """Perturbed standing humanoids, about to fall onto the floor: contacts change every step."""
  rng = np.random.default_rng(seed)
  data = mujoco.MjData(model)
  states = np.empty((nroll, mujoco.mj_stateSize(model, FULL)))
  for i in range(nroll):
    mujoco.mj_resetData(model, data)
    data.qpos[7:] += 0.1 * rng.standard_normal(model.nq - 7)
    data.qvel[:] = 0.3 * rng.standard_normal(model.nv)
    mujoco.mj_getState(model, data, states[i], FULL)
  return states


def sequential(model, state0, control, solver):
  """The reference: each rollout stepped alone with Context.step, as mujoco.rollout does."""
  nroll, nstep = control.shape[:2]
  data = mujoco.MjData(model)
  ctx = acs.Context(model, solver=solver)
  out = np.empty((nroll, nstep, state0.shape[1]))
  for r in range(nroll):
    mujoco.mj_resetData(model, data)
    mujoco.mj_setState(model, data, state0[r], FULL)
    data.qacc_warmstart[:] = 0
    ctx.reset()
    for t in range(nstep):
      data.ctrl[:] = control[r, t]
      ctx.step(data)
      mujoco.mj_getState(model, data, out[r, t], FULL)
  return out


@pytest.mark.parametrize('solver', SOLVERS)
def test_rollout_threads_identical_to_sequential(humanoid, solver):
  state0 = initial_states(humanoid)
  control = 0.4 * np.random.default_rng(1).standard_normal((NROLL, NSTEP, humanoid.nu))
  expected = sequential(humanoid, state0, control, solver)
  for nthread in (1, 2, 4):
    datas = [mujoco.MjData(humanoid) for _ in range(nthread)]
    state, sensordata = acs.rollout.rollout(humanoid, datas if nthread > 1 else datas[0], state0,
                                            control, solver=solver, chunk_size=1)
    assert state.shape == (NROLL, NSTEP, state0.shape[1])
    assert sensordata.shape == (NROLL, NSTEP, humanoid.nsensordata)
    # bit-identical: a rollout's result may not depend on the thread or the other rollouts
    np.testing.assert_array_equal(state, expected, err_msg=f'{solver}, {nthread} threads')


def test_native_rollout_equals_mujoco_rollout(humanoid):
  state0 = initial_states(humanoid)
  control = 0.4 * np.random.default_rng(2).standard_normal((NROLL, NSTEP, humanoid.nu))
  datas = [mujoco.MjData(humanoid) for _ in range(2)]
  mj_state, mj_sensor = mujoco.rollout.rollout(humanoid, datas, state0, control)
  state, sensor = acs.rollout.rollout(humanoid, datas, state0, control, solver='native')
  np.testing.assert_array_equal(state, mj_state)
  np.testing.assert_array_equal(sensor, mj_sensor)


def test_rollout_arguments(humanoid):
  state0 = initial_states(humanoid, 3)
  data = mujoco.MjData(humanoid)
  # a list of models, preallocated outputs, a warm start, options and the persistent pool
  out = np.zeros((3, 5, state0.shape[1]))
  state, _ = acs.rollout.rollout([humanoid] * 3, [data, mujoco.MjData(humanoid)], state0,
                                 nstep=5, state=out, initial_warmstart=np.zeros(humanoid.nv),
                                 persistent_pool=True, solver='admm', tolerance=1e-7)
  assert state is out and np.isfinite(out).all() and (out != 0).any()
  with pytest.raises(ValueError, match='trailing dimension of initial_state'):
    acs.rollout.rollout(humanoid, data, state0[:, :-1], nstep=2)
  with pytest.raises(ValueError, match='acs_tolerance'):
    acs.rollout.rollout(humanoid, data, state0, nstep=2, tolerance=-1)
  with pytest.raises(TypeError, match='unexpected keyword argument'):
    acs.rollout.rollout(humanoid, data, state0, nstep=2, tolerence=1)
  refused = copy.copy(humanoid)
  refused.opt.timestep = 0
  with pytest.raises(ValueError, match='opt.timestep must be a positive number'):
    acs.rollout.rollout(refused, data, state0, nstep=2, solver='pgs')   # no context for it
  # a step refused in one rollout stops that rollout and raises, naming it, after the others
  out = np.zeros((3, 2, state0.shape[1]))
  with pytest.raises(acs.Error, match='rollout 1, step 0: opt.timestep'):
    acs.rollout.rollout([humanoid, refused, humanoid], data, state0, nstep=2, state=out)
  assert (out[0] != 0).all() and (out[2] != 0).any()
  np.testing.assert_array_equal(out[1, 0], state0[1])   # its records repeat its initial state


needs_batch = pytest.mark.skipif(not acs._acs.HAS_MJBATCH,  # pylint: disable=protected-access
                                 reason='MuJoCo < 3.17 has no batch API')


@needs_batch
@pytest.mark.parametrize('solver', SOLVERS)
def test_batch_step_identical_to_sequential(humanoid, solver):
  import mujoco.batch  # pylint: disable=g-import-not-at-top
  nsim, nstep, ncall = 5, 4, 6
  state0 = initial_states(humanoid, nsim)
  control = 0.4 * np.random.default_rng(3).standard_normal((ncall, nsim, nstep, humanoid.nu))

  # reference: one MjData and one Context per simulation, stepped one after another
  expected_xpos = np.empty((nsim, humanoid.nbody, 3))
  expected = np.empty((nsim, state0.shape[1]))
  for i in range(nsim):
    data = mujoco.MjData(humanoid)
    mujoco.mj_setState(humanoid, data, state0[i], FULL)
    ctx = acs.Context(humanoid, solver=solver)
    for k in range(ncall):
      for t in range(nstep):
        data.ctrl[:] = control[k, i, t]
        ctx.step(data)
    mujoco.mj_getState(humanoid, data, expected[i], FULL)
    expected_xpos[i] = data.xpos

  for nthread in (1, 2, 4):
    batch = mujoco.batch.Batch(humanoid, nsim, nthread=nthread)
    xpos = batch.bind('xpos')
    for i in range(nsim):
      data = mujoco.MjData(humanoid)
      mujoco.mj_setState(humanoid, data, state0[i], FULL)
      row = np.empty(batch.nstate)
      mujoco.mj_getState(humanoid, data, row, mujoco.mjtState.mjSTATE_INTEGRATION.value)
      batch.state[i] = row
    for k in range(ncall):   # the warm start carries over between calls, per simulation
      status = acs.batch.step(batch, nstep, control=control[k], solver=solver)
      assert (status != acs.STATUS_ERROR).all()
    for i in range(nsim):
      got = batch.get_data(i)
      np.testing.assert_array_equal(got.qpos, _qpos(expected[i], humanoid),
                                    err_msg=f'{solver}, {nthread} threads, simulation {i}')
    np.testing.assert_array_equal(xpos, expected_xpos, err_msg=f'{solver}, {nthread} threads')


def _qpos(full_state, model):
  data = mujoco.MjData(model)
  mujoco.mj_setState(model, data, full_state, FULL)
  return data.qpos.copy()


@needs_batch
def test_batch_ids_and_errors(humanoid):
  import mujoco.batch  # pylint: disable=g-import-not-at-top
  batch = mujoco.batch.Batch(humanoid, 4, nthread=2)
  qpos = batch.bind('qpos')
  before = qpos.copy()
  acs.batch.step(batch, 20, ids=[1, 3])
  np.testing.assert_array_equal(qpos[[0, 2]], before[[0, 2]])   # untouched
  assert (qpos[[1, 3]] != before[[1, 3]]).any()
  np.testing.assert_array_equal(qpos[1], qpos[3])                # same start, same result
  with pytest.raises(ValueError, match='sorted and unique'):
    acs.batch.step(batch, 1, ids=[3, 1])
  with pytest.raises(ValueError, match='acs_maxiter'):
    acs.batch.step(batch, 1, maxiter=-1)
