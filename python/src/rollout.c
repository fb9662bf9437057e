// Copyright 2026 The acs authors.
//
// Many simulations on many threads: _acs.rollout (the semantics of mujoco.rollout, with acs
// stepping) and _acs.Batch (an mjBatch with one acs context per simulation, behind
// acs.batch.step). With MuJoCo >= 3.17 the threads are MuJoCo's own batch pool (mjb_apply); with
// 3.12, which has no batch API, threads of this file. Either way a rollout's result depends only
// on its inputs: each starts from its initial state with a reset context.

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rollout.h"
#include "util.h"

#if mjVERSION_HEADER < 3017000
#include <pthread.h>
#endif

//---------------------------------- rollout -------------------------------------------------------

typedef struct {
  const mjModel** m;              // per rollout
  mjData**      d;                // per worker
  acsContext**  ctx;              // per worker
  int           nroll, nstep, chunk;
  unsigned int  control_spec;
  int           nstate, ncontrol, nv, nsensordata;
  const mjtNum* state0;           // (nroll x nstate)
  const mjtNum* warmstart0;       // (nroll x nv) or NULL
  const mjtNum* control;          // (nroll x nstep x ncontrol) or NULL
  mjtNum*       state;            // (nroll x nstep x nstate) or NULL
  mjtNum*       sensordata;       // (nroll x nstep x nsensordata) or NULL
  atomic_llong  next;             // next rollout to take
  atomic_int    failed;           // first rollout refused + 1, 0 if none
  char          error[acsNERROR]; // its message
  atomic_int    fatal;            // 1: MuJoCo raised an error (mju_error) in a worker
  char          fatal_error[acsNERROR];  // its message
} rolloutJob;


// record the outputs of step t of rollout r
static void record(rolloutJob* job, const mjModel* m, mjData* d, int r, int t) {
  size_t step = (size_t)r * job->nstep + t;
  if (job->state) {
    mj_getState(m, d, job->state + step * job->nstate, mjSTATE_FULLPHYSICS);
  }
  if (job->sensordata) {
    memcpy(job->sensordata + step * job->nsensordata, d->sensordata,
           sizeof(mjtNum) * job->nsensordata);
  }
}


// one rollout on worker w, as mujoco.rollout does it with mj_step
static void rolloutOne(rolloutJob* job, int w, int r) {
  const mjModel* m = job->m[r];
  mjData* d = job->d[w];
  acsContext* ctx = job->ctx[w];
  unsigned int spec = job->control_spec;

  // inputs the controls do not set: zero, or the model's
  if (!(spec & mjSTATE_CTRL)) {
    memset(d->ctrl, 0, sizeof(mjtNum) * m->nu);
  }
  if (!(spec & mjSTATE_QFRC_APPLIED)) {
    memset(d->qfrc_applied, 0, sizeof(mjtNum) * m->nv);
  }
  if (!(spec & mjSTATE_XFRC_APPLIED)) {
    memset(d->xfrc_applied, 0, sizeof(mjtNum) * 6 * m->nbody);
  }
  for (int i=0; i < m->nbody; i++) {
    int id = m->body_mocapid[i];
    if (id >= 0 && !(spec & mjSTATE_MOCAP_POS)) {
      memcpy(d->mocap_pos + 3*id, m->body_pos + 3*i, sizeof(mjtNum) * 3);
    }
    if (id >= 0 && !(spec & mjSTATE_MOCAP_QUAT)) {
      memcpy(d->mocap_quat + 4*id, m->body_quat + 4*i, sizeof(mjtNum) * 4);
    }
  }
  if (!(spec & mjSTATE_EQ_ACTIVE)) {
    for (int i=0; i < m->neq; i++) {
      d->eq_active[i] = m->eq_active0[i];
    }
  }

  // initial state, warm start, warnings, and a context that remembers nothing
  mj_setState(m, d, job->state0 + (size_t)r * job->nstate, mjSTATE_FULLPHYSICS);
  if (job->warmstart0) {
    memcpy(d->qacc_warmstart, job->warmstart0 + (size_t)r * job->nv, sizeof(mjtNum) * job->nv);
  } else {
    memset(d->qacc_warmstart, 0, sizeof(mjtNum) * job->nv);
  }
  for (int i=0; i < mjNWARNING; i++) {
    d->warning[i].number = 0;
  }
  acs_resetContext(ctx);

  for (int t=0; t < job->nstep; t++) {
    // a warning (or a refused step) ends the rollout: the remaining records repeat the last
    int stop = 0;
    for (int i=0; i < mjNWARNING; i++) {
      stop |= d->warning[i].number != 0;
    }
    if (!stop) {
      if (job->control) {
        mj_setState(m, d, job->control + ((size_t)r * job->nstep + t) * job->ncontrol, spec);
      }
      if (acs_step(m, d, ctx) == acsSTATUS_ERROR) {
        int none = 0;
        if (atomic_compare_exchange_strong(&job->failed, &none, r + 1)) {
          snprintf(job->error, sizeof(job->error), "rollout %d, step %d: %s", r, t,
                   acs_lastError(ctx));
        }
        stop = 1;
      }
    }
    if (stop) {
      for (; t < job->nstep; t++) {
        record(job, m, d, r, t);
      }
      break;
    }
    record(job, m, d, r, t);
  }
}


