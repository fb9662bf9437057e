// Copyright 2026 The acs authors.
//
// RaiSim's per-contact solver (Hwangbo et al. 2018) as Le Lidec et al. describe and implement it
// ("Contact models in robotics", Alg. 5 and Fig. 7; ContactBench's RaisimSolver). Gauss-Seidel over
// the blocks; for a contact, with c the velocity the other forces give it (its own contribution
// G_kk f_k removed) and G = G_kk:
//   take-off  c_n > 0:                          f* = 0
//   stick     f0 = -G^-1 c lies in the cone:    f* = f0
//   slide     otherwise: f* is the point of the ellipse {cone surface} ∩ {G_n. f + c_n = 0}
//             (zero normal velocity) where (G f + c) is orthogonal to the ellipse, found by
//             bracketing and a root search (false position) on the polar angle theta of f_t:
//               r(theta) = -c_n / (G_nn / mu + G_nt1 cos + G_nt2 sin),
//               f(theta) = (r / mu, r cos, r sin)   (normal first)
//             with the derivative d(theta) = eta . (G f + c), eta = grad(h1) x grad(h2) the tangent
//             of the ellipse (h1: the plane, h2: the cone surface).
// Each contact update is relaxed, f <- (1 - alpha) f + alpha f*, with alpha decaying once per sweep
// from raisim_alpha to raisim_alpha_min (alpha <- gamma alpha + (1 - gamma) alpha_min).
//
// This is the model's known approximation: the slide step minimizes the contact's local energy
// on the ellipse, which is not maximal dissipation when G_nt != 0 (an off-center contact such as
// a cube corner): the friction is then not opposite to the slip (Le Lidec et al., eq. 24).
//
// Extensions for MuJoCo's rows: equality, friction-loss, limit and condim-1 rows take the
// Gauss-Seidel steps of pgs in the same sweep; anisotropic friction (mu_1 != mu_2) is handled by
// scaling the tangent axes so that the cone is round. RaiSim's contacts are points: a condim-4 or
// -6 contact (torsional, rolling friction) takes pgs's NCP update, whose cone holds all its
// friction rows at once. Before, the root search took the translational rows against a velocity
// from which the block's torsional and rolling forces had been removed, and those rows took a
// projected step after it: the fixed point broke complementarity (dm_control's dog: a tooth
// contact separating at 12 m/s under a normal force of 14 N, NCP residual 653 after 20000
// sweeps, where pgs and admm reach 5e-12) and Adroit's pen never converged (residual 0.5 to 1.5;
// now 75% of its steps converge).

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "gauss_seidel.h"
#include "operator.h"
#include "residual.h"
#include "solvers.h"
#include "solver_util.h"

// bracketing parameters (ContactBench's RaisimSolver defaults)
#define kBeta1 1e-2               // initial angular step (rad)
#define kBeta2 0.5                // shrink factor after an invalid step
#define kBeta3 1.3                // growth factor while the derivative keeps its sign
#define kMaxBisection 200         // iterations of bracketing, and of the root search
#define kSecantMax 20             // false-position steps of the root search, then bisection

typedef struct raisimWork_ {
  acsSweep sweep;                 // the Gauss-Seidel driver's workspace
  mjtNum*  step;                  // condim 4, 6: pgs's tangential step for omega 1  (nblock)
  mjtNum*  scale;                 // per contact block: the tangent scaling S that rounds the
                                  //   cone (3: 1, mu_1 / mu, mu_2 / mu)             (3 nblock)
  mjtNum*  Gs;                    // its scaled translational block S G S        (9 nblock)
  mjtNum*  Gsinv;                 // and that block's inverse                    (9 nblock)
  mjtNum*  mu;                    // the rounded cone's coefficient (0: frictionless) (nblock)
  mjtNum   tol;                   // the root search's tolerance
  int      desaxce;               // RAISIM-DS
} raisimWork;


