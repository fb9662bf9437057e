# Copyright 2026 The acs authors.
"""The README's Python examples run as written (from the repository root)."""

import pathlib
import re

import pytest

import acs

ROOT = pathlib.Path(__file__).resolve().parents[2]


def python_blocks():
  readme = (ROOT / 'README.md').read_text()
  section = readme.split('\n## Python\n', 1)[1].split('\n## ', 1)[0]
  return re.findall(r'```python\n(.*?)```', section, re.S)


def test_readme_has_examples():
  assert len(python_blocks()) == 3


@pytest.mark.parametrize('index', range(3))
def test_readme_example_runs(index, monkeypatch):
  monkeypatch.chdir(ROOT)
  code = python_blocks()[index]
  if 'mujoco.batch' in code and not acs._acs.HAS_MJBATCH:  # pylint: disable=protected-access
    pytest.skip('MuJoCo < 3.17 has no mujoco.batch')
  exec(compile(code, f'README.md python block {index}', 'exec'), {'__name__': 'readme'})  # pylint: disable=exec-used