// worker w takes chunks of rollouts until none is left
static void rolloutChunks(rolloutJob* job, int w) {
  for (;;) {
    long long start = atomic_fetch_add(&job->next, (long long)job->chunk);
    if (start >= job->nroll) {
      return;
    }
    long long end = start + job->chunk < job->nroll ? start + job->chunk : job->nroll;
    for (int r=(int)start; r < (int)end; r++) {
      rolloutOne(job, w, r);
    }
  }
}


// the worker's argument for acsPy_guard
typedef struct {
  rolloutJob* job;
  int         w;
} workerArg;

static void guardedChunks(void* arg) {
  workerArg* a = (workerArg*)arg;
  rolloutChunks(a->job, a->w);
}

// worker w, MuJoCo's errors caught: an error stops this worker (its mjData may be left mid-step)
// and is reported as the job's
static void rolloutWorker(rolloutJob* job, int w) {
  workerArg arg = {job, w};
  char error[acsNERROR];
  if (acsPy_guard(guardedChunks, &arg, error, sizeof(error))) {
    int none = 0;
    if (atomic_compare_exchange_strong(&job->fatal, &none, 1)) {
      snprintf(job->fatal_error, sizeof(job->fatal_error), "%s", error);
    }
  }
}


#if mjVERSION_HEADER >= 3017000
// MuJoCo's batch as the thread pool: one "simulation" per worker; its own mjData is not used
static mjBatch* gPool = NULL;     // the persistent pool (persistent_pool=True)
static int gPoolThreads = 0;      //   its threads
static int gPoolBusy = 0;         //   a call runs on it (these three: read and written with the
                                  //   GIL held; a call that finds it busy makes a pool of its own)

static void poolTask(const mjModel* m, mjData* d, int sim, void* arg) {
  (void)m;
  (void)d;
  rolloutWorker((rolloutJob*)arg, sim);
}

static int runWorkers(rolloutJob* job, int nworker, const mjModel* m, int persistent,
                      char* error, int error_sz) {
  int shared = persistent && !gPoolBusy;
  mjBatch* pool = shared && gPoolThreads == nworker ? gPool : NULL;
  if (!pool) {
    mjBatchConfig config;
    mjb_defaultConfig(&config);
    config.nthread = nworker;
    pool = mjb_makeBatch(m, nworker, &config, error, error_sz);
    if (!pool) {
      return -1;
    }
    if (shared) {   // not in use: replace it
      mjb_deleteBatch(gPool);
      gPool = pool;
      gPoolThreads = nworker;
    }
  }
  if (pool == gPool) {
    gPoolBusy = 1;
  }
  int nfailed;
  Py_BEGIN_ALLOW_THREADS
  nfailed = mjb_apply(pool, NULL, 0, poolTask, job, 0);
  Py_END_ALLOW_THREADS
  if (nfailed) {
    snprintf(error, error_sz, "MuJoCo raised an error in %d rollout worker(s)", nfailed);
  }
  for (int w=0; nfailed && w < nworker; w++) {
    const char* message = mjb_error(pool, w);
    if (message && message[0]) {
      snprintf(error, error_sz, "MuJoCo raised an error in a rollout: %s", message);
      break;
    }
  }
  if (pool == gPool) {
    gPoolBusy = 0;
  } else {
    mjb_deleteBatch(pool);
  }
  return nfailed ? -1 : 0;
}

