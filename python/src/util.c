// Copyright 2026 The acs authors.
//
// What the files of the _acs extension share: its exceptions, MuJoCo objects from their Python
// wrappers, settings from keyword options, and MuJoCo's errors caught.

#include "util.h"

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

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
    // the subject and the start of the body (acsNERROR bytes in all)
    snprintf(tMessage, sizeof(tMessage), "%.300s%s%.200s", msg->subject, msg->body ? "\n" : "",
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


// is key the metrics option (acs_metrics, or metrics)
static int isMetrics(PyObject* key) {
  const char* name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
  if (!name) {
    PyErr_Clear();
    return 0;
  }
  return !strcmp(name, "metrics") || !strcmp(name, "acs_metrics");
}


// text of an option value: bool as 1/0 (metrics: True is the full level, 2), numbers as Python
// writes them (round trip), text as is
static PyObject* optionText(PyObject* key, PyObject* value) {
  if (PyBool_Check(value)) {
    int full = value == Py_True && isMetrics(key);
    return PyUnicode_FromString(full ? "2" : value == Py_True ? "1" : "0");
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
