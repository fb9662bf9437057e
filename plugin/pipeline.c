// Copyright 2026 The acs authors.
//
// acs_step / acs_forward: MuJoCo's stages in MuJoCo's order (mj_step, mj_forwardSkip and
// mj_checkAcc of engine_forward.c, MuJoCo 3.12), with only the constraint stage replaced:
//
//   mjModel, mjData --MuJoCo stages--> contacts, efc rows, M factor, qacc_smooth
//     --problem.c--> acsProblem --warmstart.c--> initial forces --solver_*.c--> forces
//     --problem.c--> efc_force, qfrc_constraint, qacc --MuJoCo--> sensors, integrator
//
// MuJoCo paths that would silently re-run its own solver are refused: the RK4 integrator
// (mj_RungeKutta calls mj_forwardSkip at its intermediate stages) and sleeping (mj_advance calls
// mj_forwardSkip when trees fall asleep).

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "metrics.h"
#include "problem.h"
#include "settings.h"
#include "solver.h"
#include "warmstart.h"

#define BUF(ctx, name, type) ((type*)(ctx)->name.ptr)


//---------------------------------- utilities -----------------------------------------------------

double acs_timeMicro(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6*(double)t.tv_sec + 1e-3*(double)t.tv_nsec;
}


void acs_formatError(char* error, int error_sz, const char* format, ...) {
  if (!error || error_sz <= 0) {
    return;
  }
  va_list args;
  va_start(args, format);
  vsnprintf(error, error_sz, format, args);
  va_end(args);
}


int acs_bufferReserve(acsContext* ctx, acsBuffer* buf, size_t n, size_t elsize) {
  if (n <= buf->cap) {
    return 0;
  }
  size_t cap = buf->cap ? buf->cap : 16;
  while (cap < n) {
    cap *= 2;
  }
  void* ptr = realloc(buf->ptr, cap*elsize);
  if (!ptr) {
    return -1;
  }
  buf->ptr = ptr;
  buf->cap = cap;
  ctx->nalloc++;
  return 0;
}


static void freeBuffer(acsBuffer* buf) {
  free(buf->ptr);
  buf->ptr = NULL;
  buf->cap = 0;
}


//---------------------------------- context -------------------------------------------------------

// refuse models whose integration would re-run MuJoCo's own solver
static int checkModel(const mjModel* m, char* error, int error_sz) {
  if (m->opt.integrator == mjINT_RK4) {
    acs_formatError(error, error_sz, "integrator RK4 is not supported: mj_RungeKutta re-runs "
                    "MuJoCo's own constraint solver at its intermediate stages; use "
                    "integrator=\"Euler\", \"implicit\" or \"implicitfast\"");
    return -1;
  }
  if (m->opt.enableflags & mjENBL_SLEEP) {
    acs_formatError(error, error_sz, "sleep is not supported: mj_advance re-runs MuJoCo's own "
                    "constraint solver when trees fall asleep; remove <flag sleep=\"enable\"/>");
    return -1;
  }
  return 0;
}


acsContext* acs_makeContext(const mjModel* m, const acsSettings* settings,
                            char* error, int error_sz) {
  acsSettings s;
  if (!m) {
    acs_formatError(error, error_sz, "model is NULL");
    return NULL;
  }
  acs_registerPlugin();
  if (settings) {
    s = *settings;
  } else {
    acs_defaultSettings(&s);
    if (acs_modelSettings(&s, m, error, error_sz)) {
      return NULL;
    }
  }
  if (acs_validateSettings(&s, error, error_sz) || checkModel(m, error, error_sz)) {
    return NULL;
  }

  acsContext* ctx = calloc(1, sizeof(acsContext));
  if (!ctx) {
    acs_formatError(error, error_sz, "out of memory");
    return NULL;
  }
  ctx->settings = s;
  ctx->model = m;
  ctx->nv = m->nv;
  ctx->geom_stiffness = malloc((m->ngeom > 0 ? m->ngeom : 1) * sizeof(mjtNum));
  ctx->geom_dissipation = malloc((m->ngeom > 0 ? m->ngeom : 1) * sizeof(mjtNum));
  if (!ctx->geom_stiffness || !ctx->geom_dissipation ||
      acs_geomMaterials(ctx->geom_stiffness, ctx->geom_dissipation, m, error, error_sz)) {
    if (!ctx->geom_stiffness || !ctx->geom_dissipation) {
      acs_formatError(error, error_sz, "out of memory");
    }
    acs_deleteContext(ctx);
    return NULL;
  }
  ctx->stats.solver = s.solver;
  acs_defaultSolverState(&ctx->solver_state);
  return ctx;
}