#else
// MuJoCo 3.12 has no batch API: threads of our own
static void* threadMain(void* arg) {
  workerArg* a = (workerArg*)arg;
  rolloutWorker(a->job, a->w);
  return NULL;
}

static int runWorkers(rolloutJob* job, int nworker, const mjModel* m, int persistent,
                      char* error, int error_sz) {
  (void)m;
  (void)persistent;
  pthread_t* thread = calloc(nworker, sizeof(pthread_t));
  workerArg* arg = calloc(nworker, sizeof(workerArg));
  int* started = calloc(nworker, sizeof(int));
  int ok = thread && arg && started;
  Py_BEGIN_ALLOW_THREADS
  for (int w=1; ok && w < nworker; w++) {
    arg[w].job = job;
    arg[w].w = w;
    started[w] = !pthread_create(thread + w, NULL, threadMain, arg + w);
  }
  if (ok) {
    rolloutWorker(job, 0);   // the caller is worker 0; it also runs what a failed thread left
  }
  for (int w=1; ok && w < nworker; w++) {
    if (started[w]) {
      pthread_join(thread[w], NULL);
    }
  }
  Py_END_ALLOW_THREADS
  free(thread);
  free(arg);
  free(started);
  if (!ok) {
    snprintf(error, error_sz, "out of memory starting %d threads", nworker);
    return -1;
  }
  return 0;
}
#endif


// a C-contiguous float64 buffer of n numbers, or NULL for None (view->obj NULL then)
static int getArray(Py_buffer* view, PyObject* obj, const char* name, size_t n, int writable) {
  memset(view, 0, sizeof(Py_buffer));
  if (obj == Py_None) {
    return 0;
  }
  int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj, view, flags)) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous%s float64 array", name,
                 writable ? " writable" : "");
    return -1;
  }
  if (strcmp(view->format, "d") || view->itemsize != sizeof(mjtNum)) {
    PyErr_Format(PyExc_ValueError, "%s must hold float64 values, got format '%s'", name,
                 view->format);
    PyBuffer_Release(view);
    return -1;
  }
  if ((size_t)view->len != n * sizeof(mjtNum)) {
    PyErr_Format(PyExc_ValueError, "%s.size should be %zu, got %zd", name, n,
                 view->len / (Py_ssize_t)sizeof(mjtNum));
    PyBuffer_Release(view);
    return -1;
  }
  return 0;
}


