// Copyright 2026 The acs authors.
//
// Solver table, dispatch of stand-alone solves, and the operations with G = J M^-1 J' + diag(R)
// that every problem solver shares. G is applied through the sparse rows of J and Y = (M^-1 J')'
// (see acsProblem), so no solver forms a dense nefc x nefc matrix.

#include "solver.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "util_errmem.h"
#include "metrics.h"

const acsSolverInfo acsSOLVERS[] = {
  [acsSOL_NATIVE]   = {"native", "MuJoCo's own constraint solver (soft convex model), as mj_step",
                       -1, NULL, NULL},
  [acsSOL_PGS]      = {"pgs", "NCP with De Saxce correction, projected Gauss-Seidel",
                       acsMODEL_NCP, acs_pgsWorkspace, acs_pgsSolve},
  [acsSOL_ADMM]     = {"admm", "NCP with De Saxce fixed point, ADMM with spectral penalty",
                       acsMODEL_NCP, acs_admmWorkspace, acs_admmSolve},
  [acsSOL_RAISIM]   = {"raisim", "RaiSim per-contact bisection (approximates the NCP)",
                       acsMODEL_NCP, acs_raisimWorkspace, acs_raisimSolve},
  [acsSOL_LCP_PGS]  = {"lcp-pgs", "LCP (box-linearized friction cone), projected Gauss-Seidel",
                       acsMODEL_LCP, acs_pgsWorkspace, acs_pgsSolve},
  [acsSOL_CCP_PGS]  = {"ccp-pgs", "CCP (convex relaxation, gliding), projected Gauss-Seidel",
                       acsMODEL_CCP, acs_pgsWorkspace, acs_pgsSolve},
  [acsSOL_CCP_ADMM] = {"ccp-admm", "CCP (convex relaxation, gliding), ADMM",
                       acsMODEL_CCP, acs_admmWorkspace, acs_admmSolve},
  [acsSOL_LAGGED]   = {"lagged", "Irrotational Contact Fields, Lagged: compliant, Newton",
                       acsMODEL_COMPLIANT, acs_icfWorkspace, acs_icfSolve},
  [acsSOL_SIMILAR]  = {"similar", "Irrotational Contact Fields, Similar: compliant, Newton",
                       acsMODEL_COMPLIANT, acs_icfWorkspace, acs_icfSolve},
};
_Static_assert(sizeof(acsSOLVERS)/sizeof(acsSOLVERS[0]) == acsNSOLVER, "solver table incomplete");

static const char* kStatusNames[acsNSTATUS] = {
  [acsSTATUS_CONVERGED] = "converged",
  [acsSTATUS_MAXITER]   = "maxiter",
  [acsSTATUS_STALLED]   = "stalled",
  [acsSTATUS_EMPTY]     = "empty",
  [acsSTATUS_NATIVE]    = "native",
  [acsSTATUS_DIVERGED]  = "diverged",
  [acsSTATUS_ERROR]     = "error",
};


//---------------------------------- names ---------------------------------------------------------

const char* acs_solverName(int solver) {
  return (solver >= 0 && solver < acsNSOLVER) ? acsSOLVERS[solver].name : NULL;
}


const char* acs_solverDescription(int solver) {
  return (solver >= 0 && solver < acsNSOLVER) ? acsSOLVERS[solver].description : NULL;
}


int acs_solverId(const char* name) {
  if (!name) {
    return -1;
  }
  for (int i=0; i < acsNSOLVER; i++) {
    if (!strcmp(name, acsSOLVERS[i].name)) {
      return i;
    }
  }
  return -1;
}


int acs_solverModel(int solver) {
  return (solver >= 0 && solver < acsNSOLVER) ? acsSOLVERS[solver].model : -1;
}


const char* acs_statusName(int status) {
  return (status >= 0 && status < acsNSTATUS) ? kStatusNames[status] : NULL;
}


//---------------------------------- workspace arena -----------------------------------------------

