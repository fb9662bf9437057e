# Copyright 2026 The acs authors.
"""mujoco.rollout with acs: the same arguments and outputs, stepping with an acs solver.

Swapping ``mujoco.rollout.rollout`` for ``acs.rollout.rollout`` is the only change::

    state, sensordata = acs.rollout.rollout(model, datas, initial_state, control,
                                            nstep=100, solver="admm")

Each rollout starts from its initial state with a fresh acs context (no warm start from another
rollout), so the results are the same whatever the number of threads and the chunk size:
identical to stepping each rollout one after another with ``Context.step``. As in
``mujoco.rollout``, one MjData per thread (``len(data)`` threads when more than one), inputs
that ``control_spec`` does not set are zeroed (or reset to the model's for mocap and
``eq_active``) at the start of each rollout, and a rollout stops at a MuJoCo warning, its
remaining outputs repeating its last state. A step acs refuses stops its rollout the same way
and raises ``acs.Error`` after all rollouts ran.

Threads: with MuJoCo >= 3.17 they are MuJoCo's own batch thread pool (``mjbatch.h``,
``mjb_apply``); MuJoCo 3.12 has no batch API, and acs runs threads of its own. The GIL is
released while the rollouts run.
"""

from typing import Optional, Sequence, Union

import mujoco
from mujoco import rollout as _mj_rollout
import numpy as np
from numpy import typing as npt

from acs import _acs


class _Core:
  """Stands in for mujoco's C++ rollout object: the argument checks stay mujoco's own."""

  def __init__(self, options, persistent):
    self._options = options
    self._persistent = persistent

  def rollout(self, model, data, nstep, control_spec, initial_state, initial_warmstart,
              control, state, sensordata, chunk_size):
    models = [model] if isinstance(model, mujoco.MjModel) else list(model)
    datas = [data] if isinstance(data, mujoco.MjData) else list(data)
    state0 = np.ascontiguousarray(initial_state, dtype=np.float64)
    nstate = mujoco.mj_stateSize(models[0], mujoco.mjtState.mjSTATE_FULLPHYSICS.value)
    nroll = state0.size // max(nstate, 1)
    if len(models) == 1:
      models = models * nroll
    if len(models) != nroll:
      raise ValueError(f'{nroll} initial states but {len(models)} models')

    def contiguous(x):
      return None if x is None else np.ascontiguousarray(x, dtype=np.float64)

    _acs.rollout(models, datas, int(nstep), int(control_spec), state0,
                 contiguous(initial_warmstart), contiguous(control), state, sensordata,
                 int(chunk_size or 0), bool(self._persistent), self._options)


class Rollout(_mj_rollout.Rollout):
  """mujoco.rollout.Rollout with acs: ``Rollout(nthread=8, solver='admm', **options)``."""

  def __init__(self, *, nthread: Optional[int] = None, persistent: bool = False,
               solver: Optional[str] = None, **options):
    # pylint: disable=super-init-not-called: mujoco's pool is not needed, acs brings its own
    self.nthread = 0 if nthread is None else nthread
    options['solver'] = solver
    self.rollout_ = _Core(options, persistent)


def rollout(
    model: Union[mujoco.MjModel, Sequence[mujoco.MjModel]],
    data: Union[mujoco.MjData, Sequence[mujoco.MjData]],
    initial_state: npt.ArrayLike,
    control: Optional[npt.ArrayLike] = None,
    *,
    control_spec: int = mujoco.mjtState.mjSTATE_CTRL.value,
    skip_checks: bool = False,
    nstep: Optional[int] = None,
    initial_warmstart: Optional[npt.ArrayLike] = None,
    state: Optional[npt.ArrayLike] = None,
    sensordata: Optional[npt.ArrayLike] = None,
    chunk_size: Optional[int] = None,
    persistent_pool: bool = False,
    solver: Optional[str] = None,
    **options,
):
  """Roll out open-loop trajectories with acs; arguments and outputs as mujoco.rollout.rollout.

  Args:
    model: an MjModel, or nbatch of them with the same sizes.
    data: an MjData, or one per thread (len(data) threads).
    initial_state: ([nbatch or 1] x nstate) mjSTATE_FULLPHYSICS states.
    control: ([nbatch or 1] x [nstep or 1] x ncontrol) controls, or None.
    control_spec: mjtState bits of the controls (within mjSTATE_USER).
    skip_checks: skip the shape checks (as in mujoco.rollout).
    nstep: number of steps (inferred if None).
    initial_warmstart: ([nbatch or 1] x nv) qacc_warmstart, or None for zeros.
    state: (nbatch x nstep x nstate) output array, or None.
    sensordata: (nbatch x nstep x nsensordata) output array, or None.
    chunk_size: rollouts a thread takes at a time; None: max(1, nbatch / (10 nthread)).
    persistent_pool: keep the thread pool for the next call (MuJoCo >= 3.17).
    solver: the acs solver; None: the model's configuration, or pgs.
    **options: acs options (as for acs.Context), applied after the first model's configuration.

  Returns:
    (state, sensordata), (nbatch x nstep x nstate) and (nbatch x nstep x nsensordata).

  Raises:
    ValueError: bad shapes, sizes or options. acs.Error: acs refused a step.
  """
  datas = [data] if isinstance(data, mujoco.MjData) else list(data)
  nthread = len(datas) if len(datas) > 1 else 0
  runner = Rollout(nthread=nthread, persistent=persistent_pool, solver=solver, **options)
  return runner.rollout(
      model, datas if len(datas) > 1 else datas[0], initial_state, control,
      control_spec=control_spec, skip_checks=skip_checks, nstep=nstep,
      initial_warmstart=initial_warmstart, state=state, sensordata=sensordata,
      chunk_size=chunk_size)