PyObject* acsPy_rollout(PyObject* self, PyObject* args) {
  (void)self;
  PyObject *models, *datas, *state0_obj, *warm_obj, *control_obj, *state_obj, *sensor_obj;
  PyObject *options;
  int nstep, chunk_size, persistent;
  unsigned int control_spec;
  if (!PyArg_ParseTuple(args, "O!O!iIOOOOOipO!", &PyList_Type, &models, &PyList_Type, &datas,
                        &nstep, &control_spec, &state0_obj, &warm_obj, &control_obj, &state_obj,
                        &sensor_obj, &chunk_size, &persistent, &PyDict_Type, &options)) {
    return NULL;
  }
  int nroll = (int)PyList_GET_SIZE(models);
  int ndata = (int)PyList_GET_SIZE(datas);
  if (nroll < 1 || ndata < 1) {
    PyErr_SetString(PyExc_ValueError, "rollout needs at least one model and one MjData");
    return NULL;
  }
  if (control_spec & ~(unsigned int)mjSTATE_USER) {
    PyErr_SetString(PyExc_ValueError, "control_spec can only contain bits in mjSTATE_USER");
    return NULL;
  }
  if (nstep < 1) {
    Py_RETURN_NONE;
  }

  // models and data, all with the layout of the first model
  rolloutJob* job = calloc(1, sizeof(rolloutJob));
  const mjModel** m = calloc(nroll, sizeof(mjModel*));
  mjData** d = calloc(ndata, sizeof(mjData*));
  acsContext** ctx = calloc(ndata, sizeof(acsContext*));
  Py_buffer buf[5];
  memset(buf, 0, sizeof(buf));
  PyObject* result = NULL;
  if (!job || !m || !d || !ctx) {
    PyErr_NoMemory();
    goto done;
  }
  for (int r=0; r < nroll; r++) {
    m[r] = acsPy_address(PyList_GET_ITEM(models, r), "model");
    if (!m[r]) {
      goto done;
    }
    if (!acsPy_sameLayout(m[0], m[r])) {
      PyErr_SetString(PyExc_ValueError, "models are not compatible (their sizes differ)");
      goto done;
    }
  }
  for (int w=0; w < ndata; w++) {
    PyObject* data = PyList_GET_ITEM(datas, w);
    d[w] = acsPy_address(data, "data");
    PyObject* dmodel = d[w] ? PyObject_GetAttrString(data, "model") : NULL;
    const mjModel* dm = dmodel ? acsPy_address(dmodel, "data.model") : NULL;
    Py_XDECREF(dmodel);
    if (!dm) {
      goto done;
    }
    if (!acsPy_sameLayout(m[0], dm)) {
      PyErr_Format(PyExc_ValueError, "data[%d] was made for a model of other sizes", w);
      goto done;
    }
  }

  // arrays
  job->nstate = mj_stateSize(m[0], mjSTATE_FULLPHYSICS);
  job->ncontrol = mj_stateSize(m[0], control_spec);
  job->nv = m[0]->nv;
  job->nsensordata = m[0]->nsensordata;
  size_t nr = nroll, ns = nstep;
  if (getArray(buf + 0, state0_obj, "initial_state", nr * job->nstate, 0) ||
      getArray(buf + 1, warm_obj, "initial_warmstart", nr * job->nv, 0) ||
      getArray(buf + 2, control_obj, "control", nr * ns * job->ncontrol, 0) ||
      getArray(buf + 3, state_obj, "state", nr * ns * job->nstate, 1) ||
      getArray(buf + 4, sensor_obj, "sensordata", nr * ns * job->nsensordata, 1)) {
    goto done;
  }
  if (!buf[0].obj) {
    PyErr_SetString(PyExc_ValueError, "initial_state is required");
    goto done;
  }

  // one context per worker, with the settings of the first model
  acsSettings settings;
  if (acsPy_settings(&settings, m[0], options, "rollout")) {
    goto done;
  }
  int nthread = ndata > 1 ? ndata : 0;
  int nworker = nthread > 1 && nroll > 1 ? nthread : 1;
  for (int w=0; w < nworker; w++) {
    ctx[w] = acs_makeContext(m[0], &settings, job->error, sizeof(job->error));
    if (!ctx[w]) {
      PyErr_SetString(PyExc_ValueError, job->error);
      goto done;
    }
  }

  job->m = m;
  job->d = d;
  job->ctx = ctx;
  job->nroll = nroll;
  job->nstep = nstep;
  job->control_spec = control_spec;
  job->state0 = buf[0].buf;
  job->warmstart0 = buf[1].buf;
  job->control = buf[2].buf;
  job->state = buf[3].buf;
  job->sensordata = buf[4].buf;
  // a chunk of at most nroll rollouts (a larger one would take them all as well)
  job->chunk = chunk_size > 0 ? (chunk_size < nroll ? chunk_size : nroll) :
               (nroll / (10 * nworker) > 1 ? nroll / (10 * nworker) : 1);
  atomic_init(&job->next, 0);
  atomic_init(&job->failed, 0);
  atomic_init(&job->fatal, 0);

  char error[acsNERROR] = "";
  if (nworker == 1) {
    Py_BEGIN_ALLOW_THREADS
    rolloutWorker(job, 0);
    Py_END_ALLOW_THREADS
  } else if (runWorkers(job, nworker, m[0], persistent, error, sizeof(error))) {
    PyErr_SetString(acsPy_Error, error);
    goto done;
  }
  if (atomic_load(&job->fatal)) {
    PyErr_Format(acsPy_FatalError, "%s (inside an acs rollout)", job->fatal_error);
    goto done;
  }
  if (atomic_load(&job->failed)) {
    PyErr_SetString(acsPy_Error, job->error);
    goto done;
  }
  result = Py_None;
  Py_INCREF(result);

done:
  for (int i=0; i < 5; i++) {
    if (buf[i].obj) {
      PyBuffer_Release(buf + i);
    }
  }
  for (int w=0; ctx && w < ndata; w++) {
    acs_deleteContext(ctx[w]);
  }
  free(ctx);
  free(d);
  free(m);
  free(job);
  return result;
}


