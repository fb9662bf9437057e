# Copyright 2026 The acs authors.
"""Shared fixtures: the models the tests run on."""

import os
import pathlib

import mujoco
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEST_MODELS = ROOT / 'test_models'


def shared_models() -> pathlib.Path:
  """The shared MuJoCo example models: $ACS_SHARED_MODELS or ../shared/models/mujoco."""
  path = pathlib.Path(os.environ.get('ACS_SHARED_MODELS', ROOT.parent / 'shared/models/mujoco'))
  if not (path / 'humanoid.xml').exists():
    pytest.fail(f'the shared models are not in {path}: set ACS_SHARED_MODELS')
  return path


@pytest.fixture
def humanoid() -> mujoco.MjModel:
  return mujoco.MjModel.from_xml_path(str(shared_models() / 'humanoid.xml'))


@pytest.fixture
def incline() -> mujoco.MjModel:
  return mujoco.MjModel.from_xml_path(str(TEST_MODELS / 'incline_stick.xml'))
