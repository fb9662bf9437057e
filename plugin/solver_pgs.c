// Copyright 2026 The acs authors.
//
// NCP with De Saxce correction solved by projected Gauss-Seidel (Le Lidec et al., "Contact
// models in robotics", Alg. 6; Pinocchio's PGSContactSolver), extended to every row kind MuJoCo
// makes. One sweep visits the blocks in order; for block k with current velocity a_k = (G f + b)_k:
//
//   equality      exact block solve  f_k -= omega G_kk^-1 a_k  (bilateral, force free)
//   friction loss f <- clamp(f - omega a / G_kk, -fl, fl)
//   limit, condim-1 contact   f <- max(0, f - omega a / G_kk)
//   contact       1. stick test: the local solve f* = f_k - G_kk^-1 a_k makes a_k = 0; if f* is
//                    in the cone K it is the exact local NCP solution (stick): take it.
//                 2. otherwise Alg. 6: normal step f_n <- max(0, f_n - omega a_n / G_nn), update
//                    a_t for the new f_n, tangential gradient step in the scaled coordinates
//                    f~_j = f_j / mu_j (where K is a round cone):
//                      f_j <- f_j - s mu_j^2 a_j,  s = omega / lambda_max(G~_tt)  (Gershgorin)
//                    then the horizontal projection onto the cone at fixed f_n.
//
// A fixed point of step 2 has f_t on the cone surface with a_t opposite to f~_t in the scaled
// coordinates, i.e. maximal dissipation, and f_n _|_ a_n: the NCP (15) of the paper. The scalar
// tangential step matters: a matrix step (G_tt^-1) would converge to a non-dissipative point.
//
// w = M^-1 J' f is kept up to date after every block, so one block costs O(dim * nnz(row)).
// The solve stops on the NCP residual (metrics.c), on stalling, or after maxiter sweeps.

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "metrics.h"
#include "solver.h"

// relative regularization of a block's Delassus matrix before factorization: a hyperstatic or
// redundant block (for example two identical equality rows) has a singular G_kk
#define kRegularization 1e-12

typedef struct pgsWork_ {
  mjtNum* w;                      // M^-1 J' f                                   (nv)
  mjtNum* a;                      // G f + b                                     (nefc)
  mjtNum* fprev;                  // force before the sweep                      (nefc)
  mjtNum* G;                      // diagonal blocks G_kk (+R)                   (sum dim^2)
  mjtNum* Ginv;                   // their (regularized) inverses                (sum dim^2)
  mjtNum* step;                   // tangential step of each contact block       (nblock)
  int*    Gadr;                   // address of block k in G and L               (nblock)
} pgsWork;


// carve the workspace (count only when arena->base is NULL)
static void pgsLayout(pgsWork* pw, acsArena* arena, const acsProblem* p) {
  int nG = 0;
  for (int k=0; k < p->nblock; k++) {
    nG += p->block_dim[k] * p->block_dim[k];
  }
  pw->w     = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  pw->a     = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  pw->fprev = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  pw->G     = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  pw->Ginv  = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  pw->step  = acs_arenaAlloc(arena, p->nblock, sizeof(mjtNum));
  pw->Gadr  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
}


size_t acs_pgsWorkspace(const acsProblem* p, const acsSettings* s) {
  (void)s;
  pgsWork pw;
  acsArena arena = {NULL, 0};
  pgsLayout(&pw, &arena, p);
  return arena.used;
}


// inverse of a dim x dim block, through a Cholesky factor with relative regularization
static void invertBlock(mjtNum* Ginv, const mjtNum* G, int dim) {
  mjtNum L[36], e[6];
  mjtNum maxdiag = 0;
  for (int i=0; i < dim; i++) {
    maxdiag = mju_max(maxdiag, G[i*dim+i]);
  }
  mjtNum reg = kRegularization * maxdiag + mjMINVAL;
  mju_copy(L, G, dim*dim);
  for (int i=0; i < dim; i++) {
    L[i*dim+i] += reg;
  }
  mju_cholFactor(L, dim, reg);
  for (int j=0; j < dim; j++) {
    mju_zero(e, dim);
    e[j] = 1;
    mju_cholSolve(Ginv + j*dim, L, e, dim);   // column j (Ginv is symmetric)
  }
}


// tangential step of a contact: omega / lambda_max of the scaled tangential block
// G~_ij = mu_i mu_j G_ij (Gershgorin bound)
static mjtNum tangentStep(const mjtNum* G, const mjtNum* mu, int dim, mjtNum omega) {
  mjtNum bound = 0;
  for (int i=1; i < dim; i++) {
    mjtNum row = 0;
    for (int j=1; j < dim; j++) {
      row += mju_abs(mu[i-1] * mu[j-1] * G[i*dim+j]);
    }
    bound = mju_max(bound, row);
  }
  return bound > mjMINVAL ? omega / bound : 0;
}