void* acs_arenaAlloc(acsArena* arena, size_t n, size_t elsize) {
  size_t start = (arena->used + 63) & ~(size_t)63;
  arena->used = start + n*elsize;
  return arena->base ? arena->base + start : NULL;
}


//---------------------------------- stand-alone solve ---------------------------------------------

size_t acs_workspaceBytes(const acsProblem* p, const acsSettings* settings) {
  const acsSolverInfo* info = acsSOLVERS + settings->solver;
  return info->workspace ? info->workspace(p, settings) + 64 : 0;   // + alignment
}


size_t acs_workspaceSize(const acsProblem* p, const acsSettings* settings) {
  if (acs_validateSettings(settings, NULL, 0) || acs_checkProblem(p, NULL, 0) ||
      acs_checkProblemFor(p, acsSOLVERS[settings->solver].model == acsMODEL_COMPLIANT, NULL, 0)) {
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

  double t0 = acs_timeMicro();
  int status = acsSOLVERS[settings->solver].solve(force, stats, state, base, p, settings);

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
  if (!acsSOLVERS[solver].solve) {
    acs_formatError(error, error_sz, "solver %s runs inside MuJoCo's pipeline only (acs_step); "
                    "acs_solve takes the acs solvers", acs_solverName(solver));
    return acsSTATUS_ERROR;
  }
  if (acs_checkProblem(p, error, error_sz) ||
      acs_checkProblemFor(p, acsSOLVERS[solver].model == acsMODEL_COMPLIANT, error, error_sz)) {
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


//---------------------------------- iterations ----------------------------------------------------

int acs_iterationEnd(acsStats* stats, int iter, mjtNum ncp, mjtNum res, const mjtNum* f,
                     const mjtNum* fprev, int n, const acsSettings* s) {
  stats->niter = iter + 1;
  stats->residual = ncp;
  if (iter < acsNHISTORY) {
    stats->history[iter] = ncp;
    stats->nhistory = iter + 1;
  }
  if (!isfinite(res) || !isfinite(ncp)) {
    return acsSTATUS_DIVERGED;
  }
  if (res <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }
  if (!fprev) {
    return iter + 1 >= s->maxiter ? acsSTATUS_MAXITER : -1;
  }
  mjtNum change = 0, fmax = 0;
  for (int r=0; r < n; r++) {
    mjtNum c = fabs(f[r] - fprev[r]), v = fabs(f[r]);
    change = c > change ? c : change;
    fmax = v > fmax ? v : fmax;
  }
  if (change <= s->rel_tolerance * fmax) {
    return acsSTATUS_STALLED;
  }
  return iter + 1 >= s->maxiter ? acsSTATUS_MAXITER : -1;
}


void acs_projectFeasible(mjtNum* f, const acsProblem* p, int model) {
  for (int k=0; k < p->nblock; k++) {
    mjtNum* fk = f + p->block_adr[k];
    int dim = p->block_dim[k];
    switch ((acstBlock) p->block_type[k]) {
    case acsBLOCK_FRICTION:
      fk[0] = mju_clip(fk[0], -p->block_floss[k], p->block_floss[k]);
      break;
    case acsBLOCK_LIMIT:
      fk[0] = fk[0] > 0 ? fk[0] : 0;
      break;
    case acsBLOCK_CONTACT:
      fk[0] = fk[0] > 0 ? fk[0] : 0;
      if (model == acsMODEL_LCP) {
        for (int j=1; j < dim; j++) {
          mjtNum lim = p->block_mu[5*k+j-1] * fk[0];
          fk[j] = mju_clip(fk[j], -lim, lim);
        }
      } else {
        acsu_clampFriction(fk, p->block_mu + 5*k, dim);
      }
      break;
    default:
      break;
    }
  }
}


//---------------------------------- start ---------------------------------------------------------

// the CCP's objective 1/2 f'(G + R) f + b'f = 1/2 f'(a + b), with a = (G + R) f + b
mjtNum acs_ccpObjective(const acsProblem* p, const mjtNum* f, const mjtNum* a) {
  mjtNum obj = 0;
  for (int r=0; r < p->nefc; r++) {
    obj += f[r] * (a[r] + p->b[r]);
  }
  return obj / 2;
}


int acs_startForces(mjtNum* force, mjtNum* w, mjtNum* a, mjtNum* resncp, mjtNum* res,
                    const acsProblem* p, int model) {
  acs_projectFeasible(force, p, model);
  acs_mulYT(w, p, force);
  acs_velocity(a, p, w, force);

  // the warm start against zero forces (a = b), by two measures: the CCP's objective, zero for
  // zero forces (a solution of any of the laws has f'(a + s) = 0 with a shift s'f >= 0, De Saxce
  // or the LCP's L1 term, so its objective -1/2 f'(G + R) f - s'f is at most zero: a warm start
  // above zero does net work against the motion), and the law's residual. Either alone misjudges:
  // the residual mixes forces, velocities and their product, and a good warm start can sit above
  // zero objective (ADMM converged from such ones on the 1000:1 stack where a cold start did
  // not). A warm start worse by both is dropped
  int cold = !(acs_ccpObjective(p, force, a) <= 0);
  if (cold) {
    static const mjtNum zero[6] = {0, 0, 0, 0, 0, 0};
    mjtNum r0 = 0;
    for (int k=0; k < p->nblock; k++) {
      mjtNum rk = acs_blockResidual(p, k, zero, p->b + p->block_adr[k], model);
      r0 = rk > r0 ? rk : r0;
    }
    cold = !(acs_residual(p, force, a, model) <= r0);
  }
  if (cold) {
    mju_zero(force, p->nefc);
    mju_zero(w, p->nv);
    mju_copy(a, p->b, p->nefc);
  }
  *resncp = acs_residual(p, force, a, acsMODEL_NCP);
  *res = model == acsMODEL_NCP ? *resncp : acs_residual(p, force, a, model);
  return cold;
}


//---------------------------------- block Gauss-Seidel --------------------------------------------

// smallest pivot, relative to the largest diagonal, of a block's Cholesky factor: a hyperstatic
// or redundant block (two identical equality rows, or an all-zero row MuJoCo keeps) is singular
// and its pivots are clamped; a regular block is inverted exactly
#define kMinPivot 1e-12


void acs_blocksLayout(acsBlocks* b, acsArena* arena, const acsProblem* p) {
  size_t nG = 0;
  for (int k=0; k < p->nblock; k++) {
    nG += (size_t)p->block_dim[k] * p->block_dim[k];
  }
  b->G    = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  b->Ginv = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  b->adr  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
}


void acs_invertBlock(mjtNum* Ginv, const mjtNum* G, int dim) {
  mjtNum L[36], e[6];
  mjtNum maxdiag = 0;
  for (int i=0; i < dim; i++) {
    maxdiag = mju_max(maxdiag, G[i*dim+i]);
  }
  mju_copy(L, G, dim*dim);
  mju_cholFactor(L, dim, kMinPivot * maxdiag + mjMINVAL);
  for (int j=0; j < dim; j++) {
    mju_zero(e, dim);
    e[j] = 1;
    mju_cholSolve(Ginv + j*dim, L, e, dim);   // column j (Ginv is symmetric)
  }
}


void acs_blocksCompute(acsBlocks* b, const acsProblem* p) {
  int adr = 0;
  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k];
    b->adr[k] = adr;
    acs_blockDelassus(b->G + adr, p, k);
    acs_invertBlock(b->Ginv + adr, b->G + adr, dim);
    adr += dim*dim;
  }
}


int acs_updateSimpleBlock(mjtNum* f, const mjtNum* a, const acsBlocks* b, const acsProblem* p,
                          int k, mjtNum omega) {
  int dim = p->block_dim[k];
  const mjtNum* G = b->G + b->adr[k];
  switch ((acstBlock) p->block_type[k]) {
  case acsBLOCK_EQUALITY: {
    mjtNum df[6];
    mju_mulMatVec(df, b->Ginv + b->adr[k], a, dim, dim);
    for (int r=0; r < dim; r++) {
      f[r] -= omega * df[r];
    }
    return 1;
  }
  case acsBLOCK_FRICTION:
    f[0] = mju_clip(f[0] - omega * a[0] / (G[0] + mjMINVAL), -p->block_floss[k],
                    p->block_floss[k]);
    return 1;
  case acsBLOCK_LIMIT:
    f[0] = mju_max(0, f[0] - omega * a[0] / (G[0] + mjMINVAL));
    return 1;
  case acsBLOCK_CONTACT:
    if (dim == 1) {
      f[0] = mju_max(0, f[0] - omega * a[0] / (G[0] + mjMINVAL));
      return 1;
    }
    return 0;
  default:
    return 1;
  }
}


//---------------------------------- Delassus operations -------------------------------------------

mjtNum acs_delassus(const acsProblem* p, int i, int j) {
  const int* ci = p->J_colind + p->J_rowadr[i];
  const mjtNum* vi = p->J + p->J_rowadr[i];
  const int* cj = p->Y_colind + p->Y_rowadr[j];
  const mjtNum* vj = p->Y + p->Y_rowadr[j];
  int ni = p->J_rownnz[i], nj = p->Y_rownnz[j];
  mjtNum s = 0;
  int a = 0, b = 0;
  while (a < ni && b < nj) {
    if (ci[a] == cj[b]) {
      s += vi[a++] * vj[b++];
    } else if (ci[a] < cj[b]) {
      a++;
    } else {
      b++;
    }
  }
  return s;
}


void acs_blockDelassus(mjtNum* G, const acsProblem* p, int k) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  for (int i=0; i < dim; i++) {
    for (int j=0; j <= i; j++) {
      mjtNum g = acs_delassus(p, adr+i, adr+j);
      G[i*dim+j] = G[j*dim+i] = g;
    }
    if (p->R) {
      G[i*dim+i] += p->R[adr+i];
    }
  }
}


