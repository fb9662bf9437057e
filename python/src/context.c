// Copyright 2026 The acs authors.
//
// _acs.Context: one acsContext on a mujoco.MjModel, stepping mujoco.MjData objects in place.
// The last MjData seen is kept (a reference) with its mjData*, so that a step on the same data
// costs one pointer comparison on top of acs_step; another MjData is checked once against the
// model (its model must lay out mjData the same way).

#include <stddef.h>
#include <string.h>

#include "context.h"
#include "util.h"

typedef struct {
  PyObject_HEAD
  acsContext*    ctx;
  PyObject*      model;           // the mujoco.MjModel (a reference keeps it alive)
  const mjModel* m;
  PyObject*      last_data;       // the last mujoco.MjData stepped (a reference)
  mjData*        last_d;
  int            busy;            // a call is running with the GIL released
} ContextObject;


static void contextClear(ContextObject* self) {
  acs_deleteContext(self->ctx);
  self->ctx = NULL;
  Py_CLEAR(self->model);
  Py_CLEAR(self->last_data);
  self->last_d = NULL;
  self->m = NULL;
}


static void contextDealloc(ContextObject* self) {
  contextClear(self);
  Py_TYPE(self)->tp_free((PyObject*)self);
}


static int contextInit(ContextObject* self, PyObject* args, PyObject* kwds) {
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Context.__init__ while a call is running");
    return -1;
  }
  PyObject* model = NULL;
  PyObject* options = NULL;
  if (PyTuple_GET_SIZE(args) == 1) {
    model = PyTuple_GET_ITEM(args, 0);
  } else if (PyTuple_GET_SIZE(args) > 1) {
    PyErr_SetString(PyExc_TypeError, "Context(model, **options): options are keywords, as "
                    "Context(model, solver='admm', tolerance=1e-8)");
    return -1;
  }
  if (kwds) {
    options = PyDict_Copy(kwds);
    if (!options) {
      return -1;
    }
    PyObject* kmodel = PyDict_GetItemString(options, "model");
    if (kmodel) {
      if (model) {
        Py_DECREF(options);
        PyErr_SetString(PyExc_TypeError, "Context() got model twice");
        return -1;
      }
      model = kmodel;
    }
  }
  if (!model) {
    Py_XDECREF(options);
    PyErr_SetString(PyExc_TypeError, "Context() missing the model (a mujoco.MjModel)");
    return -1;
  }
  Py_INCREF(model);   // options may hold the only other reference
  if (options) {
    PyDict_DelItemString(options, "model");
    PyErr_Clear();
  }
  const mjModel* m = acsPy_address(model, "model");
  acsSettings settings;
  if (!m || acsPy_settings(&settings, m, options, "Context")) {
    Py_DECREF(model);
    Py_XDECREF(options);
    return -1;
  }
  Py_XDECREF(options);

  char error[acsNERROR];
  acsContext* ctx = acs_makeContext(m, &settings, error, sizeof(error));
  if (!ctx) {
    Py_DECREF(model);
    PyErr_SetString(PyExc_ValueError, error);
    return -1;
  }
  contextClear(self);
  self->ctx = ctx;
  self->model = model;
  self->m = m;
  return 0;
}


// the context, or NULL with an exception if it is not made or busy
static acsContext* ready(ContextObject* self) {
  if (!self->ctx) {
    PyErr_SetString(PyExc_RuntimeError, "Context is not initialized");
    return NULL;
  }
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Context used from two threads at once: make a Context "
                    "per thread (and per MjData)");
    return NULL;
  }
  return self->ctx;
}


// the mjData* of data, checked against the context's model once per new MjData
static mjData* resolveData(ContextObject* self, PyObject* data) {
  if (data == self->last_data) {
    return self->last_d;
  }
  mjData* d = acsPy_address(data, "data");
  if (!d) {
    return NULL;
  }
  PyObject* dmodel = PyObject_GetAttrString(data, "model");
  if (!dmodel) {
    return NULL;
  }
  const mjModel* dm = acsPy_address(dmodel, "data.model");
  Py_DECREF(dmodel);
  if (!dm) {
    return NULL;
  }
  if (!acsPy_sameLayout(self->m, dm)) {
    PyErr_Format(PyExc_ValueError, "data was made for another model (nq %d, nv %d, nbody %d; the "
                 "context's model has nq %d, nv %d, nbody %d): use mujoco.MjData(ctx.model)",
                 dm->nq, dm->nv, dm->nbody, self->m->nq, self->m->nv, self->m->nbody);
    return NULL;
  }
  Py_INCREF(data);
  Py_XSETREF(self->last_data, data);
  self->last_d = d;
  return d;
}