void acs_deleteContext(acsContext* ctx) {
  if (!ctx) {
    return;
  }
  acsBuffer* bufs[] = {
    &ctx->block_type, &ctx->block_dim, &ctx->block_adr, &ctx->block_id, &ctx->block_mu,
    &ctx->block_floss, &ctx->block_pos, &ctx->block_efcadr, &ctx->b, &ctx->R, &ctx->J_rownnz,
    &ctx->J_rowadr, &ctx->Y_rownnz, &ctx->Y_rowadr, &ctx->force, &ctx->scratch, &ctx->J_colind,
    &ctx->J, &ctx->Y_colind, &ctx->Y, &ctx->dofvec, &ctx->dof_list, &ctx->dof_mark,
    &ctx->tree_mark, &ctx->tree_list, &ctx->work, &ctx->block_island, &ctx->island_nefc,
    &ctx->block_tree, &ctx->tree_parent, &ctx->vel, &ctx->vfree, &ctx->pos,
    &ctx->block_stiffness, &ctx->block_dissipation,
  };
  for (size_t i=0; i < sizeof(bufs)/sizeof(bufs[0]); i++) {
    freeBuffer(bufs[i]);
  }
  free(ctx->geom_stiffness);
  free(ctx->geom_dissipation);
  for (int i=0; i < 2; i++) {
    acsWarmCache* w = ctx->warm + i;
    acsBuffer* wb[] = {&w->con_geom, &w->con_pos, &w->con_force, &w->con_next, &w->con_used,
                       &w->head, &w->row_key, &w->row_force};
    for (size_t j=0; j < sizeof(wb)/sizeof(wb[0]); j++) {
      freeBuffer(wb[j]);
    }
  }
  free(ctx);
}


int acs_setSettings(acsContext* ctx, const acsSettings* settings, char* error, int error_sz) {
  if (acs_validateSettings(settings, error, error_sz)) {
    return -1;
  }
  if (settings->solver != ctx->settings.solver) {
    acs_defaultSolverState(&ctx->solver_state);   // another solver's state does not apply
  }
  ctx->settings = *settings;
  return 0;
}


const acsSettings* acs_getSettings(const acsContext* ctx) {
  return &ctx->settings;
}


void acs_resetContext(acsContext* ctx) {
  acs_warmReset(ctx);
  acs_defaultSolverState(&ctx->solver_state);
  memset(&ctx->stats, 0, sizeof(acsStats));
  ctx->stats.solver = ctx->settings.solver;
  ctx->error[0] = 0;
}


const acsStats* acs_getStats(const acsContext* ctx) {
  return &ctx->stats;
}


const char* acs_lastError(const acsContext* ctx) {
  return ctx ? ctx->error : "context is NULL";
}


//---------------------------------- constraint stage ----------------------------------------------

// kinetic + potential energy of the state in d, leaving d->energy and its flags as they were
static mjtNum stateEnergy(const mjModel* m, mjData* d) {
  mjtNum e0 = d->energy[0], e1 = d->energy[1];
  mjtBool fp = d->flg_energypos, fv = d->flg_energyvel;
  mj_energyPos(m, d);
  mj_energyVel(m, d);
  mjtNum energy = d->energy[0] + d->energy[1];
  d->energy[0] = e0;
  d->energy[1] = e1;
  d->flg_energypos = fp;
  d->flg_energyvel = fv;
  return energy;
}


