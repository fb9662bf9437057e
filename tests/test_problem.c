// Copyright 2026 The acs authors.
//
// Assembly of the contact problem (problem.c) against rows derived by hand: a 1 kg ball of radius
// 0.1 m on a plane (free joint at the identity orientation, so its angular velocity is in the
// world frame). The velocity of the contact point p (relative to the ball's center) along a unit
// direction u is u.v + w.(p x u): the row of u is [u, p x u]. With M = diag(1, 1, 1, I, I, I),
// I = 2/5 m r^2 = 0.004 kg m^2, the Delassus diagonal of that row is |u|^2 + |p x u|^2 / I.

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "dense.h"
#include "operator.h"
#include "test_util.h"

#define R_BALL 0.1
#define I_BALL 0.004
#define H 0.002

static mjModel* ballModel(int cone) {
  mjModel* m = acst_loadString(
      "<mujoco><option timestep='0.002'/><worldbody><geom type='plane' size='1 1 .1'/>"
      "<body pos='0 0 .1'><freejoint/><geom type='sphere' size='.1' mass='1' margin='.01'/>"
      "</body></worldbody></mujoco>");
  if (m) {
    m->opt.cone = cone;
  }
  return m;
}


// the problem of the ball at height z with velocity qvel (6), after acs_forward
static const acsProblem* ballProblem(mjData* d, const mjModel* m, acsContext* ctx, mjtNum z,
                                     const mjtNum qvel[6]) {
  d->qpos[2] = z;
  mju_copy(d->qvel, qvel, 6);
  ENSURE(acs_forward(m, d, ctx) != acsSTATUS_ERROR);
  return &ctx->problem;
}


// row r of J, dense (6 dofs)
static void denseRow(mjtNum out[6], const acsProblem* p, int r) {
  mju_zero(out, 6);
  for (int i=0; i < p->J_rownnz[r]; i++) {
    out[p->J_colind[p->J_rowadr[r] + i]] = p->J[p->J_rowadr[r] + i];
  }
}


