# Copyright 2026 The acs authors.
"""mujoco.batch with acs: step a ``mujoco.batch.Batch`` with an acs solver.

    batch = mujoco.batch.Batch(model, nsim=1024, nthread=8)
    qpos = batch.bind('qpos')
    acs.batch.step(batch, nstep=10, solver='admm')     # instead of batch.step(nstep=10)

Each simulation has its own acs context (its warm start), so the results are identical to
stepping each simulation one after another with its own ``Context.step``, whatever the number of
threads. The work runs on MuJoCo's batch thread pool through the C function ``acs_batchStep``
(``mjb_apply``) with the GIL released.

How: ``mujoco.batch.Batch`` does not expose its C ``mjBatch``, so acs keeps a twin ``mjBatch``
of the same model, thread count and persistence (made at the first call, kept on the batch):
a call copies the stepped simulations' state and warning rows, the caller models
(``set_models``) and the expanded model fields (``expand``) into the twin, steps there, and
copies the rows and the bound output fields (``bind``) back. The twin keeps one MjData per
simulation (persistent), whose fields the bound outputs are copied from (``mjb_apply`` does not
copy outputs): its memory grows with the number of simulations. Derived fields that ``set_const``
expands are not copied: call ``expand`` on the fields you change. A batch stepped with other
acs options gets a new twin (and loses its warm starts).

MuJoCo 3.12 has no batch API (no ``mujoco.batch``): use ``acs.rollout`` there.
"""

from typing import Optional

import mujoco
import numpy as np
from numpy import typing as npt

from acs import _acs

_MIRROR = '_acs_mirror'


class _Mirror:
  """The twin mjBatch of a mujoco.batch.Batch, with one acs context per simulation."""

  def __init__(self, batch, key, options):
    self.key = key
    # persistent: each simulation keeps its mjData, whose fields the bound outputs copy
    self.b = _acs.Batch(batch.model, batch.nsim, batch.nthread, True, options)
    self.state = np.frombuffer(self.b.state(), np.float64).reshape(batch.nsim, -1)
    self.warning = np.frombuffer(self.b.warning(), np.int32).reshape(batch.nsim, -1)
    self.outputs = {}
    self.expanded = {}
    self.models = None


def _sync_in(batch, mirror, sel):
  """Copy the Python batch's models, expanded fields and rows into the twin."""
  models = batch._models  # pylint: disable=protected-access
  key = None if models is None else (
      (models,) if isinstance(models, mujoco.MjModel) else tuple(models))
  if key != mirror.models:
    listed = None
    if models is not None:
      listed = [models] * batch.nsim if isinstance(models, mujoco.MjModel) else list(models)
    mirror.b.set_models(listed)
    mirror.models = key
  for name, values in batch._expanded.items():  # pylint: disable=protected-access
    if name not in mirror.expanded:
      raw = mirror.b.expand(name)
      if raw is None:
        raise ValueError(f'acs cannot expand {name!r} in its twin batch')
      mirror.expanded[name] = np.frombuffer(raw, values.dtype).reshape(values.shape)
    mirror.expanded[name][...] = values
  for name, out in batch._bound.items():  # pylint: disable=protected-access
    if name not in mirror.outputs:
      raw = mirror.b.output(name)
      mirror.outputs[name] = np.frombuffer(raw, out.dtype).reshape(out.shape)
  mirror.state[sel] = batch.state[sel]
  mirror.warning[sel] = _warning_rows(batch)[sel]


def _warning_rows(batch):
  return np.asarray(batch.warning).view(np.int32).reshape(batch.nsim, -1)


def _writable(array):
  view = array.view()
  view.flags.writeable = True
  return view


def _sync_out(batch, mirror, sel):
  """Copy the twin's rows and bound outputs back into the Python batch."""
  batch.state[sel] = mirror.state[sel]
  _writable(_warning_rows(batch))[sel] = mirror.warning[sel]
  for name, out in batch._bound.items():  # pylint: disable=protected-access
    _writable(out)[sel] = mirror.outputs[name][sel]


def _ids(ids, nsim):
  """Sorted unique int32 ids, or None for all (as mujoco.batch accepts them)."""
  if ids is None:
    return None
  ids = np.asarray(ids)
  if ids.dtype == bool:
    if ids.shape != (nsim,):
      raise ValueError(f'a boolean mask must have shape ({nsim},)')
    return None if ids.all() else np.flatnonzero(ids).astype(np.int32)
  if ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
    raise ValueError('ids must be a one-dimensional array of integers')
  if ids.size > 1 and not (ids[1:] > ids[:-1]).all():
    raise ValueError('ids must be sorted and unique')
  if ids.size and (ids[0] < 0 or ids[-1] >= nsim):
    raise ValueError(f'ids must be in [0, {nsim})')
  return np.ascontiguousarray(ids, dtype=np.int32)


def step(batch,
         nstep: int = 1,
         *,
         control: Optional[npt.ArrayLike] = None,
         control_spec: int = mujoco.mjtState.mjSTATE_CTRL.value,
         ids: Optional[npt.ArrayLike] = None,
         solver: Optional[str] = None,
         **options) -> np.ndarray:
  """Advance simulations of a mujoco.batch.Batch by nstep acs steps (as batch.step does).

  Args:
    batch: a mujoco.batch.Batch.
    nstep: steps per simulation.
    control: None (the state rows' controls), or (n x nstep x ncontrol) values of control_spec
      set before each step, n the number of simulations of the call (broadcast).
    control_spec: mjtState bits of control, within mjSTATE_USER.
    ids: the simulations (sorted unique integers or a boolean mask), None for all.
    solver: the acs solver; None: the model's configuration, or pgs.
    **options: acs options, as for acs.Context.

  Returns:
    The last step's status (acs.STATUS_*) of each simulation of the call.

  Raises:
    acs.Error: acs refused a step or MuJoCo raised an error in a simulation (it stops there).
    RuntimeError: this MuJoCo has no batch API.
  """
  if not _acs.HAS_MJBATCH:
    raise RuntimeError(f'MuJoCo {mujoco.__version__} has no batch API (MuJoCo 3.17 and later '
                       'have it): use acs.rollout.rollout')
  nstep = int(nstep)
  if nstep < 0:
    raise ValueError(f'nstep must be >= 0, got {nstep}')
  options['solver'] = solver
  key = tuple(sorted((k, repr(v)) for k, v in options.items()))
  mirror = batch.__dict__.get(_MIRROR)
  if mirror is None or mirror.key != key:
    mirror = _Mirror(batch, key, options)
    batch.__dict__[_MIRROR] = mirror
  ids = _ids(ids, batch.nsim)
  sel = slice(None) if ids is None else ids
  n = batch.nsim if ids is None else len(ids)
  if control is not None:
    ncontrol = mujoco.mj_stateSize(batch.model, int(control_spec))
    control = np.ascontiguousarray(np.broadcast_to(control, (n, nstep, ncontrol)),
                                   dtype=np.float64)
  _sync_in(batch, mirror, sel)
  try:
    status = mirror.b.step(ids, nstep, control, int(control_spec), bool(batch._bound))  # pylint: disable=protected-access
  finally:
    _sync_out(batch, mirror, sel)
  return np.frombuffer(status, np.int32)[sel].copy()


def reset(batch, ids: Optional[npt.ArrayLike] = None) -> None:
  """Forget the acs warm start of simulations (after batch.reset or new states)."""
  mirror = batch.__dict__.get(_MIRROR)
  if mirror is not None:
    ids = _ids(ids, batch.nsim)
    mirror.b.reset(None if ids is None else [int(i) for i in ids])