//---------------------------------- batch mirror --------------------------------------------------

#if mjVERSION_HEADER >= 3017000
// an mjBatch of the model of a mujoco.batch.Batch, with one context per simulation: acs.batch
// copies the Python batch's rows in, steps here, and copies rows and outputs back
typedef struct {
  PyObject_HEAD
  mjBatch*     b;
  acsContext** ctx;               // nsim
  int          nsim;
  PyObject*    model;             // the model (a reference)
  PyObject*    models;            // caller models of set_models (a reference), or NULL
  int*         status;            // nsim
  int          busy;              // a step runs with the GIL released
} BatchObject;


// the batch, ready for a call; NULL with RuntimeError if not initialized or busy
static mjBatch* batchReady(BatchObject* self) {
  if (!self->b || !self->ctx) {
    PyErr_SetString(PyExc_RuntimeError, "Batch is not initialized");
    return NULL;
  }
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Batch used from two threads at once");
    return NULL;
  }
  return self->b;
}


static void batchDealloc(BatchObject* self) {
  for (int i=0; self->ctx && i < self->nsim; i++) {
    acs_deleteContext(self->ctx[i]);
  }
  free(self->ctx);
  free(self->status);
  if (self->b) {
    mjb_deleteBatch(self->b);
  }
  Py_CLEAR(self->model);
  Py_CLEAR(self->models);
  Py_TYPE(self)->tp_free((PyObject*)self);
}


// Batch(model, nsim, nthread, persistent, options)
static int batchInit(BatchObject* self, PyObject* args, PyObject* kwds) {
  (void)kwds;
  PyObject *model, *options;
  int nsim, nthread, persistent;
  if (self->b) {
    PyErr_SetString(PyExc_RuntimeError, "Batch is initialized once");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "OiipO!", &model, &nsim, &nthread, &persistent, &PyDict_Type,
                        &options)) {
    return -1;
  }
  const mjModel* m = acsPy_address(model, "model");
  acsSettings settings;
  if (!m || acsPy_settings(&settings, m, options, "step")) {
    return -1;
  }
  char error[acsNERROR];
  mjBatchConfig config;
  mjb_defaultConfig(&config);
  config.nthread = nthread;
  config.persistent = (mjtBool)persistent;
  self->b = mjb_makeBatch(m, nsim, &config, error, sizeof(error));
  if (!self->b) {
    PyErr_SetString(PyExc_ValueError, error);
    return -1;
  }
  self->nsim = nsim;
  self->ctx = calloc(nsim, sizeof(acsContext*));
  self->status = calloc(nsim, sizeof(int));
  if (!self->ctx || !self->status) {
    PyErr_NoMemory();
    return -1;
  }
  for (int i=0; i < nsim; i++) {
    self->ctx[i] = acs_makeContext(m, &settings, error, sizeof(error));
    if (!self->ctx[i]) {
      PyErr_SetString(PyExc_ValueError, error);
      return -1;
    }
  }
  Py_INCREF(model);
  self->model = model;
  return 0;
}


static PyObject* memory(void* ptr, Py_ssize_t nbytes) {
  if (!ptr) {
    Py_RETURN_NONE;
  }
  return PyMemoryView_FromMemory((char*)ptr, nbytes, PyBUF_WRITE);
}


static PyObject* batchState(BatchObject* self, PyObject* noargs) {
  (void)noargs;
  if (!batchReady(self)) {
    return NULL;
  }
  return memory(mjb_state(self->b),
                (Py_ssize_t)self->nsim * mjb_nstate(self->b) * (Py_ssize_t)sizeof(mjtNum));
}


static PyObject* batchWarning(BatchObject* self, PyObject* noargs) {
  (void)noargs;
  if (!batchReady(self)) {
    return NULL;
  }
  return memory(mjb_warning(self->b),
                (Py_ssize_t)self->nsim * mjNWARNING * (Py_ssize_t)sizeof(mjWarningStat));
}


// output(name) / expand(name): the (nsim x size) storage as bytes, None if MuJoCo refuses name
static PyObject* batchField(BatchObject* self, PyObject* name, int expand) {
  const char* key = batchReady(self) ? PyUnicode_AsUTF8(name) : NULL;
  if (!key) {
    return NULL;
  }
  int size = 0, elemsize = 0;
  void* ptr = expand ? mjb_expand(self->b, key, &size, &elemsize)
                     : mjb_output(self->b, key, &size, &elemsize);
  return memory(ptr, (Py_ssize_t)self->nsim * size * elemsize);
}


