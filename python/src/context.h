// Copyright 2026 The acs authors.
//
// The type _acs.Context (context.c).

#ifndef ACS_PYTHON_CONTEXT_H_
#define ACS_PYTHON_CONTEXT_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

// add the Context type to module; 0 on success
int acsPy_addContext(PyObject* module);

#endif  // ACS_PYTHON_CONTEXT_H_
