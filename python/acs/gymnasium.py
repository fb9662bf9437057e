# Copyright 2026 The acs authors.
"""Gymnasium's MuJoCo environments stepping with acs instead of mj_step.

    env = acs.gymnasium.wrap(gymnasium.make("Ant-v5"), solver="admm")
    envs = gymnasium.make_vec("Humanoid-v5", num_envs=8,
                              wrappers=[functools.partial(acs.gymnasium.wrap, solver="pgs")])

Written against gymnasium 1.4.0 (pinned in acs's set-up), through the public structure of
``gymnasium.envs.mujoco.MujocoEnv``: its ``model`` and ``data``, ``_step_mujoco_simulation(ctrl,
n_frames)`` (set the controls, ``mj_step`` n_frames times, then ``mj_rnePostConstraint`` for the
contact forces of the observations) and ``set_state(qpos, qvel)`` (then ``mj_forward``). The
wrapper replaces these two on the wrapped environment with the same steps done by an
``acs.Context``: every frame of ``env.step`` is an acs step, and a reset (or any ``set_state``)
forgets the warm start and runs ``Context.forward``. Everything else (observations, rewards,
termination, rendering) is the environment's own.
"""

import gymnasium
from gymnasium.envs.mujoco.mujoco_env import MujocoEnv
import mujoco

import acs


class AcsWrapper(gymnasium.Wrapper):
  """A MuJoCo environment stepping with acs; ``context`` is its acs.Context."""

  def __init__(self, env: gymnasium.Env, solver=None, **options):
    super().__init__(env)
    base = env.unwrapped
    if not isinstance(base, MujocoEnv):
      raise TypeError(f'acs.gymnasium.wrap needs a Gymnasium MuJoCo environment (MujocoEnv), '
                      f'got {type(base).__name__}')
    if getattr(base, '_acs_context', None) is not None:
      raise ValueError('this environment already steps with acs')
    self.context = acs.Context(base.model, solver=solver, **options)
    ctx, model, data = self.context, base.model, base.data
    set_state = base.set_state

    def step_simulation(ctrl, n_frames):
      data.ctrl[:] = ctrl
      ctx.step(data, n_frames)
      mujoco.mj_rnePostConstraint(model, data)

    def set_state_acs(qpos, qvel):
      set_state(qpos, qvel)
      ctx.reset()
      ctx.forward(data)

    # instance attributes shadow MujocoEnv's methods of the same names
    base._step_mujoco_simulation = step_simulation  # pylint: disable=protected-access
    base.set_state = set_state_acs
    base._acs_context = ctx  # pylint: disable=protected-access

  def reset(self, **kwargs):
    self.context.reset()
    return super().reset(**kwargs)


def wrap(env: gymnasium.Env, solver=None, **options) -> AcsWrapper:
  """Return env stepping with acs: ``wrap(env, solver='admm', tolerance=1e-8)``.

  The keywords are acs options, as for acs.Context (solver None: the model's configuration, or
  pgs). Works as a ``gymnasium.make_vec`` wrapper through functools.partial.
  """
  return AcsWrapper(env, solver=solver, **options)
