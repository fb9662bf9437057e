# Copyright 2026 The acs authors.
"""acs.gymnasium: Gymnasium's MuJoCo environments stepping with acs."""

import functools

import gymnasium
import numpy as np
import pytest

import acs
import acs.gymnasium

SOLVERS = [name for name, _ in acs.solvers()]


def run(env, nstep, seed=0):
  """nstep random actions (reset at the end of an episode); the observations."""
  obs, _ = env.reset(seed=seed)
  env.action_space.seed(seed)
  observations = [obs]
  for _ in range(nstep):
    obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
    observations.append(obs)
    if terminated or truncated:
      obs, _ = env.reset()
  return np.array(observations)


@pytest.mark.parametrize('env_id', ['Ant-v5', 'Humanoid-v5'])
@pytest.mark.parametrize('solver', SOLVERS)
def test_every_solver_runs(env_id, solver):
  env = acs.gymnasium.wrap(gymnasium.make(env_id), solver=solver)
  obs = run(env, 1000)
  assert np.isfinite(obs).all()
  # the steps were acs's: the context saw them, with this solver and contacts
  stats = env.context.stats
  assert stats.solver == solver and stats.status != acs.STATUS_ERROR
  env.close()


@pytest.mark.parametrize('env_id', ['Hopper-v5', 'Walker2d-v5', 'HalfCheetah-v5'])
def test_other_environments(env_id):
  env = acs.gymnasium.wrap(gymnasium.make(env_id), solver='admm')
  assert np.isfinite(run(env, 300)).all()
  assert env.context.stats.solver == 'admm'
  env.close()


@pytest.mark.parametrize('env_id', ['Ant-v5', 'HalfCheetah-v5'])   # RK4 and Euler
def test_native_wrapper_is_the_environment(env_id):
  # with the native solver the wrapped environment reproduces the plain one bit for bit: the
  # wrapper changes the stepping and nothing else (observations, rewards, resets)
  plain = run(gymnasium.make(env_id), 300)
  wrapped = run(acs.gymnasium.wrap(gymnasium.make(env_id), solver='native'), 300)
  np.testing.assert_array_equal(wrapped, plain)


def test_make_vec():
  wrapper = functools.partial(acs.gymnasium.wrap, solver='pgs')
  envs = gymnasium.make_vec('Ant-v5', num_envs=3, vectorization_mode='sync', wrappers=[wrapper])
  obs, _ = envs.reset(seed=1)
  for _ in range(50):
    obs, *_ = envs.step(envs.action_space.sample())
  assert obs.shape[0] == 3 and np.isfinite(obs).all()
  for env in envs.envs:
    assert env.context.stats.solver == 'pgs'
  envs.close()


def test_wrap_refuses_other_environments():
  with pytest.raises(TypeError, match='needs a Gymnasium MuJoCo environment'):
    acs.gymnasium.wrap(gymnasium.make('CartPole-v1'))
  with pytest.raises(ValueError, match='acs_tolerance'):
    acs.gymnasium.wrap(gymnasium.make('Ant-v5'), tolerance=-1)
