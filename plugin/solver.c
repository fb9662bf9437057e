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
#include "context.h"
#include "metrics.h"

const acsSolverInfo acsSOLVERS[acsNSOLVER] = {
  [acsSOL_NATIVE] = {"native", "MuJoCo's own constraint solver (soft convex model), as mj_step",
                     NULL, NULL},
  [acsSOL_PGS]    = {"pgs", "NCP with De Saxce correction, projected Gauss-Seidel",
                     acs_pgsWorkspace, acs_pgsSolve},
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


int acs_solve(mjtNum* force, acsStats* stats, const acsProblem* p,
              const acsSettings* settings, void* work, size_t work_sz) {
  acsStats local;
  if (!stats) {
    stats = &local;
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

  // align the caller's block to 64 bytes
  char* base = (char*)work;
  base += (64 - ((uintptr_t)base & 63)) & 63;

  double t0 = acs_timeMicro();
  int status = acsSOLVERS[solver].solve(force, stats, base, p, settings);

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
        checkRow(p->Y_colind + p->Y_rowadr[r], p->Y_rownnz[r], p->nv)) {
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
    for (int i=0; i < p->Y_rownnz[r]; i++) {
      if (!isfinite(p->Y[p->Y_rowadr[r] + i])) {
        acs_formatError(error, error_sz, "row %d: Y has a non-finite value", r);
        return -1;
      }
    }
  }
  return 0;
}
