// Copyright 2026 The acs authors.
//
// What the files of the _acs extension share (util.c).

#ifndef ACS_PYTHON_UTIL_H_
#define ACS_PYTHON_UTIL_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

// acs.Error
extern PyObject* acsPy_Error;

// the mjModel* or mjData* of a mujoco.MjModel or mujoco.MjData (its _address); NULL with a
// TypeError naming what ("model" or "data") otherwise
void* acsPy_address(PyObject* obj, const char* what);

// 1 if mjData made for model b can be used with model a (the same sizes), 0 otherwise
int acsPy_sameLayout(const mjModel* a, const mjModel* b);

// settings: defaults, then model m's configuration, then the keyword options (a dict, Nullable;
// a None value keeps what is there). Return 0, or -1 with TypeError (unknown option, named after
// caller) or ValueError (bad value, with the C library's message)
int acsPy_settings(acsSettings* settings, const mjModel* m, PyObject* options, const char* caller);
int acsPy_setOptions(acsSettings* settings, PyObject* options, const char* caller);

// mujoco.FatalError, raised when MuJoCo raises an error (mju_error) inside an acs call, as the
// bindings raise it from mujoco.mj_step
extern PyObject* acsPy_FatalError;

// Run fn(arg) catching MuJoCo's errors on this thread: mju_error inside fn returns here (its
// thread-local log handler, the hook MuJoCo's own bindings use, jumps back) instead of ending
// the process. Return 0, or -1 with MuJoCo's message in error. The mjData fn was working on may
// be left mid-step (as after mujoco.FatalError from mj_step): reset it before using it again.
// Warnings and other messages go where they went before.
int acsPy_guard(void (*fn)(void*), void* arg, char* error, int error_sz);

#endif  // ACS_PYTHON_UTIL_H_
