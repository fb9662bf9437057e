// Copyright 2026 The acs authors.
//
// _acs.rollout and the type _acs.Batch (rollout.c).

#ifndef ACS_PYTHON_ROLLOUT_H_
#define ACS_PYTHON_ROLLOUT_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

// _acs.rollout(models, datas, nstep, control_spec, state0, warmstart0, control, state,
// sensordata, chunk_size, persistent, options)
PyObject* acsPy_rollout(PyObject* self, PyObject* args);

// add the Batch type to module (MuJoCo >= 3.17; nothing otherwise); 0 on success
int acsPy_addBatch(PyObject* module);

#endif  // ACS_PYTHON_ROLLOUT_H_