// carve the workspace (count only when arena->base is NULL)
static void raisimLayout(void* work, acsArena* arena, const acsProblem* p) {
  raisimWork* rw = (raisimWork*)work;
  acs_sweepLayout(&rw->sweep, arena, p);
  rw->step = acs_arenaAlloc(arena, p->nblock, sizeof(mjtNum));
  rw->scale = acs_arenaAlloc(arena, 3 * (size_t)p->nblock, sizeof(mjtNum));
  rw->Gs = acs_arenaAlloc(arena, 9 * (size_t)p->nblock, sizeof(mjtNum));
  rw->Gsinv = acs_arenaAlloc(arena, 9 * (size_t)p->nblock, sizeof(mjtNum));
  rw->mu = acs_arenaAlloc(arena, p->nblock, sizeof(mjtNum));
}


size_t acs_raisimWorkspace(const acsProblem* p, const acsSettings* s) {
  (void)s;
  raisimWork rw;
  return acs_layoutBytes(raisimLayout, &rw, p);
}


//---------------------------------- the local solve -----------------------------------------------

// a point of the sliding ellipse for a round cone of coefficient mu (normal first); return its
// radius r = |f_t| (negative: the angle does not intersect the ellipse)
static mjtNum ellipsePoint(mjtNum f[3], mjtNum theta, const mjtNum G[9], const mjtNum c[3],
                           mjtNum mu) {
  mjtNum ct = cos(theta), st = sin(theta);
  mjtNum den = G[0]/mu + G[1]*ct + G[2]*st;
  mjtNum r = -c[0] / den;
  f[0] = r / mu;
  f[1] = r * ct;
  f[2] = r * st;
  return r;
}


// derivative of the local energy along the ellipse at f: eta . (G f + c)
static mjtNum ellipseSlope(const mjtNum f[3], const mjtNum G[9], const mjtNum c[3], mjtNum mu) {
  mjtNum g1[3] = {G[0], G[1], G[2]};                   // gradient of the plane (row n of G)
  mjtNum g2[3] = {-2*mu*mu*f[0], 2*f[1], 2*f[2]};      // gradient of the cone surface
  mjtNum eta[3] = {g1[1]*g2[2] - g1[2]*g2[1], g1[2]*g2[0] - g1[0]*g2[2],
                   g1[0]*g2[1] - g1[1]*g2[0]};
  mjtNum v[3];
  for (int i=0; i < 3; i++) {
    v[i] = G[3*i]*f[0] + G[3*i+1]*f[1] + G[3*i+2]*f[2] + c[i];
  }
  return eta[0]*v[0] + eta[1]*v[1] + eta[2]*v[2];
}


