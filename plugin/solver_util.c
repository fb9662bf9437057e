// Copyright 2026 The acs authors.
//
// What the problem solvers share: the workspace layout, the islands (block lists, residuals,
// statuses and history of a solve run island by island), the projection
// onto a law's feasible set, the start of a dual solve (warm start or zero), the diagonal blocks
// and simple block updates of the Gauss-Seidel solvers, and conjugate gradients.

#include "solver_util.h"

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "operator.h"
#include "residual.h"
#include "util_errmem.h"

//---------------------------------- workspace arena -----------------------------------------------

size_t acs_layoutBytes(acsfLayout layout, void* work, const acsProblem* p) {
  acsArena arena = {NULL, 0};
  layout(work, &arena, p);
  return arena.used;
}


//---------------------------------- islands -------------------------------------------------------

int acs_islandCount(const acsProblem* p) {
  return p->block_island ? p->nisland : (p->nefc > 0 ? 1 : 0);
}


int acs_islandRows(const acsProblem* p, int i) {
  return p->block_island ? p->island_nefc[i] : p->nefc;
}


int acs_blockIsland(const acsProblem* p, int k) {
  return p->block_island ? p->block_island[k] : 0;
}


void acs_islandBlocks(int* block, int* start, int* cursor, const acsProblem* p) {
  int nisland = acs_islandCount(p);
  memset(start, 0, (nisland + 1) * sizeof(int));
  for (int k=0; k < p->nblock; k++) {
    start[acs_blockIsland(p, k) + 1]++;
  }
  for (int i=0; i < nisland; i++) {
    start[i+1] += start[i];
    cursor[i] = start[i];
  }
  for (int k=0; k < p->nblock; k++) {
    block[cursor[acs_blockIsland(p, k)]++] = k;
  }
}


void acs_islandHistory(acsStats* stats, int iter, mjtNum ncp, mjtNum done) {
  if (iter >= acsNHISTORY) {
    return;
  }
  if (iter >= stats->nhistory) {
    stats->history[iter] = done;
    stats->nhistory = iter + 1;
  }
  stats->history[iter] = mju_max(stats->history[iter], ncp);
}


void acs_islandHistoryEnd(acsStats* stats, int niter, mjtNum last) {
  for (int t=niter; t < stats->nhistory; t++) {
    stats->history[t] = mju_max(stats->history[t], last);
  }
}


int acs_worseStatus(int a, int b) {
  static const int rank[acsNSTATUS] = {
    [acsSTATUS_CONVERGED] = 0, [acsSTATUS_STALLED] = 1, [acsSTATUS_MAXITER] = 2,
    [acsSTATUS_DIVERGED] = 3,
  };
  return rank[a] >= rank[b] ? a : b;
}


void acs_blocksResidual(mjtNum* ncp, mjtNum* res, mjtNum* a, const acsProblem* p,
                        const int* blocks, int nblock, const unsigned char* shared,
                        const mjtNum* w, const mjtNum* f, int model) {
  for (int j=0; j < nblock; j++) {
    int k = blocks[j];
    acs_velocityBlock(a + p->block_adr[k], p, k, w, f, shared ? shared[k] : 0);
  }
  acs_blocksResidualAt(ncp, res, a, p, blocks, nblock, f, model);
}


void acs_blocksResidualAt(mjtNum* ncp, mjtNum* res, const mjtNum* a, const acsProblem* p,
                          const int* blocks, int nblock, const mjtNum* f, int model) {
  *ncp = *res = 0;
  for (int j=0; j < nblock; j++) {
    int k = blocks[j], adr = p->block_adr[k];
    mjtNum rn = acs_blockResidual(p, k, f + adr, a + adr, acsMODEL_NCP);
    mjtNum rm = model == acsMODEL_NCP ? rn : acs_blockResidual(p, k, f + adr, a + adr, model);
    *ncp = rn > *ncp || isnan(rn) ? rn : *ncp;
    *res = rm > *res || isnan(rm) ? rm : *res;
  }
}



//---------------------------------- iterations ----------------------------------------------------

