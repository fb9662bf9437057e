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
