// Copyright 2026 The acs authors.
//
// Panes of acs-viewer: one mjData and one acs context per solver, all stepping in lock-step from
// the same state with the same controls and the same mouse perturbation.
//
// A "mujoco" pane steps with plain mj_step (no acs code in the step) and its metrics come from
// acs_evaluate with a context of solver "native", outside the timing. Every other pane steps with
// acs_step; its step time is the wall time of the step minus the metrics evaluation
// (acsStats.time_metrics), as acs-bench measures it. A pane whose context cannot be made (acs
// refuses the model) or whose step is refused keeps its message and stops stepping.

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "viewer.h"


//---------------------------------- utilities -----------------------------------------------------

// wall-clock seconds
static double wallTime(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9*(double)t.tv_nsec;
}


void acsv_append(char* dst, int dst_sz, const char* src) {
  size_t len = strlen(dst), add = strlen(src);
  if (dst_sz <= 0 || len + 1 >= (size_t)dst_sz) {
    return;
  }
  if (len + add + 1 > (size_t)dst_sz) {
    add = (size_t)dst_sz - len - 1;
  }
  memcpy(dst + len, src, add);
  dst[len + add] = 0;
}


// clear an accumulator: no steps, maxima unknown
static void clearAccum(acsvAccum* a) {
  a->n = 0;
  a->step_us = a->niter = a->ncon = 0;
  a->residual = a->penetration = a->slip = NAN;
}


// add the statistics of b to a (fmax ignores NaN: a pane without metrics stays NaN)
static void mergeAccum(acsvAccum* a, const acsvAccum* b) {
  a->n += b->n;
  a->step_us += b->step_us;
  a->niter += b->niter;
  a->ncon += b->ncon;
  a->residual = fmax(a->residual, b->residual);
  a->penetration = fmax(a->penetration, b->penetration);
  a->slip = fmax(a->slip, b->slip);
}


// sum of the warnings MuJoCo issues before resetting a bad state
static int badStateWarnings(const mjData* d) {
  return d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number +
         d->warning[mjWARN_BADQACC].number;
}


// one step (or forward) of a pane into an accumulator; step_us NaN for a forward
static void samplePane(acsvAccum* a, const acsvPane* p, double step_us) {
  acsvAccum s;
  clearAccum(&s);
  s.n = 1;
  s.step_us = step_us;
  int ncon = 0;
  for (int k=0; k < p->d->ncon; k++) {
    ncon += p->d->contact[k].efc_address >= 0;
  }
  s.ncon = ncon;
  if (p->plain) {
    int niter = 0;
    for (int k=0; k < mjNISLAND; k++) {
      niter += p->d->solver_niter[k];
    }
    s.niter = niter;
  }
  if (p->ctx) {
    const acsStats* st = acs_getStats(p->ctx);
    if (!p->plain) {
      s.niter = st->niter;
    }
    s.residual = st->residual;
    s.penetration = st->penetration;
    s.slip = st->slip;
  }
  mergeAccum(a, &s);
}


//---------------------------------- solver names --------------------------------------------------

int acsv_solverCount(void) {
  int n = 0;
  while (acs_solverName(n)) {
    n++;
  }
  return n + 1;
}


const char* acsv_solverName(int i) {
  if (i == 0) {
    return "mujoco";
  }
  return i > 0 ? acs_solverName(i - 1) : NULL;
}


int acsv_solverIndex(const char* name, char* error, int error_sz) {
  int n = acsv_solverCount();
  for (int i=0; i < n; i++) {
    if (!strcmp(name, acsv_solverName(i))) {
      return i;
    }
  }
  if (error) {
    char list[512] = "";
    for (int i=0; i < n; i++) {
      size_t len = strlen(list);
      snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", acsv_solverName(i));
    }
    snprintf(error, error_sz, "unknown solver '%s'; valid: %s", name, list);
  }
  return -1;
}


//---------------------------------- panes ---------------------------------------------------------

// make the pane's context: the solver (acs pane) or the metrics evaluator (plain pane)
static void paneContext(acsvPane* p, const mjModel* m) {
  acs_deleteContext(p->ctx);
  p->ctx = NULL;
  p->failed = 0;
  p->error[0] = 0;
  p->plain = !strcmp(p->name, "mujoco");

  char err[acsNERROR] = "";
  acsSettings s;
  acs_defaultSettings(&s);
  if (!acs_modelSettings(&s, m, err, sizeof(err)) &&
      !acs_setOption(&s, "solver", p->plain ? "native" : p->name, err, sizeof(err)) &&
      !acs_setOption(&s, "metrics", "1", err, sizeof(err))) {
    p->ctx = acs_makeContext(m, &s, err, sizeof(err));
  }
  if (!p->ctx) {
    if (p->plain) {
      snprintf(p->error, sizeof(p->error), "no metrics: %s", err);
    } else {
      p->failed = 1;
      snprintf(p->error, sizeof(p->error), "%s", err);
    }
  }
}