// RaiSim's local solution for a round cone: G (3x3), Ginv its inverse, c the velocity without
// the contact's own force; chat: the velocity of the slide step's start and slope (c itself, the
// same pointer, for RaiSim; for RAISIM-DS c with the De Saxce correction mu |v_t| on its normal)
static void raisimLocal(mjtNum fstar[3], const mjtNum G[9], const mjtNum Ginv[9],
                        const mjtNum c[3], const mjtNum chat[3], mjtNum mu, mjtNum tol) {
  // take-off
  if (c[0] > 0) {
    mju_zero3(fstar);
    return;
  }

  // stick: the force that stops the contact, if it lies in the cone
  mjtNum f0[3];
  mju_mulMatVec3(f0, Ginv, c);
  mju_scl3(f0, f0, -1);
  if (mu <= 0) {
    fstar[0] = mju_max(0, -c[0] / G[0]);
    fstar[1] = fstar[2] = 0;
    return;
  }
  if (f0[0] >= 0 && mju_sqrt(f0[1]*f0[1] + f0[2]*f0[2]) <= mu * f0[0]) {
    mju_copy3(fstar, f0);
    return;
  }

  // slide: bracket a sign change of the slope along the ellipse, starting at the angle of f0
  // (RAISIM-DS: of -G^-1 chat; the ellipse is the same, the slope is taken with chat)
  if (chat != c) {
    mju_mulMatVec3(f0, Ginv, chat);
    mju_scl3(f0, f0, -1);
  }
  mjtNum theta = atan2(f0[2], f0[1]), thetap = theta;
  mjtNum f[3], fp[3];
  ellipsePoint(f, theta, G, c, mu);
  mju_copy3(fp, f);
  mjtNum d0 = ellipseSlope(f, G, chat, mu), slope = d0, slopep = d0;
  mjtNum dtheta = d0 >= 0 ? -kBeta1 : kBeta1;
  int bracketed = 0;
  for (int it=0; it < kMaxBisection; it++) {
    thetap = theta;
    slopep = slope;
    mju_copy3(fp, f);
    theta += dtheta;
    mjtNum r = ellipsePoint(f, theta, G, c, mu);
    mjtNum g2[3] = {-2*mu*mu*f[0], 2*f[1], 2*f[2]}, dif[3];
    mju_sub3(dif, f0, f);
    if (mju_dot3(g2, dif) < 0 || r < 0) {
      dtheta *= kBeta2;                                  // left the valid arc: step back, shrink
      theta = thetap;
      mju_copy3(f, fp);
      continue;
    }
    slope = ellipseSlope(f, G, chat, mu);
    if (slope * d0 > 0) {
      dtheta *= kBeta3;                                  // same sign: grow
    } else {
      bracketed = 1;
      break;
    }
  }

  // the root on [thetap, theta] (the slope's sign of d0 at thetap, the other at theta): false
  // position with the Illinois modification (an end kept twice has its slope halved, so both ends
  // close in, superlinearly), bisection where the secant point is not strictly inside, and
  // bisection alone after kSecantMax steps (near the rounding floor of large forces the slope's
  // sign is noise, Fetch's 4e5 N contacts: the bracket then closes as a bisection's does); to the
  // same tolerance on the ends' forces as a bisection alone (which took 25 evaluations per slide
  // on the humanoids, this 5.7)
  if (bracketed) {
    int kept = 0;   // the end kept by the last update: -1 thetap, 1 theta
    for (int it=0; it < kMaxBisection; it++) {
      mjtNum thetam = theta - slope * (theta - thetap) / (slope - slopep), fm[3];
      if (it >= kSecantMax ||
          !(thetam > mju_min(theta, thetap) && thetam < mju_max(theta, thetap))) {
        thetam = 0.5*(theta + thetap);
      }
      ellipsePoint(fm, thetam, G, c, mu);
      mjtNum sm = ellipseSlope(fm, G, chat, mu);
      if (sm * d0 > 0) {
        thetap = thetam;
        slopep = sm;
        mju_copy3(fp, fm);
        slope *= kept == 1 ? 0.5 : 1;
        kept = 1;
      } else {
        theta = thetam;
        slope = sm;
        mju_copy3(f, fm);
        slopep *= kept == -1 ? 0.5 : 1;
        kept = -1;
      }
      if (fabs(f[0]-fp[0]) < tol && fabs(f[1]-fp[1]) < tol && fabs(f[2]-fp[2]) < tol) {
        break;
      }
    }
  }

  // a degenerate ellipse (no valid point) leaves the contact open
  if (!(f[0] >= 0) || !isfinite(f[0] + f[1] + f[2])) {
    mju_zero3(f);
  }
  mju_copy3(fstar, f);
}


// the rounded cone of a contact block: f_k = s_k f~_k with s_k = mu_k / mu, mu = max(mu_1, mu_2)
// (a direction without friction, not MuJoCo's case: it clamps mu >= 1e-5, makes the contact
// frictionless), the scaled translational block S G S and its inverse (Ginv: G's, which an
// isotropic cone, S = 1, takes as it is: the same inverse of the same block; the lying humanoid's
// raisim spent 4% of its step inverting the blocks, half of it here); return mu
static mjtNum roundCone(mjtNum S[3], mjtNum Gs[9], mjtNum Gsinv[9], const mjtNum G[9],
                        const mjtNum Ginv[9], const mjtNum* mu) {
  mjtNum mub = (mu[0] > 0 && mu[1] > 0) ? mju_max(mu[0], mu[1]) : 0;
  S[0] = 1;
  S[1] = mub > 0 ? mu[0]/mub : 0;
  S[2] = mub > 0 ? mu[1]/mub : 0;
  for (int i=0; i < 3; i++) {
    for (int j=0; j < 3; j++) {
      Gs[3*i+j] = S[i] * G[3*i+j] * S[j];
    }
  }
  if (S[1] == 1 && S[2] == 1) {
    mju_copy(Gsinv, Ginv, 9);
  } else {
    acs_invertBlock(Gsinv, Gs, 3);
  }
  return mub;
}