static PyObject* batchOutput(BatchObject* self, PyObject* name) {
  return batchField(self, name, 0);
}


static PyObject* batchExpand(BatchObject* self, PyObject* name) {
  return batchField(self, name, 1);
}


// set_models(None | [MjModel] * nsim)
static PyObject* batchSetModels(BatchObject* self, PyObject* models) {
  if (!batchReady(self)) {
    return NULL;
  }
  if (models == Py_None) {
    mjb_setModels(self->b, NULL);
    Py_CLEAR(self->models);
    Py_RETURN_NONE;
  }
  if (!PyList_Check(models) || PyList_GET_SIZE(models) != self->nsim) {
    PyErr_Format(PyExc_ValueError, "set_models takes None or a list of %d models", self->nsim);
    return NULL;
  }
  const mjModel** m = calloc(self->nsim, sizeof(mjModel*));
  if (!m) {
    return PyErr_NoMemory();
  }
  for (int i=0; i < self->nsim; i++) {
    m[i] = acsPy_address(PyList_GET_ITEM(models, i), "model");
    if (!m[i]) {
      free(m);
      return NULL;
    }
  }
  mjb_setModels(self->b, m);
  free(m);
  Py_INCREF(models);
  Py_XSETREF(self->models, models);
  Py_RETURN_NONE;
}


// step(ids | None, nstep, control | None, control_spec) -> bytes of nsim int32 statuses
static PyObject* batchStep(BatchObject* self, PyObject* args) {
  if (!batchReady(self)) {
    return NULL;
  }
  PyObject *ids_obj, *control_obj;
  int nstep, control_spec, copy_outputs;
  if (!PyArg_ParseTuple(args, "OiOip", &ids_obj, &nstep, &control_obj, &control_spec,
                        &copy_outputs)) {
    return NULL;
  }
  Py_buffer ids, control;
  memset(&ids, 0, sizeof(ids));
  memset(&control, 0, sizeof(control));
  if (ids_obj != Py_None) {
    if (PyObject_GetBuffer(ids_obj, &ids, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) {
      return NULL;
    }
    if (ids.itemsize != sizeof(int) || (strcmp(ids.format, "i") && strcmp(ids.format, "<i"))) {
      PyBuffer_Release(&ids);
      PyErr_SetString(PyExc_ValueError, "ids must be int32");
      return NULL;
    }
  }
  int nid = ids.obj ? (int)(ids.len / sizeof(int)) : self->nsim;
  if (control_spec < 0 || (control_spec & ~mjSTATE_USER)) {
    if (ids.obj) {
      PyBuffer_Release(&ids);
    }
    PyErr_SetString(PyExc_ValueError, "control_spec can only contain bits in mjSTATE_USER");
    return NULL;
  }
  size_t ncontrol = mj_stateSize(mjb_model(self->b), (unsigned int)control_spec);
  if (getArray(&control, control_obj, "control", (size_t)nid * (size_t)nstep * ncontrol, 0)) {
    if (ids.obj) {
      PyBuffer_Release(&ids);
    }
    return NULL;
  }
  char error[acsNERROR] = "";
  int nbad;
  for (int i=0; i < self->nsim; i++) {
    self->status[i] = -1;
  }
  self->busy = 1;
  Py_BEGIN_ALLOW_THREADS
  nbad = acs_batchStep(self->status, self->b, self->ctx, ids.obj ? (const int*)ids.buf : NULL,
                       nid, nstep, control.obj ? (const mjtNum*)control.buf : NULL,
                       control_spec, error, sizeof(error));
  Py_END_ALLOW_THREADS
  // mjb_apply does not copy the fields registered with mjb_output; in the twin batch, which is
  // persistent, each simulation's mjData holds its last step's fields: mjb_forward up to
  // mjSTAGE_NONE computes nothing and copies them out
  if (nbad == 0 && copy_outputs) {
    Py_BEGIN_ALLOW_THREADS
    nbad = mjb_forward(self->b, ids.obj ? (const int*)ids.buf : NULL, ids.obj ? nid : 0,
                       mjSTAGE_NONE);
    Py_END_ALLOW_THREADS
  }
  self->busy = 0;
  if (nbad < 0) {
    if (ids.obj) {
      PyBuffer_Release(&ids);
    }
    if (control.obj) {
      PyBuffer_Release(&control);
    }
    PyErr_SetString(PyExc_ValueError, error);
    return NULL;
  }

  // the simulations of this call that failed: a refused step (acs), or MuJoCo's error, which
  // stops a simulation midway: its context forgets what the step left; the first is named
  int first = -1;
  const int* mjstatus = mjb_status(self->b);
  for (int j=0; j < nid; j++) {
    int i = ids.obj ? ((const int*)ids.buf)[j] : j;
    if (mjstatus[i]) {
      acs_resetContext(self->ctx[i]);
    }
    if (first < 0 && (mjstatus[i] || self->status[i] == acsSTATUS_ERROR)) {
      first = i;
    }
  }
  if (ids.obj) {
    PyBuffer_Release(&ids);
  }
  if (control.obj) {
    PyBuffer_Release(&control);
  }
  if (nbad > 0) {
    if (first >= 0) {
      PyErr_Format(acsPy_Error, "%d simulation(s) failed; simulation %d: %s", nbad, first,
                   mjstatus[first] ? mjb_error(self->b, first) : acs_lastError(self->ctx[first]));
    } else {
      PyErr_Format(acsPy_Error, "%d simulation(s) failed", nbad);
    }
    return NULL;
  }
  return PyBytes_FromStringAndSize((const char*)self->status, sizeof(int) * self->nsim);
}


static PyObject* batchReset(BatchObject* self, PyObject* ids_obj) {
  // forget the warm start of the given simulations (a list of ints) or of all (None)
  if (!batchReady(self)) {
    return NULL;
  }
  if (ids_obj == Py_None) {
    for (int i=0; i < self->nsim; i++) {
      acs_resetContext(self->ctx[i]);
    }
    Py_RETURN_NONE;
  }
  PyObject* seq = PySequence_Fast(ids_obj, "ids must be a sequence");
  if (!seq) {
    return NULL;
  }
  for (Py_ssize_t k=0; k < PySequence_Fast_GET_SIZE(seq); k++) {
    long i = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
    if (i < 0 || i >= self->nsim) {
      Py_DECREF(seq);
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "simulation %ld out of [0, %d)", i, self->nsim);
      }
      return NULL;
    }
    acs_resetContext(self->ctx[i]);
  }
  Py_DECREF(seq);
  Py_RETURN_NONE;
}


