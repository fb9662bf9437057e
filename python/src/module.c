// Copyright 2026 The acs authors.
//
// _acs: the CPython extension behind the acs Python package. It works on the mujoco package's
// own MjModel and MjData objects (their _address: no copies) and links the libmujoco that the
// mujoco package loaded (see python/CMakeLists.txt). The Python layer (python/acs/) adds the
// settings and statistics views, the rollout and batch arguments and the Gymnasium wrapper.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "module.h"

PyObject* acsPy_Error = NULL;
PyObject* acsPy_FatalError = NULL;


//---------------------------------- MuJoCo errors -------------------------------------------------

// MuJoCo's thread-local log handler: exported by libmujoco 3.12 and 4.0 but not in its public
// headers (MuJoCo's Python bindings turn mju_error into mujoco.FatalError through it)
MJAPI mjfLogHandler _mjPRIVATE_setTlsLogHandler(mjfLogHandler handler);
MJAPI mjfLogHandler _mjPRIVATE_getGlobalLogHandler(void);

static _Thread_local jmp_buf* tGuard;             // where an error jumps to, NULL: not guarded
static _Thread_local mjfLogHandler tPrevious;     // the thread's handler before the guard
static _Thread_local char tMessage[acsNERROR];    // the error's message

static void guardHandler(const mjLogMessage* msg) {
  if (msg->level == mjLOG_ERROR && tGuard) {
    snprintf(tMessage, sizeof(tMessage), "%s%s%s", msg->subject, msg->body ? "\n" : "",
             msg->body ? msg->body : "");
    longjmp(*tGuard, 1);
  }
  // anything else goes where it went before the guard: the thread's handler, else the global one
  mjfLogHandler next = tPrevious ? tPrevious : _mjPRIVATE_getGlobalLogHandler();
  if (next) {
    next(msg);
  }
}


int acsPy_guard(void (*fn)(void*), void* arg, char* error, int error_sz) {
  jmp_buf buf;
  volatile int failed = 0;
  tPrevious = _mjPRIVATE_setTlsLogHandler(guardHandler);
  tGuard = &buf;
  if (!setjmp(buf)) {
    fn(arg);
  } else {
    failed = 1;
    snprintf(error, error_sz, "%s", tMessage);
  }
  tGuard = NULL;
  _mjPRIVATE_setTlsLogHandler(tPrevious);
  return failed ? -1 : 0;
}


//---------------------------------- MuJoCo objects ------------------------------------------------

void* acsPy_address(PyObject* obj, const char* what) {
  // the bindings' types are mujoco._structs.MjModel and mujoco._structs.MjData
  const char* type = strstr(what, "model") ? "MjModel" : "MjData";
  const char* name = strrchr(Py_TYPE(obj)->tp_name, '.');
  name = name ? name + 1 : Py_TYPE(obj)->tp_name;
  PyObject* addr = strcmp(name, type) ? NULL : PyObject_GetAttrString(obj, "_address");
  if (!addr) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s must be a mujoco.%s, got %s", what, type,
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  void* ptr = PyLong_AsVoidPtr(addr);
  Py_DECREF(addr);
  if (!ptr && !PyErr_Occurred()) {
    PyErr_Format(PyExc_ValueError, "%s has a NULL address", what);
  }
  return ptr;
}


int acsPy_sameLayout(const mjModel* a, const mjModel* b) {
  // the sizes that lay out mjData come first in mjModel, up to narena
  return a == b || !memcmp(a, b, offsetof(mjModel, narena));
}


// text of an option value: bool as 1/0, numbers as Python writes them (round trip), text as is
static PyObject* optionText(PyObject* key, PyObject* value) {
  if (PyBool_Check(value)) {
    return PyUnicode_FromString(value == Py_True ? "1" : "0");
  }
  if (PyUnicode_Check(value)) {
    Py_INCREF(value);
    return value;
  }
  if (PyLong_Check(value) || PyFloat_Check(value)) {
    return PyObject_Str(value);
  }
  PyObject* asfloat = PyNumber_Float(value);   // numpy scalars and the like
  if (asfloat) {
    PyObject* text = PyObject_Str(asfloat);
    Py_DECREF(asfloat);
    return text;
  }
  PyErr_Clear();
  PyErr_Format(PyExc_TypeError, "option %S must be a number, a bool or a str, got %s", key,
               Py_TYPE(value)->tp_name);
  return NULL;
}


// index of option name, or -1
static int optionIndex(const char* name) {
  int n = acs_optionCount();
  for (int i=0; i < n; i++) {
    if (!strcmp(acs_optionName(i), name)) {
      return i;
    }
  }
  return -1;
}


int acsPy_setOptions(acsSettings* settings, PyObject* options, const char* caller) {
  if (!options) {
    return 0;
  }
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  char error[acsNERROR];
  while (PyDict_Next(options, &pos, &key, &value)) {
    const char* name = PyUnicode_AsUTF8(key);
    if (!name) {
      return -1;
    }
    if (optionIndex(name) < 0) {
      char list[1024] = "";
      for (int i=0; i < acs_optionCount(); i++) {
        int len = (int)strlen(list);
        snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", acs_optionName(i));
      }
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'; the acs "
                   "options are: %s", caller, name, list);
      return -1;
    }
    if (value == Py_None) {
      continue;   // None: keep the default (solver=None is the model's or pgs)
    }
    PyObject* text = optionText(key, value);
    if (!text) {
      return -1;
    }
    const char* ctext = PyUnicode_AsUTF8(text);
    int bad = !ctext || acs_setOption(settings, name, ctext, error, sizeof(error));
    Py_DECREF(text);
    if (bad) {
      if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, error);
      }
      return -1;
    }
  }
  return 0;
}


int acsPy_settings(acsSettings* settings, const mjModel* m, PyObject* options, const char* caller) {
  char error[acsNERROR];
  acs_defaultSettings(settings);
  if (acs_modelSettings(settings, m, error, sizeof(error))) {
    PyErr_Format(PyExc_ValueError, "the model's acs configuration: %s", error);
    return -1;
  }
  return acsPy_setOptions(settings, options, caller);
}


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
  if (!acsPy_Error || PyModule_AddObject(module, "Error", acsPy_Error) ||
      acsPy_addContext(module) || acsPy_addBatch(module)) {
    Py_DECREF(module);
    return NULL;
  }
  Py_INCREF(acsPy_Error);   // the module's reference was stolen; keep ours
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
