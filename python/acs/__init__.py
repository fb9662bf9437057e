# Copyright 2026 The acs authors.
"""acs: alternative contact solvers for MuJoCo, on the official ``mujoco`` bindings.

Swap MuJoCo's soft contact solver for the contact models of the robotics literature while
everything else stays MuJoCo's own::

    import mujoco, acs
    model = mujoco.MjModel.from_xml_path("scene.xml")
    data = mujoco.MjData(model)
    ctx = acs.Context(model, solver="admm", tolerance=1e-8)
    ctx.step(data)                    # instead of mujoco.mj_step(model, data)

Import acs before loading a model that configures acs through the ``acs.solver`` engine
plugin: importing registers the plugin with MuJoCo.

Modules: ``acs.rollout`` (``mujoco.rollout`` with acs), ``acs.batch`` (``mujoco.batch`` with
acs), ``acs.gymnasium`` (Gymnasium's MuJoCo environments with acs).
"""

import mujoco

from acs import _build

# the extension is compiled against one MuJoCo's headers: its data layouts differ between versions
if mujoco.__version__ != _build.MUJOCO_VERSION:
  raise ImportError(
      f'acs {_build.ACS_VERSION} was built for MuJoCo {_build.MUJOCO_VERSION}, but MuJoCo '
      f'{mujoco.__version__} is installed: rebuild acs against it (pip install . from the acs '
      f'checkout) or install mujoco=={_build.MUJOCO_VERSION}')

# pylint: disable=g-import-not-at-top,wrong-import-position
import numpy as np

from acs import _acs

__version__ = _acs.__version__
MUJOCO_VERSION = _build.MUJOCO_VERSION
Error = _acs.Error

# status values (acstStatus)
STATUS_CONVERGED = 0
STATUS_MAXITER = 1
STATUS_STALLED = 2
STATUS_EMPTY = 3
STATUS_NATIVE = 4
STATUS_DIVERGED = 5
STATUS_ERROR = 6

_OPTIONS = {name: (kind, default) for name, kind, default in _acs.options()}


def solvers():
  """The solvers: a list of (name, description)."""
  return _acs.solvers()


def options():
  """The options: a dict from name to (type, default as text); types: solver, int, float, bool."""
  return dict(_OPTIONS)


def status_name(status):
  """Name of a status value ('converged', 'maxiter', ...)."""
  return _acs.status_name(status)


def _parse(kind, text):
  if kind == 'solver':
    return text
  if kind == 'bool':
    return text == '1'
  if kind == 'int':
    return int(text)
  return float(text)


class Settings:
  """The settings of a Context, as attributes: ``ctx.settings.tolerance = 1e-8``.

  Reading gives the value in use (``maxiter`` 0, the default: the solver's own budget, 300
  iterations for pgs, admm and ccp-admm and 100 for the others); writing checks the value
  (ValueError with the C library's message naming the field and what is allowed) and applies it
  from the next step. ``update`` sets several at once, all or none.
  """

  __slots__ = ('_ctx',)

  def __init__(self, ctx):
    object.__setattr__(self, '_ctx', ctx)

  def __getattr__(self, name):
    if name not in _OPTIONS:
      raise AttributeError(f'no acs option {name!r}; the options are: {", ".join(_OPTIONS)}')
    return _parse(_OPTIONS[name][0], self._ctx._get_option(name))  # pylint: disable=protected-access

  def __setattr__(self, name, value):
    if name not in _OPTIONS:
      raise AttributeError(f'no acs option {name!r}; the options are: {", ".join(_OPTIONS)}')
    self._ctx._set_options({name: value})  # pylint: disable=protected-access

  def update(self, **options):
    """Set several options at once; a bad one leaves all as they were."""
    self._ctx._set_options(options)  # pylint: disable=protected-access

  def as_dict(self):
    """Every option and its value."""
    return {name: getattr(self, name) for name in _OPTIONS}

  def __dir__(self):
    return list(_OPTIONS) + ['update', 'as_dict']

  def __repr__(self):
    return 'Settings(' + ', '.join(f'{k}={v!r}' for k, v in self.as_dict().items()) + ')'


class Stats:
  """Statistics of the last step, forward or evaluate of a Context.

  Attributes: status (acs.STATUS_*; status_name gives its name), solver, iterations, nefc,
  ncontact, nwarm, nfactor, nevaluation, unstabilized, rho; the physical criteria residual,
  signorini, coulomb, mdp, penetration (m), slip (m/s), energy (J), by the option metrics: 2 (or
  True, the default) all of them, 1 (cheap) the residual, penetration and ncontact, 0 (False)
  none but the solver's own residual (the others NaN); timings in microseconds (time_constraint, time_problem, time_solve,
  time_metrics); history, the per-iteration residual as a NumPy array; error, why the last step
  was refused or diverged ('' otherwise).
  """

  def __init__(self, values):
    history = values.pop('history')
    self.__dict__.update(values)
    self.history = np.frombuffer(history, dtype=np.float64).copy()

  @property
  def status_name(self):
    return _acs.status_name(self.status)

  def __repr__(self):
    keys = ('status_name', 'solver', 'iterations', 'residual', 'ncontact', 'time_solve')
    return 'Stats(' + ', '.join(f'{k}={getattr(self, k)!r}' for k in keys) + ', ...)'


class Context(_acs.Context):
  """acs on a mujoco.MjModel: ``Context(model, solver='admm', tolerance=1e-8, ...)``.

  The keywords are the acs options without the ``acs_`` prefix (``acs.options()`` lists them).
  Settings are the defaults, then the model's ``<custom>`` / ``acs.solver`` plugin configuration,
  then the keywords, as in C. A bad value raises ValueError with the C library's message (the
  field and what is allowed); an unknown keyword raises TypeError.

  One Context per MjData (it keeps that simulation's warm start): ``step(data, nstep=1)`` replaces
  ``mujoco.mj_step(model, data, nstep)``, ``forward(data)`` replaces ``mujoco.mj_forward``,
  ``evaluate(data)`` computes the metrics of the forces in data, ``reset()`` forgets the warm
  start (call it after ``mujoco.mj_resetData`` or setting a new state). They return the status of
  the (last) call; a refused step raises ``acs.Error`` with the reason and leaves data as it was.
  Data must come from the context's model (or one of the same sizes). The GIL is released while
  acs steps.
  """

  __slots__ = ()

  @property
  def settings(self):
    """The settings, readable and settable as attributes (acs.Settings)."""
    return Settings(self)

  @property
  def stats(self):
    """Statistics of the last step (acs.Stats)."""
    return Stats(self._stats())

  @property
  def solver(self):
    """Name of the solver in use."""
    return self._get_option('solver')

  def __repr__(self):
    return f'acs.Context(solver={self.solver!r}, nv={self.model.nv})'


# pylint: disable=g-import-not-at-top,wrong-import-position
from acs import batch  # noqa: E402
from acs import rollout  # noqa: E402
