// Copyright 2026 The acs authors.
//
// The projected block Gauss-Seidel driver (pgs family, raisim) and its subspace minimization.

#include "gauss_seidel.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "operator.h"
#include "residual.h"
#include "solver_util.h"
#include "util_errmem.h"

// islands of more rows than this take no subspace step (its dense factorization costs n^3 / 6)
#define kSubspaceMax 128

// smallest pivot of the subspace step's factorization, relative to the row's own diagonal (the
// squared sine of the angle between the row and the span of the rows before it): a hyperstatic set
// (more sticking rows than the bodies have degrees of freedom) makes G_FF singular or nearly so; a
// row whose pivot falls below this depends on the rows before it and takes no step. A clamped
// pivot turns the velocity left in such a row into forces of 1e3 times the weight (seen on the
// lying humanoid); measured there (steps 300 to 1300), 1e-6 to 1e-8 converge alike
#define kSubspacePivot 1e-7

// sweeps between the first two subspace steps on an unchanged active set; the gap doubles after
// each step that leaves the residual above the tolerance (a step costs a few sweeps: on a
// hyperstatic set whose stabilization asks more than the rows' span holds, steps and sweeps can
// take turns without converging)
#define kSubspaceGap 2


void acs_sweepLayout(acsSweep* gs, acsArena* arena, const acsProblem* p) {
  int nisland = acs_islandCount(p);
  size_t nH = 0;
  for (int i=0; i < nisland; i++) {
    size_t ni = acs_islandRows(p, i);
    nH += ni <= kSubspaceMax ? ni*ni : 0;
  }
  gs->w            = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  gs->a            = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->fprev        = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  acs_blocksLayout(&gs->blocks, arena, p);
  gs->active       = acs_arenaAlloc(arena, p->nblock, 1);
  gs->active_prev  = acs_arenaAlloc(arena, p->nblock, 1);
  gs->rows         = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  gs->island_start = acs_arenaAlloc(arena, nisland + 1, sizeof(int));
  gs->island_Hadr  = acs_arenaAlloc(arena, nisland, sizeof(int));
  gs->H            = acs_arenaAlloc(arena, nH, sizeof(mjtNum));
  gs->dx           = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->fsave        = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->wsave        = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  gs->asave        = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
}


//---------------------------------- subspace minimization -----------------------------------------

// does force f of block k hold its constraint with equality (its rows free in the subspace step):
// an equality, a limit or condim-1 contact pushing, friction loss inside its bound, a contact
// sticking strictly inside the law's cone
static int blockActive(const mjtNum* f, const acsProblem* p, int k, int model) {
  int dim = p->block_dim[k];
  switch ((acstBlock) p->block_type[k]) {
  case acsBLOCK_EQUALITY:
    return 1;
  case acsBLOCK_FRICTION:
    return mju_abs(f[0]) < p->block_floss[k];
  case acsBLOCK_LIMIT:
    return f[0] > 0;
  case acsBLOCK_CONTACT: {
    if (!(f[0] > 0) || dim == 1) {
      return f[0] > 0;
    }
    const mjtNum* mu = p->block_mu + 5*k;
    if (model == acsMODEL_LCP) {
      for (int j=1; j < dim; j++) {
        if (!(mju_abs(f[j]) < mu[j-1] * f[0])) {
          return 0;
        }
      }
      return 1;
    }
    return acsu_coneNorm(f, mu, dim) < f[0];
  }
  default:
    return 0;
  }
}


// the active set of force: gs->active (the previous one moved to gs->active_prev); return 1 if it
// is the previous one
static int activeSet(acsSweep* gs, const mjtNum* force, const acsProblem* p, int model) {
  int same = 1;
  for (int k=0; k < p->nblock; k++) {
    unsigned char act = blockActive(force + p->block_adr[k], p, k, model);
    gs->active_prev[k] = gs->active[k];
    same = same && act == gs->active_prev[k];
    gs->active[k] = act;
  }
  return same;
}