// what runLoop runs
typedef struct {
  const mjModel* m;
  mjData*        d;
  acsContext*    ctx;
  int          (*fn)(const mjModel*, mjData*, acsContext*);
  long           nstep;
  int            status;         // of the last call
} callArgs;

static void runLoop(void* arg) {
  callArgs* call = (callArgs*)arg;
  for (long k=0; k < call->nstep; k++) {
    call->status = call->fn(call->m, call->d, call->ctx);
    if (call->status == acsSTATUS_ERROR) {
      return;
    }
  }
}


// run nstep calls of fn (acs_step, acs_forward, acs_evaluate) without the GIL, MuJoCo's errors
// caught
static PyObject* runCalls(ContextObject* self, PyObject* data, long nstep,
                          int (*fn)(const mjModel*, mjData*, acsContext*)) {
  acsContext* ctx = ready(self);
  mjData* d = ctx ? resolveData(self, data) : NULL;
  if (!d) {
    return NULL;
  }
  callArgs call = {.m = self->m, .d = d, .ctx = ctx, .fn = fn, .nstep = nstep,
                   .status = acsSTATUS_EMPTY};
  char error[acsNERROR];
  int fatal;
  self->busy = 1;
  Py_BEGIN_ALLOW_THREADS
  fatal = acsPy_guard(runLoop, &call, error, sizeof(error));
  Py_END_ALLOW_THREADS
  self->busy = 0;
  int status = call.status;
  if (fatal) {
    acs_resetContext(ctx);   // the step stopped midway: forget what it left
    PyErr_Format(acsPy_FatalError, "%s (inside acs; reset the MjData, as after mj_step)", error);
    return NULL;
  }
  if (status == acsSTATUS_ERROR) {
    PyErr_SetString(acsPy_Error, acs_lastError(ctx));
    return NULL;
  }
  return PyLong_FromLong(status);
}


static PyObject* contextStep(ContextObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  PyObject* data = nargs > 0 ? args[0] : NULL;
  PyObject* nstep_obj = nargs > 1 ? args[1] : NULL;
  if (nargs > 2) {
    PyErr_SetString(PyExc_TypeError, "step(data, nstep=1) takes at most 2 arguments");
    return NULL;
  }
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i=0; i < nkw; i++) {
    const char* name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    PyObject** slot = NULL;
    if (name && !strcmp(name, "data")) {
      slot = &data;
    } else if (name && !strcmp(name, "nstep")) {
      slot = &nstep_obj;
    }
    if (!slot || *slot) {
      PyErr_Format(PyExc_TypeError, "step() got %s keyword argument '%s'",
                   slot ? "a repeated" : "an unexpected", name ? name : "?");
      return NULL;
    }
    *slot = args[nargs + i];
  }
  if (!data) {
    PyErr_SetString(PyExc_TypeError, "step() missing data (a mujoco.MjData)");
    return NULL;
  }
  long nstep = 1;
  if (nstep_obj) {
    nstep = PyLong_AsLong(nstep_obj);
    if (nstep == -1 && PyErr_Occurred()) {
      return NULL;
    }
    if (nstep < 1) {
      PyErr_Format(PyExc_ValueError, "nstep must be a positive integer, got %ld", nstep);
      return NULL;
    }
  }
  return runCalls(self, data, nstep, acs_step);
}


static PyObject* contextForward(ContextObject* self, PyObject* data) {
  return runCalls(self, data, 1, acs_forward);
}


static PyObject* contextEvaluate(ContextObject* self, PyObject* data) {
  return runCalls(self, data, 1, acs_evaluate);
}


static PyObject* contextReset(ContextObject* self, PyObject* noargs) {
  (void)noargs;
  acsContext* ctx = ready(self);
  if (!ctx) {
    return NULL;
  }
  acs_resetContext(ctx);
  Py_RETURN_NONE;
}


// the last statistics as a dict; history as bytes (the Python layer makes it a NumPy array)
static PyObject* contextStats(ContextObject* self, PyObject* noargs) {
  (void)noargs;
  acsContext* ctx = ready(self);
  if (!ctx) {
    return NULL;
  }
  const acsStats* s = acs_getStats(ctx);
  int nhistory = s->nhistory < 0 ? 0 : (s->nhistory > acsNHISTORY ? acsNHISTORY : s->nhistory);
  const char* solver = acs_solverName(s->solver);
  return Py_BuildValue(
    "{s:i,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:s,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,"
    "s:d,s:d,s:d,s:d,s:y#}",
    "status", s->status, "solver", solver ? solver : "", "iterations", s->niter,
    "nefc", s->nefc, "ncontact", s->ncontact, "nwarm", s->nwarm, "nfactor", s->nfactor,
    "nevaluation", s->nevaluation, "unstabilized", s->unstabilized,
    "error", acs_lastError(ctx),
    "rho", s->rho, "residual", s->residual, "signorini", s->signorini, "coulomb", s->coulomb,
    "mdp", s->mdp, "penetration", s->penetration, "slip", s->slip, "energy", s->energy,
    "time_constraint", s->time_constraint, "time_problem", s->time_problem,
    "time_solve", s->time_solve, "time_metrics", s->time_metrics,
    "history", (const char*)s->history, (Py_ssize_t)(nhistory * sizeof(mjtNum)));
}