void acs_projectBlock(mjtNum* fk, const acsProblem* p, int k, int model) {
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


void acs_projectFeasible(mjtNum* f, const acsProblem* p, int model) {
  for (int k=0; k < p->nblock; k++) {
    acs_projectBlock(f + p->block_adr[k], p, k, model);
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
                    acsStats* stats, const acsProblem* p, int model) {
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
  stats->residual = *resncp;
  stats->niter = 0;
  stats->nhistory = 0;
  stats->nfactor = 0;
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
  b->shared = acs_arenaAlloc(arena, p->nblock, 1);
}


void acs_invertBlock(mjtNum* Ginv, const mjtNum* G, int dim) {
  mjtNum maxdiag = 0;
  for (int i=0; i < dim; i++) {
    maxdiag = mju_max(maxdiag, G[i*dim+i]);
  }
  mjtNum mindiag = kMinPivot * maxdiag + mjMINVAL;

  // the factor G = L L' (lower triangle), a pivot below mindiag raised to it (singular blocks),
  // then X = L^-1 by forward substitution and G^-1 = X' X, its lower triangle formed and
  // mirrored (exactly symmetric). Written out for the small block: MuJoCo's mju_cholFactor and
  // mju_cholSolve, once per column, took 7.0% of pgs's step on the lying humanoid (acs-bench,
  // perf), this 2.4%
  mjtNum L[36], X[36];
  for (int j=0; j < dim; j++) {
    for (int i=j; i < dim; i++) {
      mjtNum sum = G[i*dim+j];
      for (int k=0; k < j; k++) {
        sum -= L[i*dim+k] * L[j*dim+k];
      }
      if (i == j) {
        L[j*dim+j] = mju_sqrt(sum < mindiag ? mindiag : sum);
      } else {
        L[i*dim+j] = sum / L[j*dim+j];
      }
    }
  }
  for (int j=0; j < dim; j++) {
    X[j*dim+j] = 1 / L[j*dim+j];
    for (int i=j+1; i < dim; i++) {
      mjtNum sum = 0;
      for (int k=j; k < i; k++) {
        sum += L[i*dim+k] * X[k*dim+j];
      }
      X[i*dim+j] = -sum / L[i*dim+i];
    }
  }
  for (int i=0; i < dim; i++) {
    for (int j=0; j <= i; j++) {
      mjtNum sum = 0;
      for (int k=i; k < dim; k++) {
        sum += X[k*dim+i] * X[k*dim+j];
      }
      Ginv[i*dim+j] = Ginv[j*dim+i] = sum;
    }
  }
}


void acs_blocksCompute(acsBlocks* b, const acsProblem* p) {
  int adr = 0;
  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k];
    b->adr[k] = adr;
    b->shared[k] = (unsigned char) acs_sharedPattern(p, k);
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


mjtNum acs_contactTangentStep(const mjtNum* G, const mjtNum* mu, int dim, mjtNum omega) {
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


// the share of the way to the exact friction that the NCP update takes on contacts with torsional
// or rolling friction (tstep < 0), times the relaxation omega (1 by default). Perturbed runs
// (every joint, 8 runs at each of the amplitudes 1e-3, 1e-2 and 3e-4, 300 steps after 100),
// pgs's converged steps and sweeps a step against the gradient step's: the Shadow hand 95.6%
// and 6.4 with its limits and friction losses paired too (94.0% and 9.6; the exact friction
// alone 95.6% and 7.4), the dog 85.0% and 23.6 (79.2% and 32.0). At 1e-3 alone, before
// limits and friction losses were paired: the dog 66.4% with the whole way, 79.8% with 0.7,
// 80.0% with 0.5 and 78.8% with 0.3 (the gradient step 78.8%), the hand 96.8%, 96.2%, 96.8% and
// 93.8% (92.4%)
#define kExactShare 0.5


// an upper bound of the largest eigenvalue of a square matrix A (n x n): its largest row sum of
// absolute values (Gershgorin)
static mjtNum gershgorin(const mjtNum* A, int n) {
  mjtNum bound = 0;
  for (int i=0; i < n; i++) {
    mjtNum row = 0;
    for (int j=0; j < n; j++) {
      row += mju_abs(A[i*n+j]);
    }
    bound = mju_max(bound, row);
  }
  return bound;
}


// the Cholesky factor L (row-major, lower) of A + lam I (n x n); return 0 if not positive definite
static int cholShift(mjtNum* L, const mjtNum* A, mjtNum lam, int n) {
  for (int i=0; i < n; i++) {
    for (int j=0; j <= i; j++) {
      mjtNum s = A[i*n+j] + (i == j ? lam : 0);
      for (int k=0; k < j; k++) {
        s -= L[i*n+k] * L[j*n+k];
      }
      if (i == j) {
        if (!(s > 0)) {
          return 0;
        }
        L[i*n+i] = mju_sqrt(s);
      } else {
        L[i*n+j] = s / L[j*n+j];
      }
    }
  }
  return 1;
}


// x = L^-1 v (forward substitution; x and v may alias)
static void lowerSolve(mjtNum* x, const mjtNum* L, const mjtNum* v, int n) {
  for (int i=0; i < n; i++) {
    mjtNum s = v[i];
    for (int k=0; k < i; k++) {
      s -= L[i*n+k] * x[k];
    }
    x[i] = s / L[i*n+i];
  }
}


// x = L^-T v (backward substitution; x and v may alias)
static void upperSolve(mjtNum* x, const mjtNum* L, const mjtNum* v, int n) {
  for (int i=n-1; i >= 0; i--) {
    mjtNum s = v[i];
    for (int k=i+1; k < n; k++) {
      s -= L[k*n+i] * x[k];
    }
    x[i] = s / L[i*n+i];
  }
}


// the friction of a contact at its normal force f[0] under the NCP, exactly: in the scaled
// coordinates u = f_t / mu (the cone a ball |u| <= f_n), the u that minimizes 1/2 u'H u + c'u
// with H = diag(mu) G_tt diag(mu) and c = mu o (a_t - G_tt f_t) (a_t: the tangential velocity
// at the forces f), whose optimality conditions are maximal dissipation: H u + c (the scaled
// slip) opposite to u on the ball's surface, or zero inside. u = -(H + lam I)^-1 c, lam >= 0
// the root of |u(lam)| = f_n if -H^-1 c is outside: Newton's method on 1 / |u(lam)| (More and
// Sorensen), from the left, where it increases monotonically to the root
static void tangentSolve(mjtNum* u, const mjtNum* f, const mjtNum* at, const mjtNum* G,
                         const mjtNum* mu, int dim) {
  int n = dim - 1;
  mjtNum H[25], L[25], c[5], z[5], fn = f[0], trace = 0;
  for (int i=0; i < n; i++) {
    c[i] = at[i+1];
    for (int j=0; j < n; j++) {
      c[i] -= G[(i+1)*dim + j+1] * f[j+1];
      H[i*n+j] = mu[i] * G[(i+1)*dim + j+1] * mu[j];
    }
    c[i] *= mu[i];
    trace += H[i*n+i];
  }
  if (!(fn > 0) || !(trace > 0)) {
    mju_zero(u, n);
    return;
  }
  // from a lower bound of the root: |u(lam)| >= |c| / (lam + lambda_max(H))
  mjtNum lam = mju_max(0, mju_norm(c, n) / fn - gershgorin(H, n));
  mju_zero(u, n);                               // no factor at all (G not finite): no friction
  for (int iter=0; iter < 30; iter++) {
    if (!cholShift(L, H, lam, n)) {             // H singular: from just right of 0
      lam = mju_max(2 * lam, 1e-12 * trace);
      continue;
    }
    for (int i=0; i < n; i++) {
      u[i] = -c[i];
    }
    lowerSolve(u, L, u, n);
    upperSolve(u, L, u, n);
    mjtNum norm = mju_norm(u, n);
    if (norm <= fn * (1 + 1e-10)) {             // inside (lam = 0), or at the root
      break;
    }
    lowerSolve(z, L, u, n);                     // q = u' (H + lam I)^-1 u
    mjtNum q = mju_dot(z, z, n);
    mjtNum step = (norm / fn - 1) * norm * norm / q;
    lam += step;
    if (step <= 1e-14 * lam) {
      break;
    }
  }
  mju_scl(u, u, fn / mju_max(fn, mju_norm(u, n)), n);
}


void acs_updateContactBlock(mjtNum* f, const mjtNum* a, const mjtNum* G, const mjtNum* Ginv,
                            const mjtNum* mu, int dim, mjtNum omega, mjtNum tstep, int model) {
  mjtNum fold[6], ft[6], at[6];
  mju_copy(fold, f, dim);

  // 1. stick: exact local solve, accepted if it lies in the law's cone
  mju_mulMatVec(ft, Ginv, a, dim, dim);
  for (int i=0; i < dim; i++) {
    ft[i] = f[i] - ft[i];
  }
  int inside = ft[0] >= 0;
  if (model == acsMODEL_LCP) {
    for (int j=1; j < dim && inside; j++) {
      inside = mju_abs(ft[j]) <= mu[j-1] * ft[0];
    }
  } else {
    inside = inside && acsu_coneNorm(ft, mu, dim) <= ft[0];
  }
  if (inside) {
    for (int i=0; i < dim; i++) {
      f[i] = fold[i] + omega * (ft[i] - fold[i]);
    }
    if (f[0] < 0) {
      f[0] = 0;
    }
    if (model == acsMODEL_LCP) {
      for (int j=1; j < dim; j++) {
        f[j] = mju_clip(f[j], -mu[j-1]*f[0], mu[j-1]*f[0]);
      }
    } else {
      acsu_clampFriction(f, mu, dim);
    }
    return;
  }

  // 2. CCP: projected gradient step on the block, h = omega / lambda_max(G_kk) with the
  //    Gershgorin bound (a step 3 / trace would exceed 2 / lambda_max on an anisotropic block,
  //    a cube corner on a light body, and the iteration would diverge)
  if (model == acsMODEL_CCP) {
    mjtNum h = omega / (gershgorin(G, dim) + mjMINVAL);
    for (int i=0; i < dim; i++) {
      f[i] -= h * a[i];
    }
    acsu_projectCone(f, f, mu, dim, 0);
    return;
  }

  // normal step, then the tangential velocity for the new normal force
  mjtNum fn = f[0] - omega * a[0] / G[0];
  f[0] = fn > 0 ? fn : 0;
  mjtNum dfn = f[0] - fold[0];
  for (int j=1; j < dim; j++) {
    at[j] = a[j] + G[j*dim] * dfn;
  }

  // LCP: scalar projected steps on each tangential row, in the box |f_j| <= mu_j f_n
  if (model == acsMODEL_LCP) {
    for (int j=1; j < dim; j++) {
      mjtNum fj = f[j];
      f[j] = mju_clip(f[j] - omega * at[j] / (G[j*dim+j] + mjMINVAL), -mu[j-1]*f[0], mu[j-1]*f[0]);
      for (int i=j+1; i < dim; i++) {
        at[i] += G[i*dim+j] * (f[j] - fj);
      }
    }
    return;
  }

  // NCP: the friction at the new normal force, by a gradient step in scaled coordinates or
  // exactly (tstep < 0: part of the way, kExactShare), then the horizontal projection onto the cone
  if (tstep >= 0) {
    for (int j=1; j < dim; j++) {
      f[j] -= tstep * mu[j-1] * mu[j-1] * at[j];
    }
  } else {
    mjtNum u[5];
    tangentSolve(u, f, at, G, mu, dim);
    for (int j=1; j < dim; j++) {
      f[j] += kExactShare * omega * (mu[j-1] * u[j-1] - f[j]);
    }
  }
  acsu_clampFriction(f, mu, dim);
}


//---------------------------------- conjugate gradients -------------------------------------------

// a . b over the entries (rows NULL: the first n, by MuJoCo's mju_dot)
static mjtNum dotEntries(const mjtNum* a, const mjtNum* b, const int* rows, int n) {
  if (!rows) {
    return mju_dot(a, b, n);
  }
  mjtNum s = 0;
  for (int j=0; j < n; j++) {
    s += a[rows[j]] * b[rows[j]];
  }
  return s;
}


// x += s y over the entries
static void addToSclEntries(mjtNum* x, const mjtNum* y, mjtNum s, const int* rows, int n) {
  if (!rows) {
    mju_addToScl(x, y, s, n);
    return;
  }
  for (int j=0; j < n; j++) {
    x[rows[j]] += s * y[rows[j]];
  }
}


int acs_pcg(mjtNum* x, const mjtNum* v, const int* rows, int n, acsfOperator mul,
            acsfOperator precond, void* arg, mjtNum* r, mjtNum* p, mjtNum* q, mjtNum* z,
            mjtNum tol, int maxiter) {
  // r = v - A x, z = P r, p = z
  mul(q, x, arg);
  for (int j=0; j < n; j++) {
    int e = rows ? rows[j] : j;
    r[e] = v[e] - q[e];
  }
  mjtNum vnorm = mju_sqrt(dotEntries(v, v, rows, n));
  precond(z, r, arg);
  for (int j=0; j < n; j++) {
    int e = rows ? rows[j] : j;
    p[e] = z[e];
  }
  mjtNum rz = dotEntries(r, z, rows, n);

  int it = 0;
  for (; it < maxiter && mju_sqrt(dotEntries(r, r, rows, n)) > tol * vnorm && rz > 0; it++) {
    mul(q, p, arg);
    mjtNum pq = dotEntries(p, q, rows, n);
    if (pq <= 0) {
      break;
    }
    mjtNum alpha = rz / pq;
    addToSclEntries(x, p, alpha, rows, n);
    addToSclEntries(r, q, -alpha, rows, n);
    precond(z, r, arg);
    mjtNum rznew = dotEntries(r, z, rows, n);
    mjtNum beta = rznew / rz;
    rz = rznew;
    for (int j=0; j < n; j++) {
      int e = rows ? rows[j] : j;
      p[e] = z[e] + beta * p[e];
    }
  }
  return it;
}