// metrics of the forces in ctx->force for the problem in ctx->problem; their velocity
// a = G f + b comes from MuJoCo's qacc = qacc_smooth + M^-1 J' f: J (qacc - qacc_smooth) + b
static void evaluate(acsContext* ctx, const mjModel* m, mjData* d) {
  const acsProblem* p = &ctx->problem;
  mjtNum* w = BUF(ctx, scratch, mjtNum);
  mjtNum* a = w + p->nv;
  const mjtNum* force = BUF(ctx, force, mjtNum);
  mju_sub(w, d->qacc, d->qacc_smooth, p->nv);
  acs_velocity(a, p, w, force);
  acs_evaluateVelocity(&ctx->stats, force, a, p);
  ctx->stats.energy = stateEnergy(m, d);
}


// does the context's solver (or its settings) use Y = M^-1 J'
static int needsY(const acsContext* ctx) {
  int solver = ctx->settings.solver;
  return ctx->settings.compliance > 0 ||
         (solver != acsSOL_NATIVE && solver != acsSOL_LAGGED && solver != acsSOL_SIMILAR);
}


// MuJoCo's solver, with the same metrics as every acs solver
static void fwdConstraintNative(const mjModel* m, mjData* d, acsContext* ctx) {
  acsStats* st = &ctx->stats;
  double t0 = acs_timeMicro();
  mj_fwdConstraint(m, d);
  st->time_solve = acs_timeMicro() - t0;
  st->status = d->nefc ? acsSTATUS_NATIVE : acsSTATUS_EMPTY;
  for (int i=0; i < mjNISLAND && i < (d->nisland > 0 ? d->nisland : 1); i++) {
    st->niter += d->solver_niter[i];
  }

  if (ctx->settings.metrics) {
    double t1 = acs_timeMicro();
    if (acs_buildProblem(ctx, m, d, needsY(ctx)) == 0) {
      ctx->problem.pyramid = mj_isPyramidal(m);
      acs_readForces(BUF(ctx, force, mjtNum), ctx, m, d);
      st->nefc = ctx->problem.nefc;
      evaluate(ctx, m, d);
    }
    st->time_metrics = acs_timeMicro() - t1;
  }
}


