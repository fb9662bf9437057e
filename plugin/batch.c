// Copyright 2026 The acs authors.
//
// Batches: acs steps simulations of a MuJoCo batch (mjbatch.h, MuJoCo >= 3.17) on the batch's own
// thread pool. mjb_apply loads each simulation's state row into an mjData of its thread, runs a
// function on it and saves the row back; the function here is nstep acs steps with the
// simulation's own context, so a simulation's result depends only on its row, its controls and
// its context, never on which thread ran it or on the other simulations.

#include <acs/acs.h>

#if mjVERSION_HEADER >= 3017000

#include <stdatomic.h>
#include <stddef.h>

#include <mujoco/mujoco.h>
#include "util_errmem.h"

// what every simulation of one acs_batchStep call reads
typedef struct {
  acsContext* const* ctx;         // per simulation
  const int*  ids;                // simulations of the call, sorted; NULL: all
  int         nid;                // their number
  int         nstep;              // steps per simulation
  const mjtNum* control;          // (n x nstep x ncontrol) or NULL
  int         control_spec;       // mjtState bits of control
  int         ncontrol;           // mj_stateSize(m, control_spec)
  int*        status;             // per simulation, Nullable
  atomic_int  nrefused;           // simulations stopped by a refused step
} batchCall;


// index of sim among the call's simulations (binary search in the sorted ids)
static int callIndex(const batchCall* call, int sim) {
  if (!call->ids) {
    return sim;
  }
  int lo = 0, hi = call->nid - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (call->ids[mid] < sim) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}


// mjb_apply's function: nstep acs steps of one simulation
static void stepSimulation(const mjModel* m, mjData* d, int sim, void* arg) {
  batchCall* call = (batchCall*)arg;
  const mjtNum* control = NULL;
  if (call->control) {
    control = call->control + (size_t)callIndex(call, sim) * call->nstep * call->ncontrol;
  }
  int status = acsSTATUS_EMPTY;
  for (int k=0; k < call->nstep; k++) {
    if (control) {
      mj_setState(m, d, control + (size_t)k * call->ncontrol, (unsigned int)call->control_spec);
    }
    status = acs_step(m, d, call->ctx[sim]);
    if (status == acsSTATUS_ERROR) {
      atomic_fetch_add(&call->nrefused, 1);
      break;
    }
  }
  if (call->status) {
    call->status[sim] = status;
  }
}


int acs_batchStep(int* status, mjBatch* b, acsContext* const* ctx, const int* ids, int nid,
                  int nstep, const mjtNum* control, int control_spec, char* error, int error_sz) {
  if (!b || !ctx) {
    acs_formatError(error, error_sz, "batch and contexts must not be NULL");
    return -1;
  }
  int nsim = mjb_nsim(b);
  if (nstep < 0) {
    acs_formatError(error, error_sz, "nstep must be >= 0, got %d", nstep);
    return -1;
  }
  if (control_spec & ~mjSTATE_USER) {
    acs_formatError(error, error_sz, "control_spec must hold only bits of mjSTATE_USER (%d), "
                    "got %d", (int)mjSTATE_USER, control_spec);
    return -1;
  }
  if (ids) {
    if (nid < 0 || nid > nsim) {
      acs_formatError(error, error_sz, "nid must be in [0, %d], got %d", nsim, nid);
      return -1;
    }
    for (int i=0; i < nid; i++) {
      if (ids[i] < 0 || ids[i] >= nsim || (i && ids[i] <= ids[i-1])) {
        acs_formatError(error, error_sz, "ids must be sorted, unique and in [0, %d): ids[%d] = %d",
                        nsim, i, ids[i]);
        return -1;
      }
    }
  }
  int n = ids ? nid : nsim;
  for (int i=0; i < n; i++) {
    int sim = ids ? ids[i] : i;
    if (!ctx[sim]) {
      acs_formatError(error, error_sz, "ctx[%d] is NULL: make a context per simulation", sim);
      return -1;
    }
  }

  batchCall call = {
    .ctx = ctx, .ids = ids, .nid = n, .nstep = nstep, .control = control,
    .control_spec = control_spec, .status = status,
    .ncontrol = mj_stateSize(mjb_model(b), (unsigned int)control_spec),
  };
  atomic_init(&call.nrefused, 0);
  int nfailed = mjb_apply(b, ids, ids ? nid : 0, stepSimulation, &call, 1);
  int nrefused = atomic_load(&call.nrefused);
  return nfailed + nrefused;
}

#endif  // mjVERSION_HEADER >= 3017000