void acs_mulYT(mjtNum* w, const acsProblem* p, const mjtNum* f) {
  mju_zero(w, p->nv);
  for (int r=0; r < p->nefc; r++) {
    if (f[r] == 0) {
      continue;
    }
    const int* col = p->Y_colind + p->Y_rowadr[r];
    const mjtNum* y = p->Y + p->Y_rowadr[r];
    int n = p->Y_rownnz[r];
    for (int i=0; i < n; i++) {
      w[col[i]] += y[i] * f[r];
    }
  }
}


void acs_addYTBlock(mjtNum* w, const acsProblem* p, int k, const mjtNum* df) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  for (int r=0; r < dim; r++) {
    if (df[r] == 0) {
      continue;
    }
    const int* col = p->Y_colind + p->Y_rowadr[adr+r];
    const mjtNum* y = p->Y + p->Y_rowadr[adr+r];
    int n = p->Y_rownnz[adr+r];
    for (int i=0; i < n; i++) {
      w[col[i]] += y[i] * df[r];
    }
  }
}


// J_r . w + b_r + R_r f_r
static inline mjtNum rowVelocity(const acsProblem* p, int r, const mjtNum* w, const mjtNum* f) {
  const int* col = p->J_colind + p->J_rowadr[r];
  const mjtNum* j = p->J + p->J_rowadr[r];
  int n = p->J_rownnz[r];
  mjtNum s = p->b[r];
  for (int i=0; i < n; i++) {
    s += j[i] * w[col[i]];
  }
  if (p->R) {
    s += p->R[r] * f[r];
  }
  return s;
}


