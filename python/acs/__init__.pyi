# Copyright 2026 The acs authors.
"""Type stubs of the acs package (see __init__.py for the documentation)."""

from typing import Any, Dict, List, Optional, Tuple, Union

import mujoco
import numpy as np

from acs import batch as batch
from acs import rollout as rollout

__version__: str
MUJOCO_VERSION: str

STATUS_CONVERGED: int
STATUS_MAXITER: int
STATUS_STALLED: int
STATUS_EMPTY: int
STATUS_NATIVE: int
STATUS_DIVERGED: int
STATUS_ERROR: int

class Error(RuntimeError): ...

def solvers() -> List[Tuple[str, str]]: ...
def options() -> Dict[str, Tuple[str, str]]: ...
def status_name(status: int) -> str: ...

OptionValue = Union[str, int, float, bool, None]

class Settings:
  solver: str
  maxiter: int
  tolerance: float
  rel_tolerance: float
  omega: float
  baumgarte: float
  slop: float
  max_correction: float
  restitution: float
  restitution_vel: float
  compliance: float
  warmstart: bool
  warmstart_radius: float
  metrics: int
  admm_rho: float
  admm_prox: float
  admm_power: float
  admm_factor: float
  admm_ratio: float
  admm_anderson: int
  admm_subspace: int
  admm_check: int
  admm_polish: int
  stiffness: float
  dissipation: float
  stiction_tolerance: float
  near_rigid: bool
  newton_tolerance: float
  raisim_alpha: float
  raisim_alpha_min: float
  raisim_gamma: float
  raisim_bisection_tol: float
  raisim_desaxce: bool
  def update(self, **options: OptionValue) -> None: ...
  def as_dict(self) -> Dict[str, Any]: ...

class Stats:
  status: int
  status_name: str
  solver: str
  iterations: int
  nefc: int
  ncontact: int
  nwarm: int
  nfactor: int
  nevaluation: int
  unstabilized: int
  error: str
  rho: float
  residual: float
  signorini: float
  coulomb: float
  mdp: float
  penetration: float
  slip: float
  energy: float
  time_constraint: float
  time_problem: float
  time_solve: float
  time_metrics: float
  history: np.ndarray

class Context:
  def __init__(self, model: mujoco.MjModel, *, solver: Optional[str] = ...,
               **options: OptionValue) -> None: ...
  def step(self, data: mujoco.MjData, nstep: int = 1) -> int: ...
  def forward(self, data: mujoco.MjData) -> int: ...
  def evaluate(self, data: mujoco.MjData) -> int: ...
  def reset(self) -> None: ...
  @property
  def model(self) -> mujoco.MjModel: ...
  @property
  def settings(self) -> Settings: ...
  @property
  def stats(self) -> Stats: ...
  @property
  def solver(self) -> str: ...
  @property
  def last_error(self) -> str: ...