// Cholesky factor L (lower triangle of H, row-major n x n) of a positive semi-definite H, in
// place; a row whose pivot is at most kSubspacePivot times its diagonal depends on the rows before
// it: its diagonal is set to 0 and its column below to zero (the row is dropped)
static void denseFactor(mjtNum* H, int n) {
  for (int j=0; j < n; j++) {
    mjtNum d = H[j*n+j] - mju_dot(H + j*n, H + j*n, j);
    if (!(d > kSubspacePivot * H[j*n+j] + mjMINVAL)) {
      H[j*n+j] = 0;
      for (int i=j+1; i < n; i++) {
        H[i*n+j] = 0;
      }
      continue;
    }
    mjtNum ljj = mju_sqrt(d);
    H[j*n+j] = ljj;
    for (int i=j+1; i < n; i++) {
      H[i*n+j] = (H[i*n+j] - mju_dot(H + i*n, H + j*n, j)) / ljj;
    }
  }
}


// x = H^-1 x with the factor of denseFactor, in place; a dropped row's unknown is 0
static void denseSolve(mjtNum* x, const mjtNum* L, int n) {
  for (int i=0; i < n; i++) {
    x[i] = L[i*n+i] > 0 ? (x[i] - mju_dot(L + i*n, x, i)) / L[i*n+i] : 0;
  }
  for (int i=n-1; i >= 0; i--) {
    if (L[i*n+i] > 0) {
      mjtNum s = x[i];
      for (int j=i+1; j < n; j++) {
        s -= L[j*n+i] * x[j];
      }
      x[i] = s / L[i*n+i];
    } else {
      x[i] = 0;
    }
  }
}


// the Newton step on the rows of the active set: island by island, dx_F = -(G_FF + R_F)^-1 a_F
// with the other rows held; return 0 if no island has free rows
static int subspaceNewton(acsSweep* gs, const acsProblem* p) {
  int nisland = acs_islandCount(p);

  // free rows, island by island (island_Hadr counts the rows placed so far)
  memset(gs->island_start, 0, (nisland + 1) * sizeof(int));
  for (int k=0; k < p->nblock; k++) {
    if (gs->active[k]) {
      gs->island_start[acs_blockIsland(p, k) + 1] += p->block_dim[k];
    }
  }
  for (int i=0; i < nisland; i++) {
    gs->island_start[i+1] += gs->island_start[i];
    gs->island_Hadr[i] = 0;
  }
  for (int k=0; k < p->nblock; k++) {
    if (gs->active[k]) {
      int i = acs_blockIsland(p, k);
      for (int r=0; r < p->block_dim[k]; r++) {
        gs->rows[gs->island_start[i] + gs->island_Hadr[i]++] = p->block_adr[k] + r;
      }
    }
  }

  // factorize and solve each island small enough
  int any = 0;
  size_t hadr = 0;
  for (int i=0; i < nisland; i++) {
    int ni = acs_islandRows(p, i), start = gs->island_start[i];
    int n = gs->island_start[i+1] - start;
    gs->island_Hadr[i] = -1;
    if (ni > kSubspaceMax) {
      continue;
    }
    mjtNum* H = gs->H + hadr;
    hadr += (size_t)ni * ni;
    if (n == 0) {
      continue;
    }
    gs->island_Hadr[i] = 1;
    const int* rows = gs->rows + start;
    acs_delassusRows(H, p, rows, n, NULL, gs->wsave);   // wsave: scratch until the step
    for (int a=0; a < n; a++) {
      gs->dx[start+a] = -gs->a[rows[a]];
    }
    denseFactor(H, n);
    denseSolve(gs->dx + start, H, n);
    any = 1;
  }
  return any;
}