// recompute the pane's derived quantities and metrics at its current state
static void forwardPane(const mjModel* m, acsvPane* p) {
  if (p->failed || p->plain || !p->ctx) {
    mj_forward(m, p->d);
    if (p->ctx) {
      acs_evaluate(m, p->d, p->ctx);
    }
  } else if (acs_forward(m, p->d, p->ctx) == acsSTATUS_ERROR) {
    p->failed = 1;
    snprintf(p->error, sizeof(p->error), "%s", acs_lastError(p->ctx));
    mj_forward(m, p->d);
  }
  p->status = p->ctx && !p->plain ? acs_getStats(p->ctx)->status : acsSTATUS_NATIVE;
  clearAccum(&p->shown);
  samplePane(&p->shown, p, NAN);
}


static void freePane(acsvPane* p) {
  acs_deleteContext(p->ctx);
  p->ctx = NULL;
  mj_deleteData(p->d);
  p->d = NULL;
  mjv_freeScene(&p->scn);
}


void acsv_setSolvers(acsvSim* sim, const char names[][acsvNAME], int n) {
  sim->npane = n < acsvMAXPANE ? n : acsvMAXPANE;
  for (int i=0; i < sim->npane; i++) {
    snprintf(sim->pane[i].name, acsvNAME, "%s", names[i]);
    sim->pane[i].plain = !strcmp(names[i], "mujoco");
  }
}


void acsv_setPaneSolver(acsvSim* sim, int i, const char* name) {
  if (i < 0 || i >= sim->npane) {
    return;
  }
  acsvPane* p = sim->pane + i;
  snprintf(p->name, acsvNAME, "%s", name);
  p->plain = !strcmp(name, "mujoco");
  if (sim->m) {
    paneContext(p, sim->m);
    forwardPane(sim->m, p);
    clearAccum(&p->frame);
    clearAccum(&p->window);
  }
}


//---------------------------------- model ---------------------------------------------------------

// file name ends with ext, case-insensitive
static int hasExtension(const char* file, const char* ext) {
  size_t n = strlen(file), k = strlen(ext);
  if (n < k) {
    return 0;
  }
  for (size_t i=0; i < k; i++) {
    if (tolower((unsigned char)file[n-k+i]) != tolower((unsigned char)ext[i])) {
      return 0;
    }
  }
  return 1;
}


int acsv_loadModel(acsvSim* sim, const char* file, char* error, int error_sz) {
  char err[acsvNTEXT] = "";
  mjModel* m = NULL;
  if (hasExtension(file, ".mjb")) {
    m = mj_loadModel(file, NULL);
    if (!m) {
      snprintf(err, sizeof(err), "could not load binary model '%s'", file);
    }
  } else {
    m = mj_loadXML(file, NULL, err, sizeof(err));
  }
  if (!m) {
    snprintf(error, error_sz, "%s", err[0] ? err : "unknown error");
    return -1;
  }

  // new data for every pane before letting the old model go
  mjData* d[acsvMAXPANE] = {NULL};
  for (int i=0; i < sim->npane; i++) {
    d[i] = mj_makeData(m);
    if (!d[i]) {
      for (int k=0; k < i; k++) {
        mj_deleteData(d[k]);
      }
      mj_deleteModel(m);
      snprintf(error, error_sz, "could not allocate mjData for '%s'", file);
      return -1;
    }
  }

  // replace the model
  for (int i=0; i < sim->npane; i++) {
    freePane(sim->pane + i);
  }
  mj_deleteModel(sim->m);
  free(sim->ctrl);
  free(sim->state);
  sim->m = m;
  snprintf(sim->file, sizeof(sim->file), "%s", file);
  sim->ctrl = calloc(m->nu > 0 ? m->nu : 1, sizeof(mjtNum));
  sim->state = calloc(mj_stateSize(m, mjSTATE_INTEGRATION), sizeof(mjtNum));
  mjv_defaultPerturb(&sim->pert);
  for (int i=0; i < sim->npane; i++) {
    acsvPane* p = sim->pane + i;
    p->d = d[i];
    mjv_defaultScene(&p->scn);
    mjv_makeScene(m, &p->scn, acsvMAXGEOM);
    paneContext(p, m);
  }
  acsv_reset(sim);
  return 0;
}