void acs_velocity(mjtNum* a, const acsProblem* p, const mjtNum* w, const mjtNum* f) {
  for (int r=0; r < p->nefc; r++) {
    a[r] = rowVelocity(p, r, w, f);
  }
}


void acs_velocityBlock(mjtNum* a, const acsProblem* p, int k, const mjtNum* w, const mjtNum* f) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  for (int r=0; r < dim; r++) {
    a[r] = rowVelocity(p, adr+r, w, f);
  }
}


//---------------------------------- validation ----------------------------------------------------

// sorted column indices in [0, nv)
static int checkRow(const int* col, int n, int nv) {
  for (int i=0; i < n; i++) {
    if (col[i] < 0 || col[i] >= nv || (i > 0 && col[i] <= col[i-1])) {
      return -1;
    }
  }
  return 0;
}


// a sparse row set (rownnz, rowadr, colind, values of nnz entries) of nrow rows over nv columns;
// name for messages
static int checkSparse(const int* rownnz, const int* rowadr, const int* colind,
                       const mjtNum* val, int nnz, int nrow, int nv, const char* name,
                       char* error, int error_sz) {
  if (nrow > 0 && (!rownnz || !rowadr)) {
    acs_formatError(error, error_sz, "%s_rownnz and %s_rowadr must not be NULL (nefc = %d)",
                    name, name, nrow);
    return -1;
  }
  for (int r=0; r < nrow; r++) {
    if (rownnz[r] < 0 || rownnz[r] > nv || rowadr[r] < 0 || rowadr[r] > nnz - rownnz[r]) {
      acs_formatError(error, error_sz, "row %d: %s_rownnz = %d must be in [0, nv = %d] and the "
                      "row (%s_rowadr = %d) inside the nnz%s = %d entries", r, name, rownnz[r],
                      nv, name, rowadr[r], name, nnz);
      return -1;
    }
    if (rownnz[r] > 0 && (!colind || !val)) {
      acs_formatError(error, error_sz, "row %d: %s_colind and %s must not be NULL", r, name,
                      name);
      return -1;
    }
    if (rownnz[r] > 0 && checkRow(colind + rowadr[r], rownnz[r], nv)) {
      acs_formatError(error, error_sz, "row %d: column indices of %s must be sorted, distinct "
                      "and in [0, %d)", r, name, nv);
      return -1;
    }
    for (int i=0; i < rownnz[r]; i++) {
      if (!isfinite(val[rowadr[r] + i])) {
        acs_formatError(error, error_sz, "row %d: %s has a non-finite value", r, name);
        return -1;
      }
    }
  }
  return 0;
}