static PyObject* contextGetOption(ContextObject* self, PyObject* name) {
  acsContext* ctx = ready(self);
  const char* key = ctx ? PyUnicode_AsUTF8(name) : NULL;
  if (!key) {
    return NULL;
  }
  char value[64], error[acsNERROR];
  if (acs_getOption(value, sizeof(value), acs_getSettings(ctx), key, error, sizeof(error))) {
    PyErr_SetString(PyExc_AttributeError, error);
    return NULL;
  }
  return PyUnicode_FromString(value);
}


// set options from a dict, all or none
static PyObject* contextSetOptions(ContextObject* self, PyObject* options) {
  acsContext* ctx = ready(self);
  if (!ctx) {
    return NULL;
  }
  if (!PyDict_Check(options)) {
    PyErr_SetString(PyExc_TypeError, "_set_options takes a dict");
    return NULL;
  }
  acsSettings settings = *acs_getSettings(ctx);
  char error[acsNERROR];
  if (acsPy_setOptions(&settings, options, "settings")) {
    return NULL;
  }
  if (acs_setSettings(ctx, &settings, error, sizeof(error))) {
    PyErr_SetString(PyExc_ValueError, error);
    return NULL;
  }
  Py_RETURN_NONE;
}


static PyObject* contextGetModel(ContextObject* self, void* closure) {
  (void)closure;
  if (!self->model) {
    Py_RETURN_NONE;
  }
  Py_INCREF(self->model);
  return self->model;
}


static PyObject* contextGetError(ContextObject* self, void* closure) {
  (void)closure;
  return PyUnicode_FromString(self->ctx ? acs_lastError(self->ctx) : "");
}


static PyMethodDef kContextMethods[] = {
  {"step", (PyCFunction)(void(*)(void))contextStep, METH_FASTCALL | METH_KEYWORDS,
   "step(data, nstep=1) -> int\n\nAdvance data nstep times with the context's solver (replaces "
   "mujoco.mj_step(model, data, nstep)). Returns the last step's status (acs.STATUS_*). Raises "
   "acs.Error if a step was refused (data is then as it was before that step)."},
  {"forward", (PyCFunction)contextForward, METH_O,
   "forward(data) -> int\n\nForward dynamics with the context's solver (replaces "
   "mujoco.mj_forward)."},
  {"evaluate", (PyCFunction)contextEvaluate, METH_O,
   "evaluate(data) -> int\n\nMetrics of the constraint forces in data (after mujoco.mj_step or "
   "mj_forward), computed as for every acs solver."},
  {"reset", (PyCFunction)contextReset, METH_NOARGS,
   "reset()\n\nForget the warm start and solver state (after mujoco.mj_resetData or a new "
   "state)."},
  {"_stats", (PyCFunction)contextStats, METH_NOARGS, "The last statistics as a dict."},
  {"_get_option", (PyCFunction)contextGetOption, METH_O, "One option as text."},
  {"_set_options", (PyCFunction)contextSetOptions, METH_O, "Set options from a dict."},
  {NULL, NULL, 0, NULL}
};


static PyGetSetDef kContextGetSet[] = {
  {"model", (getter)contextGetModel, NULL, "The mujoco.MjModel the context was made for.", NULL},
  {"last_error", (getter)contextGetError, NULL,
   "Why the last step was refused or diverged; '' otherwise.", NULL},
  {NULL, NULL, NULL, NULL, NULL}
};


static PyTypeObject kContextType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "acs._acs.Context",
  .tp_basicsize = sizeof(ContextObject),
  .tp_dealloc = (destructor)contextDealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "Context(model, **options): acs on a mujoco.MjModel (see acs.Context).",
  .tp_methods = kContextMethods,
  .tp_getset = kContextGetSet,
  .tp_init = (initproc)contextInit,
  .tp_new = PyType_GenericNew,
};


int acsPy_addContext(PyObject* module) {
  if (PyType_Ready(&kContextType)) {
    return -1;
  }
  Py_INCREF(&kContextType);
  if (PyModule_AddObject(module, "Context", (PyObject*)&kContextType)) {
    Py_DECREF(&kContextType);
    return -1;
  }
  return 0;
}