// one subspace minimization step from force (w, a, ncp and res current): kept, with the new
// w, a and residuals, if it lowers the law's residual res. Return 1 if kept
static int subspaceStep(mjtNum* force, mjtNum* ncp, mjtNum* res, acsSweep* gs,
                        const acsProblem* p, int model) {
  if (!subspaceNewton(gs, p)) {
    return 0;
  }
  mju_copy(gs->fsave, force, p->nefc);
  mju_copy(gs->wsave, gs->w, p->nv);
  mju_copy(gs->asave, gs->a, p->nefc);
  for (int i=0; i < acs_islandCount(p); i++) {
    if (gs->island_Hadr[i] >= 0) {
      for (int j=gs->island_start[i]; j < gs->island_start[i+1]; j++) {
        force[gs->rows[j]] += gs->dx[j];
      }
    }
  }
  for (int k=0; k < p->nblock; k++) {
    if (gs->active[k]) {
      acs_projectBlock(force + p->block_adr[k], p, k, model);
    }
  }
  acs_mulYT(gs->w, p, force);
  acs_velocity(gs->a, p, gs->w, force);
  mjtNum ncpnew = acs_residual(p, force, gs->a, acsMODEL_NCP);
  mjtNum resnew = model == acsMODEL_NCP ? ncpnew : acs_residual(p, force, gs->a, model);
  if (resnew < *res) {
    *ncp = ncpnew;
    *res = resnew;
    return 1;
  }
  mju_copy(force, gs->fsave, p->nefc);
  mju_copy(gs->w, gs->wsave, p->nv);
  mju_copy(gs->a, gs->asave, p->nefc);
  return 0;
}


//---------------------------------- Gauss-Seidel driver -------------------------------------------

int acs_gaussSeidel(mjtNum* force, acsStats* stats, acsSweep* gs, const acsProblem* p,
                    const acsSettings* s, int model, mjtNum relax, mjtNum relax_min,
                    mjtNum gamma, acsfContactUpdate update, void* arg) {
  // the warm start (or zero forces if better), w = M^-1 J' f, a = G f + b and their residuals:
  // done if it already solves the problem
  mjtNum ncp, res;
  acs_startForces(force, gs->w, gs->a, &ncp, &res, p, model);
  stats->residual = ncp;
  stats->niter = 0;
  stats->nhistory = 0;
  stats->nfactor = 0;
  if (res <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }
  memset(gs->active, 0, p->nblock);
  activeSet(gs, force, p, model);

  const acsBlocks* B = &gs->blocks;
  int status = -1;
  int next = 1;           // first sweep that may take a subspace step
  int gap = kSubspaceGap; // sweeps to the next one after a step kept
  for (int iter=0; status < 0; iter++) {
    mju_copy(gs->fprev, force, p->nefc);

    // sweep
    for (int k=0; k < p->nblock; k++) {
      int dim = p->block_dim[k], adr = p->block_adr[k];
      acsASSERT(dim >= 1 && dim <= 6);   // acs_checkProblem and the assembly guarantee it
      mjtNum* f = force + adr;
      mjtNum a[6], fold[6], df[6];
      acs_velocityBlock(a, p, k, gs->w, force);
      mju_copy(fold, f, dim);
      if (!acs_updateSimpleBlock(f, a, B, p, k, relax)) {
        update(f, a, B, p, k, relax, arg);
      }

      // keep w = M^-1 J' f current
      for (int r=0; r < dim; r++) {
        df[r] = f[r] - fold[r];
      }
      acs_addYTBlock(gs->w, p, k, df);
    }

    // convergence: residual of the new iterate
    acs_velocity(gs->a, p, gs->w, force);
    ncp = acs_residual(p, force, gs->a, acsMODEL_NCP);
    res = model == acsMODEL_NCP ? ncp : acs_residual(p, force, gs->a, model);

    // subspace minimization once the sweeps keep the active set, the gap between steps doubling;
    // after a step that did not lower the residual, only on a new active set
    if (s->subspace && model == acsMODEL_NCP && !(res <= s->tolerance) && isfinite(res)) {
      if (!activeSet(gs, force, p, model)) {
        next = next == INT_MAX ? iter + 1 : next;
      } else if (iter >= next) {
        stats->nfactor++;
        int kept = subspaceStep(force, &ncp, &res, gs, p, model);
        next = kept ? iter + gap : INT_MAX;
        gap *= 2;
      }
    }
    status = acs_iterationEnd(stats, iter, ncp, res, force, gs->fprev, p->nefc, s);
    relax = gamma * relax + (1 - gamma) * relax_min;
  }
  return status;
}