// n numbers finite (and >= lo when lo is not NaN); name for messages; arr may be NULL
static int checkFinite(const mjtNum* arr, int n, mjtNum lo, const char* name,
                       char* error, int error_sz) {
  for (int i=0; arr && i < n; i++) {
    if (!isfinite(arr[i]) || arr[i] < lo) {
      acs_formatError(error, error_sz, "%s[%d] = %g: must be finite%s", name, i, arr[i],
                      isnan(lo) ? "" : lo > 0 ? " and > 0" : " and >= 0");
      return -1;
    }
  }
  return 0;
}


int acs_checkProblem(const acsProblem* p, char* error, int error_sz) {
  if (!p) {
    acs_formatError(error, error_sz, "problem is NULL");
    return -1;
  }
  if (p->nv < 0 || p->nefc < 0 || p->nblock < 0) {
    acs_formatError(error, error_sz, "nv = %d, nefc = %d, nblock = %d: sizes must be >= 0",
                    p->nv, p->nefc, p->nblock);
    return -1;
  }
  if (!(p->timestep > 0) || !isfinite(p->timestep)) {
    acs_formatError(error, error_sz, "timestep must be a positive number, got %g", p->timestep);
    return -1;
  }
  if (p->nblock > 0 && (!p->block_type || !p->block_dim || !p->block_adr || !p->block_mu ||
                        !p->block_floss || !p->block_pos)) {
    acs_formatError(error, error_sz, "block_type, block_dim, block_adr, block_mu, block_floss "
                    "and block_pos must not be NULL (nblock = %d)", p->nblock);
    return -1;
  }
  if (p->nefc > 0 && !p->b) {
    acs_formatError(error, error_sz, "b must not be NULL (nefc = %d)", p->nefc);
    return -1;
  }

  // blocks
  int nrow = 0;
  for (int k=0; k < p->nblock; k++) {
    int type = p->block_type[k], dim = p->block_dim[k];
    if (type < 0 || type >= acsNBLOCK) {
      acs_formatError(error, error_sz, "block_type[%d] = %d: must be an acstBlock (0 to %d)",
                      k, type, acsNBLOCK-1);
      return -1;
    }
    int ok = (type == acsBLOCK_CONTACT) ? (dim == 1 || dim == 3 || dim == 4 || dim == 6) :
             (type == acsBLOCK_EQUALITY) ? (dim >= 1 && dim <= 6) : dim == 1;
    if (!ok) {
      acs_formatError(error, error_sz, "block_dim[%d] = %d: contacts have 1, 3, 4 or 6 rows, "
                      "equality 1 to 6, friction loss and limits 1", k, dim);
      return -1;
    }
    if (p->block_adr[k] != nrow) {
      acs_formatError(error, error_sz, "block_adr[%d] = %d: blocks must be contiguous (%d)",
                      k, p->block_adr[k], nrow);
      return -1;
    }
    if (type == acsBLOCK_CONTACT) {
      for (int j=0; j < dim-1; j++) {
        mjtNum mu = p->block_mu[5*k+j];
        if (!(mu >= 0) || !isfinite(mu)) {
          acs_formatError(error, error_sz, "block_mu[%d][%d] = %g: must be finite and >= 0",
                          k, j, mu);
          return -1;
        }
      }
      if (p->block_stiffness && (!(p->block_stiffness[k] > 0) ||
                                 !isfinite(p->block_stiffness[k]))) {
        acs_formatError(error, error_sz, "block_stiffness[%d] = %g: must be finite and > 0", k,
                        p->block_stiffness[k]);
        return -1;
      }
      if (p->block_dissipation && (!(p->block_dissipation[k] >= 0) ||
                                   !isfinite(p->block_dissipation[k]))) {
        acs_formatError(error, error_sz, "block_dissipation[%d] = %g: must be finite and >= 0",
                        k, p->block_dissipation[k]);
        return -1;
      }
    }
    if (type == acsBLOCK_FRICTION && (!(p->block_floss[k] >= 0) || !isfinite(p->block_floss[k]))) {
      acs_formatError(error, error_sz, "block_floss[%d] = %g: must be finite and >= 0",
                      k, p->block_floss[k]);
      return -1;
    }
    if (!isfinite(p->block_pos[k])) {
      acs_formatError(error, error_sz, "block_pos[%d] = %g: must be finite", k, p->block_pos[k]);
      return -1;
    }
    nrow += dim;
  }
  if (nrow != p->nefc) {
    acs_formatError(error, error_sz, "blocks hold %d rows, nefc = %d", nrow, p->nefc);
    return -1;
  }

  // islands
  if (p->block_island) {
    if (p->nisland < 0 || p->nisland > p->nblock || (p->nblock > 0 && p->nisland == 0) ||
        (p->nisland > 0 && !p->island_nefc)) {
      acs_formatError(error, error_sz, "nisland = %d: must be in [1, nblock = %d], with "
                      "island_nefc given", p->nisland, p->nblock);
      return -1;
    }
    for (int k=0; k < p->nblock; k++) {
      if (p->block_island[k] < 0 || p->block_island[k] >= p->nisland) {
        acs_formatError(error, error_sz, "block_island[%d] = %d: must be in [0, nisland = %d)",
                        k, p->block_island[k], p->nisland);
        return -1;
      }
    }
    for (int i=0; i < p->nisland; i++) {
      int n = 0;
      for (int k=0; k < p->nblock; k++) {
        n += p->block_island[k] == i ? p->block_dim[k] : 0;
      }
      if (n != p->island_nefc[i]) {
        acs_formatError(error, error_sz, "island_nefc[%d] = %d, but its blocks hold %d rows",
                        i, p->island_nefc[i], n);
        return -1;
      }
    }
  }

  // rows
  if (checkFinite(p->b, p->nefc, NAN, "b", error, error_sz) ||
      checkFinite(p->R, p->nefc, 0, "R", error, error_sz) ||
      checkFinite(p->vel, p->nefc, NAN, "vel", error, error_sz) ||
      checkFinite(p->vfree, p->nefc, NAN, "vfree", error, error_sz) ||
      checkFinite(p->pos, p->nefc, NAN, "pos", error, error_sz) ||
      checkSparse(p->J_rownnz, p->J_rowadr, p->J_colind, p->J, p->nnzJ, p->nefc, p->nv, "J",
                  error, error_sz) ||
      (p->Y && checkSparse(p->Y_rownnz, p->Y_rowadr, p->Y_colind, p->Y, p->nnzY, p->nefc,
                           p->nv, "Y", error, error_sz))) {
    return -1;
  }

  // a row that acts on no dof cannot change its velocity: with b != 0 no force satisfies its law
  for (int r=0; r < p->nefc; r++) {
    mjtNum jmax = 0;
    for (int i=0; i < p->J_rownnz[r]; i++) {
      jmax = mju_max(jmax, mju_abs(p->J[p->J_rowadr[r] + i]));
    }
    if (jmax == 0 && (!p->R || p->R[r] == 0) && p->b[r] != 0) {
      acs_formatError(error, error_sz, "row %d: J and R are zero but b = %g: the row acts on no "
                      "dof, so no force can satisfy its law; leave it out of the problem (acs_step "
                      "gives such rows zero force)", r, p->b[r]);
      return -1;
    }
  }
  return 0;
}


