// Copyright 2026 The acs authors.
//
// Context lifetime, settings of a context, and the identity of its model.
//
// A context is made for one model. It keeps per-geom arrays and buffers sized by that model, so a
// step with another model must be refused, not run: the sizes acs uses are compared on every
// call, and a fingerprint of the structure acs reads (kinematic trees, the mass-matrix pattern,
// geoms, bodies, joints, equalities) whenever a model pointer is seen for the first time (a copy
// of the model, from mj_copyModel, is the same model).

#include "context.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "integrator.h"
#include "mjcompat.h"
#include "settings.h"
#include "util_errmem.h"

//---------------------------------- model identity ------------------------------------------------

static const char* kIdSizeNames[acsNIDSIZE] = {
  "nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "ntree", "neq", "ntendon", "nC",
  "nmocap", "nuserdata", "nsensordata"
};


// 64-bit hash of n ints, continuing from h (FNV-1a on words)
static uint64_t hashInts(uint64_t h, const int* v, int n) {
  for (int i=0; i < n; i++) {
    h ^= (uint32_t)v[i];
    h *= 0x100000001b3ull;
  }
  return h;
}


static void modelId(acsModelId* id, const mjModel* m) {
  int size[acsNIDSIZE] = {
    m->nq, m->nv, m->nu, m->na, m->nbody, m->njnt, m->ngeom, m->nsite, m->ntree, m->neq,
    m->ntendon, (int)m->nC, m->nmocap, m->nuserdata, m->nsensordata
  };
  memcpy(id->size, size, sizeof(size));
  uint64_t h = 0xcbf29ce484222325ull;
  h = hashInts(h, size, acsNIDSIZE);
  h = hashInts(h, m->dof_treeid, m->nv);
  h = hashInts(h, m->dof_parentid, m->nv);
  h = hashInts(h, m->dof_bodyid, m->nv);
  h = hashInts(h, m->tree_dofadr, m->ntree);
  h = hashInts(h, m->tree_dofnum, m->ntree);
  h = hashInts(h, m->M_rownnz, m->nv);
  h = hashInts(h, m->M_rowadr, m->nv);
  h = hashInts(h, m->M_colind, (int)m->nC);
  h = hashInts(h, m->body_parentid, m->nbody);
  h = hashInts(h, m->jnt_type, m->njnt);
  h = hashInts(h, m->geom_type, m->ngeom);
  h = hashInts(h, m->geom_bodyid, m->ngeom);
  h = hashInts(h, m->eq_type, m->neq);
  id->fingerprint = h;
}


int acs_checkModelIdentity(acsContext* ctx, const mjModel* m, char* error, int error_sz) {
  const int* size = ctx->model_id.size;
  int now[acsNIDSIZE] = {
    m->nq, m->nv, m->nu, m->na, m->nbody, m->njnt, m->ngeom, m->nsite, m->ntree, m->neq,
    m->ntendon, (int)m->nC, m->nmocap, m->nuserdata, m->nsensordata
  };
  for (int i=0; i < acsNIDSIZE; i++) {
    if (now[i] != size[i]) {
      acs_formatError(error, error_sz, "the context was made for another model (%s = %d, this "
                      "model has %s = %d): make a context per model", kIdSizeNames[i], size[i],
                      kIdSizeNames[i], now[i]);
      return -1;
    }
  }
  if (m != ctx->model_checked) {
    acsModelId id;
    modelId(&id, m);
    if (id.fingerprint != ctx->model_id.fingerprint) {
      acs_formatError(error, error_sz, "the context was made for another model (same sizes, "
                      "different kinematic trees, geoms or constraints): make a context per "
                      "model");
      return -1;
    }
    ctx->model_checked = m;
  }
  return 0;
}


int acs_checkModelSupported(const mjModel* m, int solver, char* error, int error_sz) {
  if (!(m->opt.timestep > 0) || !isfinite(m->opt.timestep)) {
    acs_formatError(error, error_sz, "opt.timestep must be a positive number, got %g",
                    m->opt.timestep);
    return -1;
  }
  if (m->opt.integrator == mjINT_RK4 && solver != acsSOL_NATIVE) {
    return acs_advanceSupported(m, "RK4", error, error_sz);
  }
  if (acs_mjDiscrete(m) && solver != acsSOL_NATIVE) {
    if (!acsMJ_DISCRETE_ACS) {
      acs_formatError(error, error_sz, "integrator discrete runs with the acs solvers on MuJoCo "
                      "4.0 (this is %s); use the native solver", mj_versionString());
      return -1;
    }
    return acs_advanceSupported(m, "discrete", error, error_sz);
  }
  if (m->opt.integrator != mjINT_EULER && m->opt.integrator != mjINT_RK4 &&
      m->opt.integrator != mjINT_IMPLICIT && m->opt.integrator != mjINT_IMPLICITFAST &&
      !acs_mjDiscrete(m)) {
    acs_formatError(error, error_sz, "integrator %d is not one acs knows", m->opt.integrator);
    return -1;
  }
  if (acs_mjIPC(m)) {
    acs_formatError(error, error_sz, "flag ipc is not supported: MuJoCo's IPC flex contact mode "
                    "replaces the constraint solver");
    return -1;
  }
  return 0;
}