// the constraint stage with an acs solver
static void fwdConstraintAcs(const mjModel* m, mjData* d, acsContext* ctx) {
  acsStats* st = &ctx->stats;
  int nv = m->nv;
  mju_zero(d->qfrc_constraint, nv);

  // no constraints: qacc = qacc_smooth
  if (d->nefc == 0) {
    mju_copy(d->qacc, d->qacc_smooth, nv);
    memset(d->solver_niter, 0, sizeof(d->solver_niter));
    st->status = acsSTATUS_EMPTY;
    if (acs_buildProblem(ctx, m, d, needsY(ctx)) == 0) {
      acs_warmstore(ctx, m, d, BUF(ctx, force, mjtNum));
      if (ctx->settings.metrics) {
        double t1 = acs_timeMicro();
        evaluate(ctx, m, d);
        st->time_metrics = acs_timeMicro() - t1;
      }
    }
    return;
  }

  // problem and warm start
  double t0 = acs_timeMicro();
  if (acs_buildProblem(ctx, m, d, needsY(ctx))) {
    mju_warning("acs: out of memory building the constraint problem (nefc = %d)", d->nefc);
    mju_copy(d->qacc, d->qacc_smooth, nv);
    st->status = acsSTATUS_ERROR;
    return;
  }
  const acsProblem* p = &ctx->problem;
  mjtNum* force = BUF(ctx, force, mjtNum);
  int nwarm = acs_warmstart(force, ctx, m, d);
  double time_problem = acs_timeMicro() - t0;

  // solve; a non-finite problem (NaN in the state) gets zero forces
  int finite = 1;
  for (int r=0; r < p->nefc; r++) {
    if (!isfinite(p->b[r])) {
      finite = 0;
      break;
    }
  }
  size_t worksize = acs_workspaceSize(p, &ctx->settings);
  if (!finite) {
    mju_zero(force, p->nefc);
    memset(st, 0, sizeof(acsStats));
    st->status = acsSTATUS_DIVERGED;
  } else if (acs_bufferReserve(ctx, &ctx->work, worksize, 1)) {
    mju_zero(force, p->nefc);
    memset(st, 0, sizeof(acsStats));
    st->status = acsSTATUS_ERROR;
  } else {
    acs_solve(force, st, &ctx->solver_state, p, &ctx->settings, ctx->work.ptr, worksize);
  }
  st->solver = ctx->settings.solver;
  st->nefc = p->nefc;
  st->nwarm = nwarm;
  st->time_problem = time_problem;

  // forces to MuJoCo, warm start for the next step, MuJoCo's solver statistics
  acs_writeForces(ctx, m, d, force);
  acs_warmstore(ctx, m, d, force);
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->solver_niter[0] = st->niter;
  for (int i=0; i < st->nhistory && i < mjNSOLVER; i++) {
    d->solver[i].improvement = st->history[i];
    d->solver[i].gradient = st->history[i];
  }

  if (ctx->settings.metrics) {
    double t1 = acs_timeMicro();
    evaluate(ctx, m, d);
    st->time_metrics = acs_timeMicro() - t1;
  }
}


static void fwdConstraint(const mjModel* m, mjData* d, acsContext* ctx) {
  memset(&ctx->stats, 0, sizeof(acsStats));
  ctx->stats.solver = ctx->settings.solver;
  double t0 = acs_timeMicro();
  if (ctx->settings.solver == acsSOL_NATIVE) {
    fwdConstraintNative(m, d, ctx);
  } else {
    fwdConstraintAcs(m, d, ctx);
  }
  ctx->stats.time_constraint = acs_timeMicro() - t0 - ctx->stats.time_metrics;
}


//---------------------------------- pipeline -------------------------------------------------------

// mj_forwardSkip with the constraint stage replaced
static void forwardSkip(const mjModel* m, mjData* d, acsContext* ctx, int skipstage,
                        int skipsensor) {
  // position-dependent
  if (skipstage < mjSTAGE_POS) {
    mj_fwdPosition(m, d);
    if (!skipsensor) {
      mj_sensorPos(m, d);
    }
    if (!d->flg_energypos) {
      if (mjENABLED(mjENBL_ENERGY)) {
        mj_energyPos(m, d);
      } else {
        d->energy[0] = d->energy[1] = 0;
      }
    }
  }

  // velocity-dependent
  if (skipstage < mjSTAGE_VEL) {
    mj_fwdVelocity(m, d);
    if (!skipsensor) {
      mj_sensorVel(m, d);
    }
    if (mjENABLED(mjENBL_ENERGY) && !d->flg_energyvel) {
      mj_energyVel(m, d);
    }
  }

  // acceleration-dependent
  if (mjcb_control && !mjDISABLED(mjDSBL_ACTUATION)) {
    mjcb_control(m, d);
  }
  mj_fwdActuation(m, d);
  mj_fwdAcceleration(m, d);
  fwdConstraint(m, d, ctx);
  if (!skipsensor) {
    d->flg_rnepost = 0;   // lazy mj_rnePostConstraint must see the new forces
    mj_sensorAcc(m, d);
  }
}