int acs_checkProblemFor(const acsProblem* p, int primal, char* error, int error_sz) {
  if (!primal) {
    if (p->nefc > 0 && !p->Y) {
      acs_formatError(error, error_sz, "Y (M^-1 J' by rows) must be given for this solver");
      return -1;
    }
    return 0;
  }
  if (p->nefc > 0 && (!p->vel || !p->vfree || !p->pos)) {
    acs_formatError(error, error_sz, "vel, vfree and pos must be given for lagged and similar");
    return -1;
  }
  if (p->nv > 0 && (!p->M || !p->M_rownnz || !p->M_rowadr || !p->M_colind)) {
    acs_formatError(error, error_sz, "M, M_rownnz, M_rowadr and M_colind must be given for "
                    "lagged and similar");
    return -1;
  }

  // MuJoCo's layout: row i holds ancestors of i in ascending order, then i; positive diagonal
  int adr = 0;
  for (int i=0; i < p->nv; i++) {
    int n = p->M_rownnz[i], radr = p->M_rowadr[i];
    if (n < 1 || n > i+1 || radr != adr || adr > p->nnzM - n) {
      acs_formatError(error, error_sz, "M row %d: MuJoCo's sparse layout expected (rows stored "
                      "one after the other, 1 to %d entries, inside the nnzM = %d entries)", i,
                      i+1, p->nnzM);
      return -1;
    }
    if (p->M_colind[radr + n - 1] != i || checkRow(p->M_colind + radr, n, i+1)) {
      acs_formatError(error, error_sz, "M row %d: MuJoCo's sparse layout expected (rows "
                      "contiguous, ascending columns < %d, diagonal last)", i, i);
      return -1;
    }
    for (int j=0; j < n; j++) {
      if (!isfinite(p->M[radr + j])) {
        acs_formatError(error, error_sz, "M row %d has a non-finite value", i);
        return -1;
      }
    }
    if (!(p->M[radr + n - 1] > 0)) {
      acs_formatError(error, error_sz, "M[%d][%d] = %g: the diagonal must be > 0", i, i,
                      p->M[radr + n - 1]);
      return -1;
    }
    adr += n;
  }
  return 0;
}