// one Gauss-Seidel update of contact block k; f, a: the block's force and velocity
static void updateContact(mjtNum* f, const mjtNum* a, const mjtNum* G, const mjtNum* Ginv,
                          const mjtNum* mu, int dim, mjtNum omega, mjtNum tstep) {
  mjtNum fold[6], ft[6];
  mju_copy(fold, f, dim);

  // 1. stick: exact local solve, accepted if it lies in the cone
  mju_mulMatVec(ft, Ginv, a, dim, dim);
  for (int i=0; i < dim; i++) {
    ft[i] = f[i] - ft[i];
  }
  if (ft[0] >= 0 && acsu_coneNorm(ft, mu, dim) <= ft[0]) {
    for (int i=0; i < dim; i++) {
      f[i] = fold[i] + omega * (ft[i] - fold[i]);
    }
    if (f[0] < 0) {
      f[0] = 0;
    }
    acsu_clampFriction(f, mu, dim);
    return;
  }

  // 2. normal step
  mjtNum fn = f[0] - omega * a[0] / G[0];
  f[0] = fn > 0 ? fn : 0;
  mjtNum dfn = f[0] - fold[0];

  // tangential velocity after the normal update, gradient step in scaled coordinates
  for (int j=1; j < dim; j++) {
    mjtNum at = a[j] + G[j*dim] * dfn;
    f[j] -= tstep * mu[j-1] * mu[j-1] * at;
  }

  // horizontal projection onto the cone
  acsu_clampFriction(f, mu, dim);
}


int acs_pgsSolve(mjtNum* force, acsStats* stats, void* work,
                 const acsProblem* p, const acsSettings* s) {
  pgsWork pw;
  acsArena arena = {work, 0};
  pgsLayout(&pw, &arena, p);
  mjtNum omega = s->omega;

  // diagonal blocks, their factors and the contacts' tangential steps
  int adrG = 0;
  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k];
    pw.Gadr[k] = adrG;
    acs_blockDelassus(pw.G + adrG, p, k);
    invertBlock(pw.Ginv + adrG, pw.G + adrG, dim);
    pw.step[k] = (p->block_type[k] == acsBLOCK_CONTACT && dim > 1) ?
                 tangentStep(pw.G + adrG, p->block_mu + 5*k, dim, omega) : 0;
    adrG += dim*dim;
  }

  // project the warm start onto the feasible set, then w = M^-1 J' f
  for (int k=0; k < p->nblock; k++) {
    mjtNum* f = force + p->block_adr[k];
    switch ((acstBlock) p->block_type[k]) {
    case acsBLOCK_FRICTION:
      f[0] = mju_clip(f[0], -p->block_floss[k], p->block_floss[k]);
      break;
    case acsBLOCK_LIMIT:
      f[0] = f[0] > 0 ? f[0] : 0;
      break;
    case acsBLOCK_CONTACT:
      f[0] = f[0] > 0 ? f[0] : 0;
      acsu_clampFriction(f, p->block_mu + 5*k, p->block_dim[k]);
      break;
    default:
      break;
    }
  }
  acs_mulYT(pw.w, p, force);

  // residual of the warm start: done if it already solves the problem
  acs_velocity(pw.a, p, pw.w, force);
  mjtNum residual = acs_residual(p, force, pw.a);
  stats->residual = residual;
  stats->niter = 0;
  stats->nhistory = 0;
  if (residual <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }

  int status = acsSTATUS_MAXITER;
  for (int iter=0; iter < s->maxiter; iter++) {
    mju_copy(pw.fprev, force, p->nefc);

    // sweep
    for (int k=0; k < p->nblock; k++) {
      int dim = p->block_dim[k], adr = p->block_adr[k];
      const mjtNum* G = pw.G + pw.Gadr[k];
      mjtNum* f = force + adr;
      mjtNum a[6], fold[6], df[6];
      acs_velocityBlock(a, p, k, pw.w, force);
      mju_copy(fold, f, dim);

      switch ((acstBlock) p->block_type[k]) {
      case acsBLOCK_EQUALITY:
        mju_mulMatVec(df, pw.Ginv + pw.Gadr[k], a, dim, dim);
        for (int r=0; r < dim; r++) {
          f[r] -= omega * df[r];
        }
        break;

      case acsBLOCK_FRICTION:
        f[0] = mju_clip(f[0] - omega * a[0] / (G[0] + mjMINVAL),
                        -p->block_floss[k], p->block_floss[k]);
        break;

      case acsBLOCK_LIMIT:
        f[0] = mju_max(0, f[0] - omega * a[0] / (G[0] + mjMINVAL));
        break;

      case acsBLOCK_CONTACT:
        if (dim == 1) {
          f[0] = mju_max(0, f[0] - omega * a[0] / (G[0] + mjMINVAL));
        } else {
          updateContact(f, a, G, pw.Ginv + pw.Gadr[k], p->block_mu + 5*k, dim, omega,
                        pw.step[k]);
        }
        break;

      default:
        break;
      }

      // keep w = M^-1 J' f current
      for (int r=0; r < dim; r++) {
        df[r] = f[r] - fold[r];
      }
      acs_addYTBlock(pw.w, p, k, df);
    }

    // convergence: NCP residual of the new iterate
    acs_velocity(pw.a, p, pw.w, force);
    residual = acs_residual(p, force, pw.a);
    stats->niter = iter + 1;
    if (iter < acsNHISTORY) {
      stats->history[iter] = residual;
      stats->nhistory = iter + 1;
    }
    if (!isfinite(residual)) {
      status = acsSTATUS_DIVERGED;
      break;
    }
    if (residual <= s->tolerance) {
      status = acsSTATUS_CONVERGED;
      break;
    }

    // stall: largest force change relative to the largest force
    mjtNum change = 0, fmax = 0;
    for (int r=0; r < p->nefc; r++) {
      mjtNum c = fabs(force[r] - pw.fprev[r]), v = fabs(force[r]);
      change = c > change ? c : change;
      fmax = v > fmax ? v : fmax;
    }
    if (change <= s->rel_tolerance * fmax) {
      status = acsSTATUS_STALLED;
      break;
    }
  }

  stats->residual = residual;
  return status;
}