// mj_checkAcc with our forward on reset
static void checkAcc(const mjModel* m, mjData* d, acsContext* ctx) {
  for (int i=0; i < m->nv; i++) {
    if (mju_isBad(d->qacc[i])) {
      mj_warning(d, mjWARN_BADQACC, i);
      if (!mjDISABLED(mjDSBL_AUTORESET)) {
        mj_resetData(m, d);
        acs_warmReset(ctx);
      }
      d->warning[mjWARN_BADQACC].number++;
      d->warning[mjWARN_BADQACC].lastinfo = i;
      if (!mjDISABLED(mjDSBL_AUTORESET)) {
        int status = ctx->stats.status;
        forwardSkip(m, d, ctx, mjSTAGE_NONE, 0);
        ctx->stats.status = status;
      }
      return;
    }
  }
}


// shared entry checks; return 0 if the step can run
static int checkCall(const mjModel* m, mjData* d, acsContext* ctx) {
  if (!ctx) {
    return -1;
  }
  ctx->error[0] = 0;
  if (!m || !d) {
    acs_formatError(ctx->error, acsNERROR, "model or data is NULL");
  } else if (m->nv != ctx->nv) {
    acs_formatError(ctx->error, acsNERROR, "context was made for a model with nv = %d, "
                    "this model has nv = %d: make a context per model", ctx->nv, (int)m->nv);
  } else {
    checkModel(m, ctx->error, acsNERROR);   // settings are validated when they are set
  }
  if (ctx->error[0]) {
    ctx->stats.status = acsSTATUS_ERROR;
    return -1;
  }
  return 0;
}


int acs_forward(const mjModel* m, mjData* d, acsContext* ctx) {
  if (checkCall(m, d, ctx)) {
    return acsSTATUS_ERROR;
  }
  forwardSkip(m, d, ctx, mjSTAGE_NONE, 0);
  return ctx->stats.status;
}


int acs_step(const mjModel* m, mjData* d, acsContext* ctx) {
  if (checkCall(m, d, ctx)) {
    return acsSTATUS_ERROR;
  }

  // common to all integrators (mj_step)
  int bad = d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number;
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  if (d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number != bad) {
    acs_warmReset(ctx);   // the state was reset: old forces do not apply
  }
  forwardSkip(m, d, ctx, mjSTAGE_NONE, 0);
  checkAcc(m, d, ctx);
  if (mjENABLED(mjENBL_FWDINV)) {
    mj_compareFwdInv(m, d);
  }

  // integrator: Euler or implicit (RK4 refused in checkCall)
  if (m->opt.integrator == mjINT_EULER) {
    mj_Euler(m, d);
  } else {
    mj_implicit(m, d);
  }
  return ctx->stats.status;
}


int acs_evaluate(const mjModel* m, mjData* d, acsContext* ctx) {
  if (!ctx) {
    return acsSTATUS_ERROR;
  }
  ctx->error[0] = 0;
  if (!m || !d || m->nv != ctx->nv) {
    acs_formatError(ctx->error, acsNERROR, "model or data is NULL or does not match the context");
    return acsSTATUS_ERROR;
  }
  memset(&ctx->stats, 0, sizeof(acsStats));
  ctx->stats.solver = acsSOL_NATIVE;
  ctx->stats.status = d->nefc ? acsSTATUS_NATIVE : acsSTATUS_EMPTY;
  for (int i=0; i < mjNISLAND && i < (d->nisland > 0 ? d->nisland : 1); i++) {
    ctx->stats.niter += d->solver_niter[i];
  }
  double t0 = acs_timeMicro();
  if (acs_buildProblem(ctx, m, d, ctx->settings.compliance > 0)) {
    acs_formatError(ctx->error, acsNERROR, "out of memory building the constraint problem");
    return acsSTATUS_ERROR;
  }
  ctx->problem.pyramid = mj_isPyramidal(m);
  acs_readForces(BUF(ctx, force, mjtNum), ctx, m, d);
  ctx->stats.nefc = ctx->problem.nefc;
  evaluate(ctx, m, d);
  ctx->stats.time_metrics = acs_timeMicro() - t0;
  return ctx->stats.status;
}
