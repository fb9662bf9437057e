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
#include "context.h"
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

size_t acs_workspaceSize(const acsProblem* p, const acsSettings* settings) {
  int solver = settings->solver;
  if (solver < 0 || solver >= acsNSOLVER || !acsSOLVERS[solver].workspace) {
    return 0;
  }
  return acsSOLVERS[solver].workspace(p, settings) + 64;   // + alignment of the caller's block
}


void acs_defaultSolverState(acsSolverState* state) {
  state->admm_rho = NAN;
}


int acs_solve(mjtNum* force, acsStats* stats, acsSolverState* state, const acsProblem* p,
              const acsSettings* settings, void* work, size_t work_sz) {
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
  stats->solver = settings->solver;
  stats->nefc = p->nefc;

  int solver = settings->solver;
  if (settings->cookie != acsCOOKIE || solver < 0 || solver >= acsNSOLVER ||
      !acsSOLVERS[solver].solve || work_sz < acs_workspaceSize(p, settings)) {
    stats->status = acsSTATUS_ERROR;
    return acsSTATUS_ERROR;
  }
  if (p->nefc == 0) {
    stats->status = acsSTATUS_EMPTY;
    return acsSTATUS_EMPTY;
  }
  int primal = (solver == acsSOL_LAGGED || solver == acsSOL_SIMILAR);
  if (primal ? (!p->M || !p->vfree || !p->vel || !p->pos) : !p->Y) {
    stats->status = acsSTATUS_ERROR;   // the problem lacks what this solver needs
    return acsSTATUS_ERROR;
  }

  // align the caller's block to 64 bytes
  char* base = (char*)work;
  base += (64 - ((uintptr_t)base & 63)) & 63;

  double t0 = acs_timeMicro();
  int status = acsSOLVERS[solver].solve(force, stats, state, base, p, settings);

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
  return status;
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


int acs_checkProblem(const acsProblem* p, char* error, int error_sz) {
  if (!p || p->nv < 0 || p->nefc < 0 || p->nblock < 0) {
    acs_formatError(error, error_sz, "problem is NULL or has negative sizes");
    return -1;
  }
  if (!(p->timestep > 0) || !isfinite(p->timestep)) {
    acs_formatError(error, error_sz, "timestep must be a positive number, got %g", p->timestep);
    return -1;
  }
  int nrow = 0;
  for (int k=0; k < p->nblock; k++) {
    int type = p->block_type[k], dim = p->block_dim[k];
    if (type < 0 || type >= acsNBLOCK) {
      acs_formatError(error, error_sz, "block_type[%d] = %d: must be an acstBlock", k, type);
      return -1;
    }
    if (p->block_adr[k] != nrow) {
      acs_formatError(error, error_sz, "block_adr[%d] = %d: blocks must be contiguous (%d)",
                      k, p->block_adr[k], nrow);
      return -1;
    }
    int ok = (type == acsBLOCK_CONTACT) ? (dim == 1 || dim == 3 || dim == 4 || dim == 6) :
             (type == acsBLOCK_EQUALITY) ? (dim >= 1 && dim <= 6) : dim == 1;
    if (!ok) {
      acs_formatError(error, error_sz, "block_dim[%d] = %d: contacts have 1, 3, 4 or 6 rows, "
                      "equality 1 to 6, friction loss and limits 1", k, dim);
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
    }
    if (type == acsBLOCK_FRICTION && (!(p->block_floss[k] >= 0) || !isfinite(p->block_floss[k]))) {
      acs_formatError(error, error_sz, "block_floss[%d] = %g: must be finite and >= 0",
                      k, p->block_floss[k]);
      return -1;
    }
    nrow += dim;
  }
  if (nrow != p->nefc) {
    acs_formatError(error, error_sz, "blocks hold %d rows, nefc = %d", nrow, p->nefc);
    return -1;
  }
  for (int r=0; r < p->nefc; r++) {
    if (!isfinite(p->b[r]) || (p->R && (!(p->R[r] >= 0) || !isfinite(p->R[r])))) {
      acs_formatError(error, error_sz, "row %d: b and R must be finite (R >= 0)", r);
      return -1;
    }
    if (checkRow(p->J_colind + p->J_rowadr[r], p->J_rownnz[r], p->nv) ||
        (p->Y && checkRow(p->Y_colind + p->Y_rowadr[r], p->Y_rownnz[r], p->nv))) {
      acs_formatError(error, error_sz, "row %d: column indices of J or Y must be sorted and in "
                      "[0, %d)", r, p->nv);
      return -1;
    }
    for (int i=0; i < p->J_rownnz[r]; i++) {
      if (!isfinite(p->J[p->J_rowadr[r] + i])) {
        acs_formatError(error, error_sz, "row %d: J has a non-finite value", r);
        return -1;
      }
    }
    for (int i=0; p->Y && i < p->Y_rownnz[r]; i++) {
      if (!isfinite(p->Y[p->Y_rowadr[r] + i])) {
        acs_formatError(error, error_sz, "row %d: Y has a non-finite value", r);
        return -1;
      }
    }
  }
  return 0;
}