//---------------------------------- lifetime ------------------------------------------------------

acsContext* acs_makeContext(const mjModel* m, const acsSettings* settings,
                            char* error, int error_sz) {
  acsSettings s;
  if (acs_checkMuJoCoVersion(error, error_sz)) {
    return NULL;
  }
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
  if (acs_validateSettings(&s, error, error_sz) ||
      acs_checkModelSupported(m, s.solver, error, error_sz)) {
    return NULL;
  }

  acsContext* ctx = calloc(1, sizeof(acsContext));
  if (!ctx) {
    acs_formatError(error, error_sz, "out of memory");
    return NULL;
  }
  ctx->settings = s;
  modelId(&ctx->model_id, m);
  ctx->model_checked = m;
  int ngeom = m->ngeom > 0 ? m->ngeom : 1;
  ctx->geom_stiffness = malloc(ngeom * sizeof(mjtNum));
  ctx->geom_dissipation = malloc(ngeom * sizeof(mjtNum));
  ctx->nsaved = mj_stateSize(m, mjSTATE_INTEGRATION) + 2*m->nv;
  ctx->saved = malloc((ctx->nsaved > 0 ? ctx->nsaved : 1) * sizeof(mjtNum));
  if (!ctx->geom_stiffness || !ctx->geom_dissipation || !ctx->saved) {
    acs_formatError(error, error_sz, "out of memory");
    acs_deleteContext(ctx);
    return NULL;
  }
  if (acs_geomMaterials(ctx->geom_stiffness, ctx->geom_dissipation, m, error, error_sz)) {
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
    &ctx->J_rowadr, &ctx->Y_rownnz, &ctx->Y_rowadr, &ctx->force, &ctx->force_start,
    &ctx->scratch, &ctx->J_colind, &ctx->J, &ctx->Y_colind, &ctx->Y, &ctx->dofvec,
    &ctx->dof_list, &ctx->dof_mark, &ctx->tree_mark, &ctx->tree_list, &ctx->work,
    &ctx->block_island, &ctx->island_nefc, &ctx->island_drop, &ctx->block_tree,
    &ctx->tree_parent, &ctx->vel, &ctx->vfree, &ctx->pos, &ctx->row_efc,
    &ctx->vstab, &ctx->rk4, &ctx->tree_rows, &ctx->tree_drop, &ctx->Mhat, &ctx->qacc_mj,
    &ctx->Hfac, &ctx->Hdinv, &ctx->qacc_damped, &ctx->dof_anc, &ctx->dof_sdinv,
    &ctx->block_stiffness, &ctx->block_dissipation, &ctx->u0, &ctx->stab_rows, &ctx->stab_work,
    &ctx->stab_cols,
  };
  for (size_t i=0; i < sizeof(bufs)/sizeof(bufs[0]); i++) {
    acs_bufferFree(bufs[i]);
  }
  free(ctx->geom_stiffness);
  free(ctx->geom_dissipation);
  free(ctx->saved);
  for (int i=0; i < 2; i++) {
    acsWarmCache* w = ctx->warm + i;
    acsBuffer* wb[] = {&w->con_geom, &w->con_pos, &w->con_force, &w->con_next, &w->con_used,
                       &w->head, &w->row_key, &w->row_force};
    for (size_t j=0; j < sizeof(wb)/sizeof(wb[0]); j++) {
      acs_bufferFree(wb[j]);
    }
  }
  free(ctx);
}


//---------------------------------- settings and state --------------------------------------------

int acs_setSettings(acsContext* ctx, const acsSettings* settings, char* error, int error_sz) {
  if (!ctx) {
    acs_formatError(error, error_sz, "context is NULL");
    return -1;
  }
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
  return ctx ? &ctx->settings : NULL;
}


void acs_warmReset(acsContext* ctx) {
  ctx->unstabilized_run = 0;
  for (int i=0; i < 2; i++) {
    ctx->warm[i].ncon = 0;
    ctx->warm[i].nrow = 0;
  }
}


void acs_resetContext(acsContext* ctx) {
  if (!ctx) {
    return;
  }
  acs_warmReset(ctx);
  acs_defaultSolverState(&ctx->solver_state);
  memset(&ctx->stats, 0, sizeof(acsStats));
  ctx->stats.solver = ctx->settings.solver;
  ctx->error[0] = 0;
}


const acsStats* acs_getStats(const acsContext* ctx) {
  return ctx ? &ctx->stats : NULL;
}


const char* acs_lastError(const acsContext* ctx) {
  return ctx ? ctx->error : "context is NULL";
}