static void testRows(void) {
  // the rows in acs's contact frame (normal, tangent, tangent) are [u, p x u] for the frame's
  // axes u: with the pyramidal cone (MuJoCo's rows n +- mu t decoded) as with the elliptic one
  // (MuJoCo's own frame rows); exact up to rounding (1e-12)
  for (int cone=mjCONE_PYRAMIDAL; cone <= mjCONE_ELLIPTIC; cone++) {
    mjModel* m = ballModel(cone);
    if (!m) return;
    mjData* d = mj_makeData(m);
    acsContext* ctx = acst_makeContext(m, "pgs");
    mjtNum qvel[6] = {0.3, -0.2, 0, 1, 2, 3};
    const acsProblem* p = ballProblem(d, m, ctx, R_BALL - 0.001, qvel);
    ENSURE(d->ncon == 1 && p->nblock == 1 && p->nefc == 3 && p->block_dim[0] == 3);
    mjtNum pos[3];
    mju_sub3(pos, d->contact[0].pos, d->xpos + 3);
    for (int k=0; k < 3 && p->nefc == 3; k++) {
      const mjtNum* u = d->contact[0].frame + 3*k;
      mjtNum row[6], expected[6];
      mju_copy3(expected, u);
      mju_cross(expected + 3, pos, u);
      denseRow(row, p, k);
      for (int c=0; c < 6; c++) {
        ENSURE_NEAR(row[c], expected[c], 1e-12);
      }
      // the start-of-step velocity of the row: J qvel
      ENSURE_NEAR(p->vel[k], mju_dot(expected, qvel, 6), 1e-12);
    }
    acs_deleteContext(ctx);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}


// b of the normal row for the ball at height z and normal speed vz, with settings s
static mjtNum normalBias(const acsSettings* s, mjtNum z, mjtNum vz, mjtNum* phi) {
  *phi = NAN;
  mjModel* m = ballModel(mjCONE_ELLIPTIC);
  if (!m) return NAN;
  mjData* d = mj_makeData(m);
  char error[acsNERROR];
  acsContext* ctx = acs_makeContext(m, s, error, sizeof(error));
  mjtNum qvel[6] = {0, 0, vz, 0, 0, 0};
  const acsProblem* p = ballProblem(d, m, ctx, z, qvel);
  mjtNum b = p->nefc ? p->b[0] : NAN;
  *phi = p->nblock ? p->block_pos[0] : NAN;
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
  return b;
}


static void testBias(void) {
  // b = v/h + J qacc_smooth - v*/h on the normal row (J qacc_smooth = -g), with the bias
  // velocity v* of each branch (h = 2 ms, slop 1e-4, baumgarte 0.2, max_correction 1 m/s):
  //   a gap phi >= 0 (inside the margin):  v* = -phi / h (close it in one step, not more)
  //   within the slop:                     v* = 0
  //   deeper:                              v* = -baumgarte (phi + slop) / h
  //   much deeper:                         v* = max_correction
  //   an impact faster than restitution_vel with restitution e: v* = max(that, -e v)
  // exact up to the rounding of the contact distance (1e-9 of b)
  acsSettings s;
  acs_defaultSettings(&s);
  s.solver = acsSOL_PGS;
  const mjtNum g = 9.81;
  struct { mjtNum depth, vz, restitution, vstar; } cases[] = {
    {-0.001, 0, 0, NAN},          // gap 1 mm: v* = -phi / h
    {5e-5, 0, 0, 0},              // within the slop
    {0.001, 0, 0, NAN},           // Baumgarte
    {0.02, 0, 0, 1},              // capped at max_correction
    {5e-5, -2, 0.5, 1},           // restitution: -e v = 1 m/s
  };
  for (int c=0; c < 5; c++) {
    s.restitution = cases[c].restitution;
    mjtNum phi = NAN;
    mjtNum b = normalBias(&s, R_BALL - cases[c].depth, cases[c].vz, &phi);
    mjtNum vstar = cases[c].vstar;
    if (isnan(vstar)) {
      vstar = phi >= 0 ? -phi / H : -s.baumgarte * (phi + s.slop) / H;
    }
    ENSURE_NEAR(phi, -cases[c].depth, 1e-9);
    ENSURE_NEAR(b, cases[c].vz / H - g - vstar / H, 1e-9 * fabs(b));
  }
}


static void testCompliance(void) {
  // R = compliance * diag(J M^-1 J'): normal row |n|^2 / m = 1; tangent rows 1 + |p x t|^2 / I
  // = 1 + pz^2 / I (3.5 at pz = -0.1); 1e-12
  acsSettings s;
  acs_defaultSettings(&s);
  s.solver = acsSOL_PGS;
  s.compliance = 0.1;
  mjModel* m = ballModel(mjCONE_ELLIPTIC);
  if (!m) return;
  mjData* d = mj_makeData(m);
  char error[acsNERROR];
  acsContext* ctx = acs_makeContext(m, &s, error, sizeof(error));
  mjtNum qvel[6] = {0};
  const acsProblem* p = ballProblem(d, m, ctx, R_BALL - 0.001, qvel);
  mjtNum pz = d->contact[0].pos[2] - d->xpos[5];
  ENSURE(p->R && p->nefc == 3);
  if (p->R && p->nefc == 3) {
    ENSURE_NEAR(p->R[0], 0.1, 1e-12);
    ENSURE_NEAR(p->R[1], 0.1 * (1 + pz*pz / I_BALL), 1e-12);
    ENSURE_NEAR(p->R[2], 0.1 * (1 + pz*pz / I_BALL), 1e-12);
  }
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


// row r of J, dense (nv)
static void denseJ(mjtNum* out, const acsProblem* p, int r) {
  mju_zero(out, p->nv);
  for (int i=0; i < p->J_rownnz[r]; i++) {
    out[p->J_colind[p->J_rowadr[r] + i]] = p->J[p->J_rowadr[r] + i];
  }
}


static void testFactorRows(void) {
  // the dual solvers' rows B = D^-1/2 L^-T J' give G = B B' = J H^-1 J' with H the step's matrix
  // (the problem's M: M + hB under damped Euler, M under implicitfast), checked entry by entry
  // against a dense Cholesky solve on the lying humanoid (contacts, limits, two integrators);
  // 1e-10 relative to sqrt(G_ii G_jj): both sides are rounding of nv-term eliminations on a matrix
  // of condition ~1e5 (1e-16 x 1e5 x nv = 3e-10 in the worst case, 1e-13 seen). Then the forces
  // solved with B meet the tolerance on the same problem stated with J and dense Y = H^-1 J' (the
  // lever switched: the answer stays within the tolerance)
  for (int integrator=mjINT_EULER; integrator <= mjINT_IMPLICITFAST; integrator += 3) {
    mjModel* m = acst_loadSharedModel("humanoid.xml");
    if (!m) return;
    m->opt.integrator = integrator;
    mjData* d = mj_makeData(m);
    acsContext* ctx = acst_makeContext(m, "pgs");
    for (int t=0; t < 400; t++) {
      ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
    }
    ENSURE(acs_forward(m, d, ctx) != acsSTATUS_ERROR);
    const acsProblem* p = &ctx->problem;
    int nv = p->nv, nefc = p->nefc;
    ENSURE(p->B && !p->Y && nefc >= 10);
    ENSURE(ctx->damped == (integrator == mjINT_EULER));
    if (!p->B || p->Y) {
      acs_deleteContext(ctx);
      mj_deleteData(d);
      mj_deleteModel(m);
      return;
    }

    // B is sparser than the trees: a foot's rows skip the other limbs
    int nnzmin = nv;
    for (int r=0; r < nefc; r++) {
      nnzmin = mjMIN(nnzmin, p->B_rownnz[r]);
    }
    ENSURE(nnzmin < nv);

    // dense H from the problem's M (lower triangle in MuJoCo's layout), its Cholesky factor
    mjtNum* Hm = mju_malloc(sizeof(mjtNum) * nv * nv);
    mjtNum* Y = mju_malloc(sizeof(mjtNum) * nefc * nv);
    mjtNum* Jr = mju_malloc(sizeof(mjtNum) * nefc * nv);
    mju_zero(Hm, nv*nv);
    for (int i=0; i < nv; i++) {
      for (int k=0; k < p->M_rownnz[i]; k++) {
        int j = p->M_colind[p->M_rowadr[i] + k];
        Hm[i*nv+j] = Hm[j*nv+i] = p->M[p->M_rowadr[i] + k];
      }
    }
    ENSURE(mju_cholFactor(Hm, nv, 0) == nv);
    for (int r=0; r < nefc; r++) {
      denseJ(Jr + r*nv, p, r);
      mju_cholSolve(Y + r*nv, Hm, Jr + r*nv, nv);
    }
    mjtNum worst = 0;
    for (int i=0; i < nefc; i++) {
      for (int j=0; j < nefc; j++) {
        mjtNum ref = mju_dot(Jr + i*nv, Y + j*nv, nv);
        mjtNum scale = mju_sqrt(mju_dot(Jr + i*nv, Y + i*nv, nv) *
                                mju_dot(Jr + j*nv, Y + j*nv, nv));
        worst = mju_max(worst, mju_abs(acs_delassus(p, i, j) - ref) / scale);
      }
    }
    ENSURE_NEAR(worst, 0, 1e-10);

    // the same problem with J and dense Y
    acsProblem q = *p;
    int* Yadr = mju_malloc(sizeof(int) * nefc);
    int* Ynnz = mju_malloc(sizeof(int) * nefc);
    int* Ycol = mju_malloc(sizeof(int) * nefc * nv);
    for (int r=0; r < nefc; r++) {
      Yadr[r] = r*nv;
      Ynnz[r] = nv;
      for (int c=0; c < nv; c++) {
        Ycol[r*nv+c] = c;
      }
    }
    q.B = NULL;
    q.B_rownnz = q.B_rowadr = q.B_colind = NULL;
    q.nnzB = 0;
    q.Y = Y;
    q.Y_rowadr = Yadr;
    q.Y_rownnz = Ynnz;
    q.Y_colind = Ycol;
    q.nnzY = nefc*nv;
    acsSettings s;
    acs_defaultSettings(&s);
    s.solver = acsSOL_PGS;
    s.maxiter = 100000;
    s.tolerance = 1e-8;
    mjtNum* f = mju_malloc(sizeof(mjtNum) * nefc);
    mjtNum* scratch = mju_malloc(sizeof(mjtNum) * (nv + 2*nefc));
    mju_zero(f, nefc);
    acsStats st;
    ENSURE(acst_solveSettings(f, &st, p, &s) == acsSTATUS_CONVERGED);
    // the other form's residual of the same forces: the tolerance, up to the rounding of G's
    // entries (1e-13 relative, times forces of ~1e3 N: 1e-10)
    ENSURE_LE(acs_problemResidual(scratch, f, &q, acsMODEL_NCP), 1e-8 + 1e-9);
    ENSURE_LE(acs_problemResidual(scratch, f, p, acsMODEL_NCP), 1e-8);

    mju_free(scratch);
    mju_free(f);
    mju_free(Ycol);
    mju_free(Ynnz);
    mju_free(Yadr);
    mju_free(Jr);
    mju_free(Y);
    mju_free(Hm);
    acs_deleteContext(ctx);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}


// a pgs context solving to 1e-10 within 1000 sweeps (consistent = acs_consistent_stabilization)
static acsContext* tightContext(const mjModel* m, int consistent) {
  acsSettings s;
  acs_defaultSettings(&s);
  s.consistent_stabilization = consistent;
  s.tolerance = 1e-10;
  s.maxiter = 1000;
  char error[acsNERROR];
  acsContext* ctx = acs_makeContext(m, &s, error, sizeof(error));
  ENSURE(ctx != NULL);
  return ctx;
}


// the box of box_plane.xml tilted about its diagonal and pushed into the floor: its corners at
// depths 0.05, 0.2, 0.2 and 0.35 mm (consistent = acs_consistent_stabilization). Out, per contact
// in the problem's order: the rows' requests v* (acsBUF vstab; normal in vn, friction in vt) and b
// (bn, bt), the contact's x y (xy) and the normal force of a pgs solve to 1e-10 (fn); return its
// status
static int boxCorners(mjtNum vn[4], mjtNum vt[8], mjtNum bn[4], mjtNum bt[8], mjtNum xy[8],
                      mjtNum fn[4], int consistent) {
  mjModel* m = acst_loadTestModel("box_plane.xml");
  if (!m) return -1;
  mjData* d = mj_makeData(m);
  acsContext* ctx = tightContext(m, consistent);
  mjtNum theta = 0.15e-3 / (0.2 / mju_sqrt(2));  // corners (1, 1) and (-1, -1) -+0.15 mm
  mjtNum axis[3] = {1 / mju_sqrt(2), -1 / mju_sqrt(2), 0};
  mju_axisAngle2Quat(d->qpos + 3, axis, theta);
  d->qpos[2] = 0.1 - 0.2e-3;
  int status = acs_forward(m, d, ctx);
  const acsProblem* p = &ctx->problem;
  const mjtNum* vstab = acsBUF(ctx, vstab, mjtNum);
  const mjtNum* force = acsBUF(ctx, force, mjtNum);
  ENSURE(p->nblock == 4);
  for (int k=0; k < 4 && k < p->nblock; k++) {
    int adr = p->block_adr[k];
    vn[k] = vstab[adr];
    bn[k] = p->b[adr];
    fn[k] = force[adr];
    for (int j=0; j < 2; j++) {
      vt[2*k+j] = vstab[adr+1+j];
      bt[2*k+j] = p->b[adr+1+j];
      xy[2*k+j] = d->contact[k].pos[j];
    }
  }
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
  return status;
}


static void testConsistentStabilization(void) {
  // a box on four corners has three normal motions (lift, two tilts): the corners' normal
  // velocities are affine in their positions, so v*_a + v*_c = v*_b + v*_d over the diagonals
  // (a, c) and (b, d). The depths 0.35, 0.2, 0.2, 0.05 mm are (a tilt), but slop 0.1 mm clips the
  // shallowest corner's request to 0: the requests (0.2 / 2 ms times 0.25, 0.1, 0.1, 0 mm) are
  // not, and no force meets them. Equal and opposite forces on the two diagonals change no
  // velocity (their sum and moment vanish: a null vector of G with no friction part), so the
  // least change that makes the requests achievable moves each corner by the same amount
  // q = (v*_a + v*_c - v*_b - v*_d) / 4, down on one diagonal and up on the other; the other
  // null vectors (the friction rows') change the normal requests by lever arm ratios only
  mjtNum v0[4], t0[8], b0[4], bt0[8], xy[8], f0[4];
  mjtNum v1[4], t1[8], b1[4], bt1[8], f1[4];
  int st0 = boxCorners(v0, t0, b0, bt0, xy, f0, 0);
  int st1 = boxCorners(v1, t1, b1, bt1, xy, f1, 1);
  if (st0 < 0 || st1 < 0) return;

  // the diagonal partner of corner 0: the farthest
  int c = 1;
  for (int k=2; k < 4; k++) {
    if (mju_dist3((mjtNum[3]){xy[0], xy[1], 0}, (mjtNum[3]){xy[2*k], xy[2*k+1], 0}) >
        mju_dist3((mjtNum[3]){xy[0], xy[1], 0}, (mjtNum[3]){xy[2*c], xy[2*c+1], 0})) {
      c = k;
    }
  }
  mjtNum sign[4];
  for (int k=0; k < 4; k++) {
    sign[k] = (k == 0 || k == c) ? 1 : -1;
  }
  mjtNum vmax = 0, gap0 = 0, gap1 = 0, tmax = 0;
  for (int k=0; k < 4; k++) {
    vmax = mju_max(vmax, mju_abs(v0[k]));
    gap0 += sign[k] * v0[k];
    gap1 += sign[k] * v1[k];
    tmax = mju_max(tmax, mju_max(mju_abs(t1[2*k]), mju_abs(t1[2*k+1])));
  }
  printf("  per row: v* %.6f %.6f %.6f %.6f m/s, diagonal sums differ by %.2e; consistent: "
         "%.6f %.6f %.6f %.6f, by %.1e; friction v* up to %.1e m/s\n", v0[0], v0[1], v0[2],
         v0[3], gap0, v1[0], v1[1], v1[2], v1[3], gap1, tmax);
  printf("  normal forces per row %.2f %.2f %.2f %.2f N, consistent %.2f %.2f %.2f %.2f N\n",
         f0[0], f0[1], f0[2], f0[3], f1[0], f1[1], f1[2], f1[3]);
  ENSURE(gap0 > 0.1 * vmax || gap0 < -0.1 * vmax);     // the case is not affine already
  for (int k=0; k < 4; k++) {
    ENSURE(t0[2*k] == 0 && t0[2*k+1] == 0);
  }

  // the diagonal null vector is exact: rounding only (1e-12 of the largest request)
  ENSURE_NEAR(gap1, 0, 1e-12 * vmax);

  // the friction rows' null vectors: a tilt at rate w moves the corners sideways by w times
  // their height differences, the depths' (at most 0.3 mm, against a half-diagonal of 0.14 m),
  // so their requests, and what they take from the normal ones, are at most 0.3e-3 / 0.14 = 2e-3
  // of the normal requests (measured: 1e-4)
  for (int k=0; k < 4; k++) {
    ENSURE_NEAR(v1[k], v0[k] - sign[k] * gap0 / 4, 2e-3 * vmax);
    ENSURE_NEAR(b1[k], b0[k] + (v0[k] - v1[k]) / H, 1e-9 * mju_abs(b0[k]));
    ENSURE_NEAR(bt1[2*k], bt0[2*k] - t1[2*k] / H, 1e-9 * mju_abs(b0[k]));
  }
  ENSURE(tmax < 2e-3 * vmax);

  // achievable requests: the box recovers as one rigid motion and every corner pushes; with the
  // per-row ones a corner lifts off. Both converge (pgs to 1e-10 within 1000 sweeps)
  ENSURE(st0 == acsSTATUS_CONVERGED && st1 == acsSTATUS_CONVERGED);
  mjtNum f0min = mjMAXVAL, f1min = mjMAXVAL;
  for (int k=0; k < 4; k++) {
    f0min = mju_min(f0min, f0[k]);
    f1min = mju_min(f1min, f1[k]);
  }
  ENSURE(f0min == 0);
  ENSURE(f1min > 0);
}


// a free capsule (half-length 0.1 m, radius 2 cm) lying on the floor, tilted so that its ends
// sink 0.4 and 0.2 mm (consistent = acs_consistent_stabilization). Out: the contacts' frames and
// positions, the rows' requests v* (acsBUF vstab, 6), the status and sweeps of a pgs solve to
// 1e-10 within 1000 sweeps; return 0, or -1 if the case is not two contacts
static int capsuleEnds(mjtNum frame[18], mjtNum pos[6], mjtNum vstab[6], int* status, int* niter,
                       int consistent) {
  mjModel* m = acst_loadString(
    "<mujoco><option timestep='0.002'/><worldbody><geom type='plane' size='1 1 0.1'/>"
    "<body><freejoint/><geom type='capsule' fromto='-0.1 0 0 0.1 0 0' size='0.02'/></body>"
    "</worldbody></mujoco>");
  if (!m) return -1;
  mjData* d = mj_makeData(m);
  acsContext* ctx = tightContext(m, consistent);
  mjtNum axis[3] = {0, 1, 0};
  mju_axisAngle2Quat(d->qpos + 3, axis, -0.1e-3 / 0.1);   // the end at +x 0.1 mm lower
  d->qpos[2] = 0.02 - 0.3e-3;
  *status = acs_forward(m, d, ctx);
  *niter = acs_getStats(ctx)->niter;
  const acsProblem* p = &ctx->problem;
  int ok = p->nblock == 2 && p->nefc == 6;
  ENSURE(ok);
  for (int k=0; ok && k < 2; k++) {
    mju_copy(frame + 9*k, d->contact[p->block_id[k]].frame, 9);
    mju_copy3(pos + 3*k, d->contact[p->block_id[k]].pos);
  }
  if (ok) {
    mju_copy(vstab, acsBUF(ctx, vstab, mjtNum), 6);
  }
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
  return ok ? 0 : -1;
}


static void testConsistentStabilizationTwoContacts(void) {
  // two points of one rigid body keep their distance: forces f and -f along the line e between
  // them move nothing, so G has the null vector u = (F_1 e, -F_2 e) over the two contacts' rows
  // (F_k: contact k's frame, rows normal and tangents), and some force meets the requests y only
  // if u.y = 0. MuJoCo places each contact at mid-penetration: the ends, 0.2 mm apart in depth,
  // lie 0.1 mm apart in height, and the per-contact requests (recovery on the normal rows, no
  // slip) break it: u.y = (v*_1 - v*_2) 0.1 mm = 2e-6 m^2/s. The least change is
  // y - u (u.y) / (u.u): the ends slide apart at 5 um/s, against normal requests of 30 and 10
  // mm/s. Made consistent, pgs converges (measured: 2 sweeps). Per contact, the NCP's solution
  // has an end sliding (its friction on the cone's edge, against the other's: internal forces),
  // which the sweeps and a step on the rows held do not find (measured before c5400ef: the 1000
  // sweeps; the squat humanoid's feet: 20 000 sweeps at a residual of 0.5); the subspace step's
  // move along the null vector that loads the slipping friction row does (measured: 2 sweeps;
  // without it, not converged after the 1000; bound 10)
  mjtNum frame[18], pos[6], y0[6], y1[6];
  int st0, st1, it0, it1;
  if (capsuleEnds(frame, pos, y0, &st0, &it0, 0) || capsuleEnds(frame, pos, y1, &st1, &it1, 1)) {
    return;
  }
  mjtNum e[3], u[6];
  mju_sub3(e, pos + 3, pos);
  for (int k=0; k < 2; k++) {
    for (int r=0; r < 3; r++) {
      u[3*k+r] = (k ? -1 : 1) * mju_dot3(frame + 9*k + 3*r, e);
    }
  }
  mjtNum uy = mju_dot(u, y0, 6), uu = mju_dot(u, u, 6), ymax = 0;
  for (int r=0; r < 6; r++) {
    ymax = mju_max(ymax, mju_abs(y0[r]));
  }
  printf("  per contact: v* %.6f %.6f m/s (u.y %.2e); consistent: %.6f %.6f, friction up to "
         "%.1e m/s; pgs status %d after %d sweeps, consistent %d after %d\n", y0[0], y0[3], uy,
         y1[0], y1[3], mju_max(mju_abs(y1[1]), mju_abs(y1[4])), st0, it0, st1, it1);
  // the case breaks the distance: u.y is 2.4e-4 of |u| |y|_max (rounding would leave 1e-15)
  ENSURE(mju_abs(uy) > 1e-5 * ymax * mju_sqrt(uu));

  // the projection is exact (one null vector): rounding only, 1e-9 of the largest request
  for (int r=0; r < 6; r++) {
    ENSURE_NEAR(y1[r], y0[r] - u[r] * uy / uu, 1e-9 * ymax);
  }
  ENSURE_NEAR(mju_dot(u, y1, 6), 0, 1e-9 * ymax * mju_sqrt(uu));
  ENSURE(st0 == acsSTATUS_CONVERGED && it0 <= 10);
  ENSURE(st1 == acsSTATUS_CONVERGED);
}


// pgs's problem of a shared model after 300 steps from its first keyframe (the humanoid lies on
// the floor), in a context the caller deletes with m and d; NULL if the model is missing
// the problem of model's keyframe 0 after 300 steps of pgs, the joints started at speed perturb
static acsContext* settledProblemFrom(mjModel** m, mjData** d, const char* model,
                                      mjtNum perturb) {
  *m = acst_loadSharedModel(model);
  if (!*m) return NULL;
  *d = mj_makeData(*m);
  mj_resetDataKeyframe(*m, *d, 0);
  for (int i=0; i < (*m)->nv; i++) {
    (*d)->qvel[i] += perturb;
  }
  acsContext* ctx = acst_makeContext(*m, "pgs");
  for (int t=0; t < 300; t++) {
    ENSURE(acs_step(*m, *d, ctx) != acsSTATUS_ERROR);
  }
  ENSURE(acs_forward(*m, *d, ctx) != acsSTATUS_ERROR);
  return ctx;
}


static acsContext* settledProblem(mjModel** m, mjData** d, const char* model) {
  return settledProblemFrom(m, d, model, 0);
}


// acs_delassusRows (the dense G + R of a list of rows, scaled, for ADMM's islands, the subspace
// step and the stabilization's projection) dots a run of rows sharing a column pattern (a
// contact's rows) with each scattered row together: every entry is the sparse dot product of
// acs_delassus, the same products summed in the same order, exactly (==; the scatter adds only
// signed zeros besides). Row lists in the problem's order, reversed, every other row and from the
// middle of a contact (runs cut at both ends), on the lying humanoid and 22_humanoids (nefc above
// the 256 rows of the runs' table: rows one at a time)
// row i of B dotted with row j by a merge of their sorted columns: the reference of the
// operator's products
static mjtNum mergeDot(const acsProblem* p, int i, int j) {
  const int* ci = p->B_colind + p->B_rowadr[i];
  const int* cj = p->B_colind + p->B_rowadr[j];
  const mjtNum* vi = p->B + p->B_rowadr[i];
  const mjtNum* vj = p->B + p->B_rowadr[j];
  mjtNum s = 0;
  for (int a=0, b=0; a < p->B_rownnz[i] && b < p->B_rownnz[j]; ) {
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


// acs_delassusColumns's workspace for p, carved from one heap block (returned: free it)
static void* columnsWork(acsColumns* cols, const acsProblem* p) {
  acsArena sizing = {NULL, 0};
  acs_columnsLayout(cols, &sizing, p);
  void* work = mju_malloc(sizing.used);
  acsArena arena = {work, 0};
  acs_columnsLayout(cols, &arena, p);
  return work;
}


static void testDelassusRows(void) {
  const char* models[2] = {"humanoid.xml", "22_humanoids.xml"};
  for (int im=0; im < 2; im++) {
    mjModel* m;
    mjData* d;
    acsContext* ctx = settledProblem(&m, &d, models[im]);
    if (!ctx) return;
    const acsProblem* p = &ctx->problem;
    int nefc = p->nefc;
    ENSURE(nefc >= (im ? 257 : 30));
    int* rows = mju_malloc(sizeof(int) * nefc);
    mjtNum* G = mju_malloc(sizeof(mjtNum) * nefc * nefc);
    mjtNum* scale = mju_malloc(sizeof(mjtNum) * nefc);
    mjtNum* scratch = mju_malloc(sizeof(mjtNum) * p->nv);
    acsColumns cols;
    void* colswork = columnsWork(&cols, p);
    for (int r=0; r < nefc; r++) {
      scale[r] = 1 + 0.1 * (r % 7);
    }
    int nwrong = 0, nentry = 0, ncols = 0, ndense = 0, nchosen = 0, nforced = 0;
    for (int order=0; order < 5; order++) {
      int n = 0;
      for (int r=0; r < nefc; r++) {
        if (order == 0 || (order == 2 && r % 2 == 0) || (order == 3 && r > 0)) {
          rows[n++] = r;
        } else if (order == 1 || (order == 4 && r < 24)) {
          rows[n++] = order == 1 ? nefc - 1 - r : 23 - r;   // 4: a few dofs of many (sorted
        }                                                   //   by insertion, 22_humanoids)
      }
      for (int sc=0; sc < 8; sc++) {
        // by rows, by sparse columns and by dense columns (forced, on at most 256 rows; dense
        // where they fit), and as chosen by their work
        const mjtNum* ds = sc % 2 ? scale : NULL;
        if (sc < 2) {
          acs_delassusRows(G, p, rows, n, ds, scratch);
        } else {
          int way = sc < 6 ? sc / 2 : 0;
          acs_testDelassusColumns = way;
          int bycols = acs_delassusColumns(G, p, rows, n, ds, scratch, &cols);
          acs_testDelassusColumns = 0;
          ncols += bycols > 0;
          ndense += bycols == 2;
          nchosen += !way && bycols == 2;
          nforced += way && n <= 256;
          nwrong += way == 1 && n <= 256 && bycols != 1;
          nwrong += way == 2 && n <= 256 && n * p->nv <= cols.ndense && bycols != 2;
        }
        for (int a=0; a < n; a++) {
          for (int b=0; b <= a; b++) {
            int ra = rows[a], rb = rows[b];
            mjtNum g = acs_delassus(p, ra, rb);
            mjtNum ref = ds ? ds[ra] * g * ds[rb] : g;
            if (a == b && p->R) {
              ref += ds ? ds[ra] * p->R[ra] * ds[ra] : p->R[ra];
            }
            nwrong += !(G[a*n+b] == ref && G[b*n+a] == ref);
            nentry++;
          }
        }
      }
    }
    printf("  %s: %d rows, %d entries, %d differ from the sparse dot products (%d of %d H by "
           "columns, %d dense, %d forced)\n", models[im], nefc, nentry, nwrong, ncols, 30, ndense,
           nforced);
    ENSURE(nwrong == 0);
    ENSURE(nforced == (im ? 8 : 20));   // the lists of at most 256 rows, by columns when forced
    ENSURE(ndense >= (im ? 2 : 10));    // forced dense wherever they fit (the humanoid's lists)
    ENSURE(im || nchosen >= 2);         // and chosen for some of the humanoid's (its contacts)
    mju_free(colswork);

    // the diagonal blocks (acs_blockDelassus, by entries on one pattern where the block's rows
    // share it: every contact here) and the rows' own products (acs_delassus of a row with
    // itself, a sum of squares) to the bit a plain merge of the sorted rows of B, plus R
    int nshared = 0, nblockwrong = 0;
    for (int k=0; k < p->nblock; k++) {
      int adr = p->block_adr[k], dim = p->block_dim[k];
      mjtNum Gk[36];
      nshared += acs_sharedPattern(p, k) && dim > 1;
      acs_blockDelassus(Gk, p, k);
      for (int i=0; i < dim; i++) {
        for (int j=0; j < dim; j++) {
          mjtNum merge = mergeDot(p, adr+i, adr+j);
          mjtNum ref = merge + (i == j && p->R ? p->R[adr+i] : 0);
          nblockwrong += !(Gk[i*dim+j] == ref);
          nblockwrong += i == j && !(acs_delassus(p, adr+i, adr+i) == merge);
        }
      }
    }
    printf("  %s: %d blocks (%d of several rows on one pattern), %d block entries differ\n",
           models[im], p->nblock, nshared, nblockwrong);
    ENSURE(nshared >= (im ? 40 : 5) && nblockwrong == 0);
    mju_free(scratch);
    mju_free(scale);
    mju_free(G);
    mju_free(rows);
    acs_deleteContext(ctx);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}


// a hand-built problem of nefc rows of B on nv columns (CSR), for the tests of the Delassus
// assembly below
static void rowsOfB(acsProblem* p, int nv, int nefc, int nnz, const int* rownnz,
                    const int* rowadr, const int* colind, const mjtNum* val) {
  memset(p, 0, sizeof(*p));
  p->nv = nv;
  p->nefc = nefc;
  p->nnzB = nnz;
  p->B_rownnz = rownnz;
  p->B_rowadr = rowadr;
  p->B_colind = colind;
  p->B = val;
}


// G of p's first n rows (n <= 3) by sparse columns and by dense columns (forced) against G by
// rows, to the bit; G_01 by rows in *g01
static void columnsToTheBit(mjtNum* g01, const acsProblem* p, int n) {
  int rows[3] = {0, 1, 2}, count[10], touched[10], next[10], row[16];
  mjtNum colval[16], dense[30], scratch[10], Grows[9], Gcols[9];
  acsColumns cols = {.count = count, .touched = touched, .next = next, .row = row,
                     .val = colval, .dense = dense, .ndense = 30};
  acs_delassusRows(Grows, p, rows, n, NULL, scratch);
  *g01 = Grows[1];
  for (int way=1; way <= 2; way++) {
    acs_testDelassusColumns = way;
    int bycols = acs_delassusColumns(Gcols, p, rows, n, NULL, scratch, &cols);
    acs_testDelassusColumns = 0;
    int nwrong = 0;
    for (int i=0; i < n*n; i++) {
      nwrong += !(Grows[i] == Gcols[i]);
    }
    printf("  by %s columns: G_01 = %g, %d of %d entries differ\n", way == 1 ? "sparse" : "dense",
           Gcols[1], nwrong, n*n);
    ENSURE(bycols == way && nwrong == 0);
  }
}


// acs_delassusColumns visits the columns in ascending order whatever order the rows first touch
// them in: hand-built rows of B whose columns are first met out of order (row 0 on column 9, row
// 1 adds 2, row 2 adds 0), row 2's entries 1, 1 and 1e8: its square sum is 1e16 + 2 in the
// columns' order and 1e16 from column 9 on (1e16 + 1 rounds to 1e16). G by columns (forced)
// equals G by rows to the bit (the list left unsorted: 1 entry differs)
static void testDelassusColumnsOrder(void) {
  static const int rownnz[3] = {1, 2, 3}, rowadr[3] = {0, 1, 3};
  static const int colind[6] = {9, 2, 9, 0, 2, 9};
  static const mjtNum val[6] = {1, 1, 1, 1, 1, 1e8};
  acsProblem p;
  mjtNum g01;
  rowsOfB(&p, 10, 3, 6, rownnz, rowadr, colind, val);
  columnsToTheBit(&g01, &p, 3);
}


// acs_delassusColumns by dense columns, four at a time, carries each entry's sum in the order of
// the columns: two hand-built rows of B on columns 0 to 7 whose products are 1, 0, 0, 0, 1e16,
// -1e16, 3, 0 in that order. In order, ((1 + 1e16) - 1e16) + 3 = 3 (1e16 + 1 rounds to 1e16);
// four columns summed apart, then added (1 + (1e16 - 1e16 + 3)) give 4; in reverse order 5.
// By rows, sparse columns and dense columns, G_01 is 3 and the three G equal to the bit
static void testDelassusDenseOrder(void) {
  static const int rownnz[2] = {8, 8}, rowadr[2] = {0, 8};
  static const int colind[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
  static const mjtNum val[16] = {1, 0, 0, 0, 1e8, 1e8, 1, 0,
                                 1, 2, 0, 5, 1e8, -1e8, 3, 7};
  acsProblem p;
  mjtNum g01;
  rowsOfB(&p, 8, 2, 16, rownnz, rowadr, colind, val);
  columnsToTheBit(&g01, &p, 2);
  ENSURE(g01 == 3);
}


// acs_projectRange (ADMM's least change of its subspace start) on the lying humanoid's contact
// rows (a hyperstatic set: 27 dofs), scaled as ADMM scales them: y's projection P y onto the range
// of the rows' Delassus matrix. Its remainder y - P y is orthogonal to that range (A'(y - Py) = 0,
// A = D J), P y is in it (projected again, it stays), the two ways of forming A'A agree, and the
// rows are found dependent. The normal equations' rounding grows with cond(A)^2: measured 1.4e-9
// (orthogonality, of |A'| |y|), 7.6e-10 and 1.8e-10 (of max |y|); the bounds are 1e-7 (the least
// change's forces are checked against the solver's tolerance afterwards). Breaking the projection
// (the rows' scales left out of A'y) leaves A'(y - Py) at 0.3 of |A'| |y|. One contact's three
// rows are independent: left as they are; and acs_delassusColumns, sharing the workspace, still
// forms G to the bit (the counts left set: both FAILED). The humanoid comes to rest in one of
// two contact configurations, which a rounding-level change picks: on 30 or 31 contact rows, or 25
// (independent, fewer than its 27 dofs); the test takes the first run, from keyframe 0 with the
// joints' speeds raised by k 1e-9 (k = 0 to 7), that rests on more contact rows than dofs
static void testProjectRange(void) {
  mjModel* m;
  mjData* d;
  acsContext* ctx = NULL;
  for (int k=0; k < 8; k++) {
    ctx = settledProblemFrom(&m, &d, "humanoid.xml", k * 1e-9);
    if (!ctx) return;
    int ncontact = 0;
    for (int b=0; b < ctx->problem.nblock; b++) {
      ncontact += ctx->problem.block_type[b] == acsBLOCK_CONTACT ? ctx->problem.block_dim[b] : 0;
    }
    if (ncontact > ctx->problem.nv || k == 7) {
      printf("  at rest from speeds raised by %d 1e-9 rad/s%s\n", k, ncontact > ctx->problem.nv ?
             "" : " (none of the 8 runs rests on more rows than dofs)");
      break;
    }
    acs_deleteContext(ctx);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
  const acsProblem* p = &ctx->problem;
  int n = 0, nv = p->nv;
  int* rows = mju_malloc(sizeof(int) * p->nefc);
  mjtNum* scale = mju_malloc(sizeof(mjtNum) * p->nefc);
  mjtNum* y0 = mju_malloc(sizeof(mjtNum) * p->nefc);
  mjtNum* y[2] = {mju_malloc(sizeof(mjtNum) * p->nefc), mju_malloc(sizeof(mjtNum) * p->nefc)};
  mjtNum* again = mju_malloc(sizeof(mjtNum) * p->nefc);
  mjtNum* Ar = mju_malloc(sizeof(mjtNum) * nv);
  mjtNum* Ay = mju_malloc(sizeof(mjtNum) * nv);
  for (int k=0; k < p->nblock; k++) {
    for (int r=0; p->block_type[k] == acsBLOCK_CONTACT && r < p->block_dim[k]; r++) {
      rows[n] = p->block_adr[k] + r;
      y0[n] = sin(1.3 * n) + 0.5;
      n++;
    }
  }
  for (int r=0; r < p->nefc; r++) {
    scale[r] = 1 + 0.1 * (r % 7);
  }
  acsColumns cols;
  void* work = columnsWork(&cols, p);
  ENSURE(n > nv);
  int ret[2];
  for (int way=1; way <= 2; way++) {
    mju_copy(y[way-1], y0, n);
    acs_testProjectRange = way;
    ret[way-1] = acs_projectRange(y[way-1], p, rows, n, scale, 1e-7, &cols);
    acs_testProjectRange = 0;
  }
  ENSURE(ret[0] == 1 && ret[1] == 1);

  // A'(y - Py) and |A'| |y| (the rows' absolute values)
  mju_zero(Ar, nv);
  mju_zero(Ay, nv);
  for (int a=0; a < n; a++) {
    int r = rows[a], adr = p->J_rowadr[r];
    for (int c=0; c < p->J_rownnz[r]; c++) {
      Ar[p->J_colind[adr+c]] += scale[r] * p->J[adr+c] * (y0[a] - y[1][a]);
      Ay[p->J_colind[adr+c]] += fabs(scale[r] * p->J[adr+c] * y0[a]);
    }
  }
  mjtNum ortho = 0, ways = 0, idem = 0, ynorm = 0, moved = 0;
  for (int c=0; c < nv; c++) {
    ortho = mju_max(ortho, Ay[c] > 0 ? fabs(Ar[c]) / Ay[c] : 0);
  }
  mju_copy(again, y[1], n);
  acs_projectRange(again, p, rows, n, scale, 1e-7, &cols);
  for (int a=0; a < n; a++) {
    ways = mju_max(ways, fabs(y[0][a] - y[1][a]));
    idem = mju_max(idem, fabs(again[a] - y[1][a]));
    ynorm = mju_max(ynorm, fabs(y0[a]));
    moved = mju_max(moved, fabs(y0[a] - y[1][a]));
  }
  printf("  %d contact rows on %d dofs: y moved by %.2f, |A'(y - Py)| %.1e of |A'||y|, the two "
         "ways %.1e apart, projected again %.1e\n", n, nv, moved, ortho, ways, idem);
  ENSURE(moved > 0.01 * ynorm);       // a dependent set: some of y is not in the range
  ENSURE_LE(ortho, 1e-7);
  ENSURE_LE(ways, 1e-7 * ynorm);
  ENSURE_LE(idem, 1e-7 * ynorm);

  // one contact's three rows are independent: left as they are (return 0), to the bit
  mju_copy(again, y0, 3);
  ENSURE(acs_projectRange(again, p, rows, 3, scale, 1e-7, &cols) == 0);
  ENSURE(!memcmp(again, y0, 3 * sizeof(mjtNum)));

  // the workspace it shares with acs_delassusColumns is left as that expects (count zero): G of
  // the rows by columns, both ways, after the projections, equals G by rows to the bit
  mjtNum* Grows = mju_malloc(sizeof(mjtNum) * n * n);
  mjtNum* Gcols = mju_malloc(sizeof(mjtNum) * n * n);
  acs_delassusRows(Grows, p, rows, n, NULL, Ar);
  int nwrong = 0;
  for (int way=1; way <= 2; way++) {
    acs_testDelassusColumns = way;
    ENSURE(acs_delassusColumns(Gcols, p, rows, n, NULL, Ar, &cols) == way);
    acs_testDelassusColumns = 0;
    nwrong += memcmp(Grows, Gcols, sizeof(mjtNum) * n * n) != 0;
  }
  ENSURE(nwrong == 0);
  mju_free(Gcols);
  mju_free(Grows);
  mju_free(work);
  mju_free(Ay);
  mju_free(Ar);
  mju_free(again);
  mju_free(y[1]);
  mju_free(y[0]);
  mju_free(y0);
  mju_free(scale);
  mju_free(rows);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


// a block's rows in one pass (acs_velocityBlock and acs_addYTBlock with shared): the assembly's
// blocks share their pattern (every contact of the lying humanoid), and the one-pass results are
// the row-by-row ones to the bit, for random w, f and df (some of df zero: those rows are skipped
// by both); a block whose rows do not share a pattern (a row's column moved in a copy of B's
// columns) is seen as such
static void testBlockPass(void) {
  mjModel* m;
  mjData* d;
  acsContext* ctx = settledProblem(&m, &d, "humanoid.xml");
  if (!ctx) return;
  const acsProblem* p = &ctx->problem;
  int nv = p->nv, nefc = p->nefc, ncontact = 0, nshared = 0, nwrong = 0;
  mjtNum* w = mju_malloc(sizeof(mjtNum) * nv);
  mjtNum* w0 = mju_malloc(sizeof(mjtNum) * nv);
  mjtNum* w1 = mju_malloc(sizeof(mjtNum) * nv);
  mjtNum* f = mju_malloc(sizeof(mjtNum) * nefc);
  for (int i=0; i < nv; i++) {
    w[i] = sin(1.7 * i + 0.3);
  }
  for (int r=0; r < nefc; r++) {
    f[r] = cos(0.9 * r);
  }
  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k], shared = acs_sharedPattern(p, k);
    ncontact += p->block_type[k] == acsBLOCK_CONTACT && dim == 3;
    nshared += p->block_type[k] == acsBLOCK_CONTACT && dim == 3 && shared;
    mjtNum a0[6], a1[6];
    acs_velocityBlock(a0, p, k, w, f, 0);
    acs_velocityBlock(a1, p, k, w, f, shared);
    nwrong += memcmp(a0, a1, sizeof(mjtNum) * dim) != 0;
    for (int z=0; z < 2; z++) {
      mjtNum df[6];
      for (int r=0; r < dim; r++) {
        df[r] = z && r == 1 ? 0 : 0.1 * (r + 1) * (k % 2 ? -1 : 1);
      }
      mju_copy(w0, w, nv);
      mju_copy(w1, w, nv);
      acs_addYTBlock(w0, p, k, df, 0);
      acs_addYTBlock(w1, p, k, df, shared);
      nwrong += memcmp(w0, w1, sizeof(mjtNum) * nv) != 0;
    }
  }
  printf("  %d condim-3 contacts, %d with a shared pattern; %d one-pass results differ\n",
         ncontact, nshared, nwrong);
  ENSURE(ncontact >= 5 && nshared == ncontact);
  ENSURE(nwrong == 0);

  // a copy of B whose second row of the first contact has one column moved: not shared
  int k = 0;
  while (k < p->nblock && !(p->block_type[k] == acsBLOCK_CONTACT && p->block_dim[k] == 3)) {
    k++;
  }
  if (k < p->nblock) {
    acsProblem q = *p;
    int* colind = mju_malloc(sizeof(int) * p->nnzB);
    memcpy(colind, p->B_colind, sizeof(int) * p->nnzB);
    int r = p->block_adr[k] + 1, last = p->B_rowadr[r] + p->B_rownnz[r] - 1;
    ENSURE(p->B_colind[last] < nv - 1);   // the humanoid's contacts miss the last dof's limb
    colind[last] = nv - 1;
    q.B_colind = colind;
    ENSURE(acs_sharedPattern(p, k) && !acs_sharedPattern(&q, k));
    mju_free(colind);
  }
  mju_free(w);
  mju_free(w0);
  mju_free(w1);
  mju_free(f);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


// acs_denseFactor and acs_denseSolve: G x = b for G = A A' + I (n 30, A pseudo-random in [-1, 1]:
// condition ~1e2, so |Gx - b| within 1e-12 of |b|, rounding of 30-term sums being 1e-15); then
// with A's row 20 the sum of its rows 3 and 11 and no identity on those three rows, G's row 20 is
// the sum of rows 3 and 11 (rank-deficient): the factorization drops it, its x is 0 and the kept
// rows' equations hold
static void testDenseSolve(void) {
  enum { n = 30 };
  static mjtNum A[n*n], G[n*n], L[n*n], x[n], b[n];
  unsigned seed = 12345;
  for (int i=0; i < n*n; i++) {
    seed = seed * 1103515245u + 12345u;
    A[i] = (seed >> 8) / (mjtNum)(1u << 24) * 2 - 1;
  }
  for (int dep=0; dep < 2; dep++) {
    if (dep) {
      for (int j=0; j < n; j++) {
        A[20*n+j] = A[3*n+j] + A[11*n+j];
      }
    }
    for (int i=0; i < n; i++) {
      for (int j=0; j < n; j++) {
        G[i*n+j] = mju_dot(A + i*n, A + j*n, n) +
                   (i == j && !(dep && (i == 3 || i == 11 || i == 20)));
      }
    }
    for (int i=0; i < n; i++) {
      b[i] = x[i] = cos(0.5 * i);
    }
    mju_copy(L, G, n*n);
    acs_denseFactor(L, n, 1e-10);
    acs_denseSolve(x, L, n);
    mjtNum worst = 0, bmax = 0;
    for (int i=0; i < n; i++) {
      if (dep && i == 20) {
        continue;
      }
      worst = mju_max(worst, mju_abs(mju_dot(G + i*n, x, n) - b[i]));
      bmax = mju_max(bmax, mju_abs(b[i]));
    }
    printf("  %s: largest |Gx - b| %.1e (|b| up to %.1f)%s\n",
           dep ? "row 20 dependent" : "full rank", worst, bmax,
           dep ? (L[20*n+20] == 0 && x[20] == 0 ? ", row 20 dropped, its x 0" : ", row 20 kept") :
                 "");
    ENSURE_LE(worst, 1e-12 * bmax);
    ENSURE(!dep || (L[20*n+20] == 0 && x[20] == 0));
  }
}


// acs_denseProjectRange: y projected onto the range of G = A A' (A n x k pseudo-random in [-1, 1],
// rank k) both ways, by the null vectors of the factor's dropped rows and by its kept columns,
// against A (A'A)^-1 A'y formed here (A'A's condition ~10: rounding of n-term sums, 1e-15, so
// 1e-12 of |y|), and A'(y - Py) = 0 (y's remainder is orthogonal to the range). The choice is
// acs_denseProjectRange's cost rule, the same to the bit as the way it names: the kept columns
// for 24 rows of rank 6 (a pair touching at eight contacts), the null vector for 8 rows of rank 7
static void testDenseProjectRange(void) {
  enum { nmax = 24 };
  static mjtNum A[nmax*nmax], G[nmax*nmax], Gf[nmax*nmax], work[2*nmax*nmax + nmax];
  static mjtNum y[nmax], yw[nmax], yc[nmax], AtA[nmax*nmax], c[nmax];
  int shape[2][2] = {{24, 6}, {8, 7}};
  unsigned seed = 777;
  for (int s=0; s < 2; s++) {
    int n = shape[s][0], k = shape[s][1];
    for (int i=0; i < n*k; i++) {
      seed = seed * 1103515245u + 12345u;
      A[i] = (seed >> 8) / (mjtNum)(1u << 24) * 2 - 1;     // A's row i: A + i k
    }
    for (int i=0; i < n; i++) {
      y[i] = cos(0.7 * i + s);
      for (int j=0; j < n; j++) {
        G[i*n+j] = mju_dot(A + i*k, A + j*k, k);
      }
    }

    // the projection formed here: c = (A'A)^-1 A'y, yc = A c
    for (int a=0; a < k; a++) {
      c[a] = 0;
      for (int i=0; i < n; i++) {
        c[a] += A[i*k+a] * y[i];
      }
      for (int b=0; b < k; b++) {
        AtA[a*k+b] = 0;
        for (int i=0; i < n; i++) {
          AtA[a*k+b] += A[i*k+a] * A[i*k+b];
        }
      }
    }
    acs_denseFactor(AtA, k, 1e-12);
    acs_denseSolve(c, AtA, k);
    for (int i=0; i < n; i++) {
      yc[i] = mju_dot(A + i*k, c, k);
    }
    mjtNum ymax = 0;
    for (int i=0; i < n; i++) {
      ymax = mju_max(ymax, mju_abs(y[i]));
    }

    mjtNum chosen[nmax], byway[3][nmax];
    for (int way=0; way < 3; way++) {
      acs_testDenseProjectRange = way;
      mju_copy(Gf, G, n*n);
      mju_copy(yw, y, n);
      acs_denseProjectRange(yw, Gf, n, work, 1e-7);
      acs_testDenseProjectRange = 0;
      mju_copy(way ? byway[way] : chosen, yw, n);
      mjtNum err = 0, ortho = 0;
      for (int i=0; i < n; i++) {
        err = mju_max(err, mju_abs(yw[i] - yc[i]));
      }
      for (int a=0; a < k; a++) {
        mjtNum r = 0;
        for (int i=0; i < n; i++) {
          r += A[i*k+a] * (y[i] - yw[i]);
        }
        ortho = mju_max(ortho, mju_abs(r));
      }
      printf("  %d rows of rank %d, %s: |Py - A(A'A)^-1A'y| %.1e, |A'(y - Py)| %.1e (|y| up to "
             "%.2f)\n", n, k, way == 0 ? "as chosen" : way == 1 ? "null vectors" : "kept columns",
             err, ortho, ymax);
      ENSURE_LE(err, 1e-12 * ymax);
      ENSURE_LE(ortho, 1e-12 * ymax);
    }
    int nnull = n - k, bykept = k * k < nnull * (n / 2 + nnull);
    ENSURE(!memcmp(chosen, byway[bykept ? 2 : 1], sizeof(mjtNum) * n));
    ENSURE(bykept == (s == 0));
  }
}


int main(int argc, char** argv) {
  acstTest tests[] = {
    TEST(testRows),
    TEST(testBias),
    TEST(testCompliance),
    TEST(testFactorRows),
    TEST(testDelassusRows),
    TEST(testDelassusColumnsOrder),
    TEST(testDelassusDenseOrder),
    TEST(testProjectRange),
    TEST(testBlockPass),
    TEST(testDenseSolve),
    TEST(testDenseProjectRange),
    TEST(testConsistentStabilization),
    TEST(testConsistentStabilizationTwoContacts),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
