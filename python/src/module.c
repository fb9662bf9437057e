// Copyright 2026 The acs authors.
//
// _acs: the CPython extension behind the acs Python package: its functions and its
// initialization. It works on the mujoco package's own MjModel and MjData objects (their
// _address: no copies) and links the libmujoco that the mujoco package loaded (see
// python/CMakeLists.txt). The Python layer (python/acs/) adds the settings and statistics views,
// the rollout and batch arguments and the Gymnasium wrapper.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "rollout.h"
#include "util.h"

//---------------------------------- module functions ----------------------------------------------

// append a new reference to list; on failure (item NULL included) free list and return -1
static int appendItem(PyObject* list, PyObject* item) {
  int bad = !item || PyList_Append(list, item);
  Py_XDECREF(item);
  if (bad) {
    Py_DECREF(list);
  }
  return bad ? -1 : 0;
}


static PyObject* pySolvers(PyObject* self, PyObject* noargs) {
  (void)self;
  (void)noargs;
  PyObject* list = PyList_New(0);
  for (int i=0; list && i < acsNSOLVER; i++) {
    if (appendItem(list, Py_BuildValue("(ss)", acs_solverName(i), acs_solverDescription(i)))) {
      return NULL;
    }
  }
  return list;
}


static PyObject* pyOptions(PyObject* self, PyObject* noargs) {
  (void)self;
  (void)noargs;
  static const char* kTypes[acsNOPTIONTYPE] = {"solver", "int", "float", "bool"};
  acsSettings s;
  acs_defaultSettings(&s);
  PyObject* list = PyList_New(0);
  for (int i=0; list && i < acs_optionCount(); i++) {
    char value[64];
    acs_getOption(value, sizeof(value), &s, acs_optionName(i), NULL, 0);
    if (appendItem(list, Py_BuildValue("(sss)", acs_optionName(i), kTypes[acs_optionType(i)],
                                       value))) {
      return NULL;
    }
  }
  return list;
}


static PyObject* pyDescribeOptions(PyObject* self, PyObject* noargs) {
  (void)self;
  (void)noargs;
  static char buf[16384];
  acs_describeOptions(buf, sizeof(buf));
  return PyUnicode_FromString(buf);
}


static PyObject* pyStatusName(PyObject* self, PyObject* arg) {
  (void)self;
  long status = PyLong_AsLong(arg);
  if (status == -1 && PyErr_Occurred()) {
    return NULL;
  }
  const char* name = acs_statusName((int)status);
  if (!name) {
    PyErr_Format(PyExc_ValueError, "status must be in [0, %d), got %ld", acsNSTATUS, status);
    return NULL;
  }
  return PyUnicode_FromString(name);
}


static PyMethodDef kMethods[] = {
  {"solvers", pySolvers, METH_NOARGS, "[(name, description)] of every solver."},
  {"options", pyOptions, METH_NOARGS, "[(name, type, default)] of every option."},
  {"describe_options", pyDescribeOptions, METH_NOARGS,
   "One line per option: name, unit, default, range."},
  {"status_name", pyStatusName, METH_O, "Name of a status value."},
  {"rollout", (PyCFunction)(void(*)(void))acsPy_rollout, METH_VARARGS,
   "rollout(models, datas, nstep, control_spec, state0, warmstart0, control, state, sensordata, "
   "chunk_size, persistent, options): see acs.rollout."},
  {NULL, NULL, 0, NULL}
};


static struct PyModuleDef kModule = {
  PyModuleDef_HEAD_INIT, "_acs", "acs: alternative contact solvers for MuJoCo (extension).", -1,
  kMethods, NULL, NULL, NULL, NULL
};


// the module's entry point, called by import (declared for -Wmissing-prototypes)
PyMODINIT_FUNC PyInit__acs(void);

PyMODINIT_FUNC PyInit__acs(void) {
  char error[acsNERROR];
  if (acs_checkMuJoCoVersion(error, sizeof(error))) {
    PyErr_SetString(PyExc_ImportError, error);
    return NULL;
  }
  acs_registerPlugin();

  PyObject* module = PyModule_Create(&kModule);
  if (!module) {
    return NULL;
  }
  acsPy_Error = PyErr_NewExceptionWithDoc("acs.Error", "A step or call acs refused; the message "
                                          "says why.", PyExc_RuntimeError, NULL);
  if (!acsPy_Error) {
    Py_DECREF(module);
    return NULL;
  }
  Py_INCREF(acsPy_Error);   // ours, kept for the process; the module's is stolen below
  if (PyModule_AddObject(module, "Error", acsPy_Error)) {
    Py_DECREF(acsPy_Error);
    Py_DECREF(module);
    return NULL;
  }
  if (acsPy_addContext(module) || acsPy_addBatch(module)) {
    Py_DECREF(module);
    return NULL;
  }
  PyObject* mujoco = PyImport_ImportModule("mujoco");
  acsPy_FatalError = mujoco ? PyObject_GetAttrString(mujoco, "FatalError") : NULL;
  Py_XDECREF(mujoco);
  if (!acsPy_FatalError) {
    Py_DECREF(module);
    return NULL;
  }
  PyModule_AddStringConstant(module, "__version__", acs_versionString());
  PyModule_AddIntConstant(module, "MUJOCO_VERSION_HEADER", mjVERSION_HEADER);
  PyModule_AddIntConstant(module, "HAS_MJBATCH", mjVERSION_HEADER >= 3017000);
  PyModule_AddIntConstant(module, "NHISTORY", acsNHISTORY);
  return module;
}