static PyMethodDef kBatchMethods[] = {
  {"state", (PyCFunction)batchState, METH_NOARGS, "State rows (nsim x nstate float64 bytes)."},
  {"warning", (PyCFunction)batchWarning, METH_NOARGS, "Warning rows (nsim x mjNWARNING)."},
  {"output", (PyCFunction)batchOutput, METH_O, "Register an output field; its storage."},
  {"expand", (PyCFunction)batchExpand, METH_O, "Expand a model field; its storage."},
  {"set_models", (PyCFunction)batchSetModels, METH_O, "Caller models, or None."},
  {"step", (PyCFunction)batchStep, METH_VARARGS, "step(ids, nstep, control, control_spec, copy_outputs)."},
  {"reset", (PyCFunction)batchReset, METH_O, "Reset the contexts of simulations."},
  {NULL, NULL, 0, NULL}
};


static PyTypeObject kBatchType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "acs._acs.Batch",
  .tp_basicsize = sizeof(BatchObject),
  .tp_dealloc = (destructor)batchDealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "An mjBatch with one acs context per simulation (used by acs.batch).",
  .tp_methods = kBatchMethods,
  .tp_init = (initproc)batchInit,
  .tp_new = PyType_GenericNew,
};


int acsPy_addBatch(PyObject* module) {
  if (PyType_Ready(&kBatchType)) {
    return -1;
  }
  Py_INCREF(&kBatchType);
  if (PyModule_AddObject(module, "Batch", (PyObject*)&kBatchType)) {
    Py_DECREF(&kBatchType);
    return -1;
  }
  return 0;
}

#else
int acsPy_addBatch(PyObject* module) {
  (void)module;
  return 0;
}
#endif  // mjVERSION_HEADER >= 3017000