void acsv_freeSim(acsvSim* sim) {
  for (int i=0; i < sim->npane; i++) {
    freePane(sim->pane + i);
  }
  mj_deleteModel(sim->m);
  sim->m = NULL;
  free(sim->ctrl);
  free(sim->state);
  sim->ctrl = sim->state = NULL;
}


//---------------------------------- simulation ----------------------------------------------------

void acsv_reset(acsvSim* sim) {
  const mjModel* m = sim->m;
  if (!m) {
    return;
  }
  for (int i=0; i < sim->npane; i++) {
    acsvPane* p = sim->pane + i;
    if (m->nkey > 0) {
      mj_resetDataKeyframe(m, p->d, 0);
    } else {
      mj_resetData(m, p->d);
    }
    if (p->ctx) {
      acs_resetContext(p->ctx);
    }
    p->warnings = 0;
    forwardPane(m, p);
    clearAccum(&p->frame);
    clearAccum(&p->window);
  }

  // every pane starts with the same controls (the keyframe's)
  if (sim->npane > 0) {
    mju_copy(sim->ctrl, sim->pane[0].d->ctrl, m->nu);
  }
  sim->pert.active = 0;
  sim->time = 0;
}


void acsv_step(acsvSim* sim, int nstep) {
  const mjModel* m = sim->m;
  if (!m || nstep <= 0) {
    return;
  }
  double start = wallTime();
  for (int i=0; i < sim->npane; i++) {
    acsvPane* p = sim->pane + i;
    mjData* d = p->d;
    for (int k=0; k < nstep && !p->failed; k++) {
      // the same controls and perturbation in every pane
      mju_copy(d->ctrl, sim->ctrl, m->nu);
      mju_zero(d->xfrc_applied, 6*m->nbody);
      mjv_applyPerturbPose(m, d, &sim->pert, 0);
      mjv_applyPerturbForce(m, d, &sim->pert);

      double step_us;
      if (p->plain) {
        double t0 = wallTime();
        mj_step(m, d);
        step_us = 1e6*(wallTime() - t0);
        if (p->ctx) {
          acs_evaluate(m, d, p->ctx);
        }
        p->status = acsSTATUS_NATIVE;
      } else {
        double t0 = wallTime();
        int status = acs_step(m, d, p->ctx);
        step_us = 1e6*(wallTime() - t0) - acs_getStats(p->ctx)->time_metrics;
        if (status == acsSTATUS_ERROR) {
          p->failed = 1;
          snprintf(p->error, sizeof(p->error), "step refused at t = %.3f s: %s", d->time,
                   acs_lastError(p->ctx));
          break;
        }
        p->status = status;
      }
      p->warnings = badStateWarnings(d);
      samplePane(&p->frame, p, step_us);
    }
  }
  sim->time += nstep * m->opt.timestep;

  // smoothed cost of one lock-step of every pane, for the real-time budget
  double elapsed = wallTime() - start;
  sim->wall_step += elapsed;
  double cost = elapsed / nstep;
  sim->step_cost = sim->step_cost > 0 ? 0.8*sim->step_cost + 0.2*cost : cost;
}


void acsv_forward(acsvSim* sim, int flg_perturb) {
  const mjModel* m = sim->m;
  if (!m) {
    return;
  }
  for (int i=0; i < sim->npane; i++) {
    acsvPane* p = sim->pane + i;
    if (flg_perturb) {
      mju_zero(p->d->xfrc_applied, 6*m->nbody);
      mjv_applyPerturbPose(m, p->d, &sim->pert, 1);
      mjv_applyPerturbForce(m, p->d, &sim->pert);
    }
    forwardPane(m, p);
  }
}


void acsv_resync(acsvSim* sim, int src) {
  const mjModel* m = sim->m;
  if (!m || src < 0 || src >= sim->npane) {
    return;
  }
  mj_getState(m, sim->pane[src].d, sim->state, mjSTATE_INTEGRATION);
  for (int i=0; i < sim->npane; i++) {
    acsvPane* p = sim->pane + i;
    if (i != src) {
      mj_setState(m, p->d, sim->state, mjSTATE_INTEGRATION);
    }
    if (p->ctx) {
      acs_resetContext(p->ctx);
    }
    forwardPane(m, p);
  }
}


void acsv_endFrame(acsvSim* sim, int refresh) {
  for (int i=0; i < sim->npane; i++) {
    acsvPane* p = sim->pane + i;
    mergeAccum(&p->window, &p->frame);
    clearAccum(&p->frame);
    if (refresh && p->window.n > 0) {
      p->shown = p->window;
      clearAccum(&p->window);
    }
  }
}