// RaiSim update of contact block k (dim 3): f, a the block's force and velocity; S, Gs, Gsinv,
// mub its rounded cone (roundCone); desaxce: RAISIM-DS
static void updateContact(mjtNum* f, const mjtNum* a, const mjtNum* G, const mjtNum S[3],
                          const mjtNum Gs[9], const mjtNum Gsinv[9], mjtNum mub, mjtNum alpha,
                          mjtNum tol, int desaxce) {
  // the velocity without the contact's own force, scaled; RAISIM-DS: with the De Saxce term of
  // the contact's present slip mu |S a_t| (the cone is round in the scaled coordinates)
  mjtNum cs[3], chat[3], fs[3];
  for (int i=0; i < 3; i++) {
    cs[i] = S[i] * (a[i] - G[3*i]*f[0] - G[3*i+1]*f[1] - G[3*i+2]*f[2]);
  }
  if (desaxce) {
    mjtNum vt1 = S[1]*a[1], vt2 = S[2]*a[2];
    chat[0] = cs[0] + mub * mju_sqrt(vt1*vt1 + vt2*vt2);
    chat[1] = cs[1];
    chat[2] = cs[2];
  }
  raisimLocal(fs, Gs, Gsinv, cs, desaxce ? chat : cs, mub, tol);

  // relaxed update
  for (int i=0; i < 3; i++) {
    f[i] = (1 - alpha) * f[i] + alpha * S[i] * fs[i];
  }
}


// the driver's contact update; arg: the workspace
static void raisimContact(mjtNum* f, const mjtNum* a, const acsBlocks* b, const acsProblem* p,
                          int k, mjtNum relax, void* arg) {
  const raisimWork* rw = (const raisimWork*)arg;
  int dim = p->block_dim[k];
  if (dim > 3) {
    acs_updateContactBlock(f, a, b->G + b->adr[k], b->Ginv + b->adr[k], p->block_mu + 5*k, dim,
                           relax, relax * rw->step[k], acsMODEL_NCP);
    return;
  }
  updateContact(f, a, b->G + b->adr[k], rw->scale + 3*k, rw->Gs + 9*k, rw->Gsinv + 9*k,
                rw->mu[k], relax, rw->tol, rw->desaxce);
}


int acs_raisimSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                    const acsProblem* p, const acsSettings* s) {
  (void)state;
  raisimWork rw;
  acsArena arena = {work, 0};
  raisimLayout(&rw, &arena, p);
  acsBlocks* B = &rw.sweep.blocks;
  acs_blocksCompute(B, p);
  rw.tol = s->raisim_bisection_tol;
  rw.desaxce = s->raisim_desaxce;
  for (int k=0; k < p->nblock; k++) {
    rw.step[k] = 0;
    if (p->block_type[k] == acsBLOCK_CONTACT && p->block_dim[k] == 3) {
      rw.mu[k] = roundCone(rw.scale + 3*k, rw.Gs + 9*k, rw.Gsinv + 9*k, B->G + B->adr[k],
                           B->Ginv + B->adr[k], p->block_mu + 5*k);
    } else if (p->block_type[k] == acsBLOCK_CONTACT && p->block_dim[k] > 3) {
      rw.step[k] = acs_contactTangentStep(B->G + B->adr[k], p->block_mu + 5*k, p->block_dim[k], 1);
    }
  }

  // the NCP criterion ends the iterations (with primal feasibility: RaiSim's iterates can leave
  // the cone); the relaxation decays from raisim_alpha to raisim_alpha_min
  return acs_gaussSeidel(force, stats, &rw.sweep, p, s, acsMODEL_NCP, s->raisim_alpha,
                         s->raisim_alpha_min, s->raisim_gamma, raisimContact, &rw);
}
