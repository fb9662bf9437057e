// Copyright 2026 The acs authors.
//
// Dispatch: each solver's workspace and solve functions, the stand-alone acs_solve with its input
// checks, and the solve of a problem built by the pipeline. The solvers' shared pieces are in
// solver_util.c, the operator G and the problem checks in operator.c, names in names.c.

#include "solver.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "operator.h"
#include "solvers.h"
#include "util_errmem.h"

typedef struct {
  acsfWorkspace workspace;        // NULL for native (runs inside MuJoCo)
  acsfSolve     solve;            // NULL for native
} solverImpl;

static const solverImpl kImpl[acsNSOLVER] = {
  [acsSOL_NATIVE]   = {NULL, NULL},
  [acsSOL_PGS]      = {acs_pgsWorkspace, acs_pgsSolve},
  [acsSOL_ADMM]     = {acs_admmWorkspace, acs_admmSolve},
  [acsSOL_RAISIM]   = {acs_raisimWorkspace, acs_raisimSolve},
  [acsSOL_LCP_PGS]  = {acs_pgsWorkspace, acs_pgsSolve},
  [acsSOL_CCP_PGS]  = {acs_pgsWorkspace, acs_pgsSolve},
  [acsSOL_CCP_ADMM] = {acs_admmWorkspace, acs_admmSolve},
  [acsSOL_LAGGED]   = {acs_icfWorkspace, acs_icfSolve},
  [acsSOL_SIMILAR]  = {acs_icfWorkspace, acs_icfSolve},
};

//---------------------------------- stand-alone solve ---------------------------------------------

size_t acs_workspaceBytes(const acsProblem* p, const acsSettings* settings) {
  const solverImpl* info = kImpl + settings->solver;
  return info->workspace ? info->workspace(p, settings) + 64 : 0;   // + alignment
}


size_t acs_workspaceSize(const acsProblem* p, const acsSettings* settings) {
  if (acs_validateSettings(settings, NULL, 0) || acs_checkProblem(p, NULL, 0) ||
      acs_checkProblemFor(p, acs_solverModel(settings->solver) == acsMODEL_COMPLIANT, NULL, 0)) {
    return 0;
  }
  return acs_workspaceBytes(p, settings);
}


void acs_defaultSolverState(acsSolverState* state) {
  if (state) {
    state->admm_rho = NAN;
  }
}


void acs_solveProblem(mjtNum* force, acsStats* stats, acsSolverState* state, const acsProblem* p,
                      const acsSettings* settings, void* work) {
  memset(stats, 0, sizeof(acsStats));
  stats->solver = settings->solver;
  stats->nefc = p->nefc;
  if (p->nefc == 0) {
    stats->status = acsSTATUS_EMPTY;
    return;
  }

  // align the caller's block to 64 bytes
  char* base = (char*)work;
  base += (64 - ((uintptr_t)base & 63)) & 63;

  acsASSERT(kImpl[settings->solver].solve != NULL);   // callers refuse native first
  acsASSERT(((uintptr_t)base & 63) == 0);
  double t0 = acs_timeMicro();
  int status = kImpl[settings->solver].solve(force, stats, state, base, p, settings);

  // a non-finite solution is never returned
  for (int i=0; i < p->nefc; i++) {
    if (!isfinite(force[i])) {
      memset(force, 0, p->nefc * sizeof(mjtNum));
      status = acsSTATUS_DIVERGED;
      break;
    }
  }
  stats->time_solve = acs_timeMicro() - t0;
  stats->status = status;
}


int acs_solve(mjtNum* force, acsStats* stats, acsSolverState* state, const acsProblem* p,
              const acsSettings* settings, void* work, size_t work_sz,
              char* error, int error_sz) {
  acsStats local;
  acsSolverState localstate;
  if (!stats) {
    stats = &local;
  }
  if (!state) {
    acs_defaultSolverState(&localstate);
    state = &localstate;
  }
  memset(stats, 0, sizeof(acsStats));
  stats->status = acsSTATUS_ERROR;
  acs_formatError(error, error_sz, "%s", "");

  // the inputs: settings, problem, the arrays this solver needs, the workspace
  if (acs_validateSettings(settings, error, error_sz)) {
    return acsSTATUS_ERROR;
  }
  int solver = settings->solver;
  stats->solver = solver;
  if (!kImpl[solver].solve) {
    acs_formatError(error, error_sz, "solver %s runs inside MuJoCo's pipeline only (acs_step); "
                    "acs_solve takes the acs solvers", acs_solverName(solver));
    return acsSTATUS_ERROR;
  }
  if (acs_checkProblem(p, error, error_sz) ||
      acs_checkProblemFor(p, acs_solverModel(solver) == acsMODEL_COMPLIANT, error, error_sz)) {
    return acsSTATUS_ERROR;
  }
  stats->nefc = p->nefc;
  if (!force && p->nefc > 0) {
    acs_formatError(error, error_sz, "force is NULL: give nefc = %d numbers (the warm start)",
                    p->nefc);
    return acsSTATUS_ERROR;
  }
  for (int i=0; i < p->nefc; i++) {
    if (!isfinite(force[i])) {
      acs_formatError(error, error_sz, "force[%d] = %g: the warm start must be finite", i,
                      force[i]);
      return acsSTATUS_ERROR;
    }
  }
  size_t need = acs_workspaceBytes(p, settings);
  if (!work || work_sz < need) {
    acs_formatError(error, error_sz, "work must hold acs_workspaceSize() = %zu bytes, got %zu%s",
                    need, work_sz, work ? "" : " (NULL)");
    return acsSTATUS_ERROR;
  }

  acs_solveProblem(force, stats, state, p, settings, work);
  return stats->status;
}
