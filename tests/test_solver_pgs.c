// Copyright 2026 The acs authors.
//
// Tests for plugin/solver_pgs.c on hand-built problems with known answers.

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "test_util.h"

#define G 9.81
#define H 0.01

// residual requested from the solver on these small problems (force-scaled units, N m/s^2)
#define kTol 1e-12

// force error allowed against the analytic answers: the problems are solved to a residual of
// 1e-12 with forces of order 10 N and G of order 1/kg, so 1e-9 N leaves three orders of margin
#define kForceTol 1e-9


// point mass m: dofs (x, y, z); contact on the plane z = 0 with rows (n = z, t1 = x, t2 = y);
// free acceleration from the applied force F and the velocity v0
static void pointMass(acstProblem* t, mjtNum m, mjtNum mu, const mjtNum F[2], const mjtNum v0[3]) {
  mjtNum M[9] = {m, 0, 0, 0, m, 0, 0, 0, m};
  mjtNum J[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
  mjtNum acc[3] = {F[0]/m, F[1]/m, -G};
  mjtNum b[3];
  for (int r=0; r < 3; r++) {
    b[r] = 0;
    for (int c=0; c < 3; c++) {
      b[r] += J[3*r+c] * (v0[c]/H + acc[c]);
    }
  }
  mjtNum mus[5] = {mu, mu, 0, 0, 0};
  acst_problemInit(t, 3, M, H);
  acst_problemAdd(t, acsBLOCK_CONTACT, 3, J, b, mus, 0);
}


static void testStick(void) {
  // |F| = 5 N < mu m g = 9.81 N: friction cancels F, the normal force carries the weight
  acstProblem t;
  mjtNum F[2] = {3, 4}, v0[3] = {0, 0, 0}, f[3] = {0, 0, 0};
  pointMass(&t, 2, 0.5, F, v0);
  acsStats st;
  ENSURE(acst_solve(f, &st, &t.p, "pgs", kTol, 100) == acsSTATUS_CONVERGED);
  ENSURE_NEAR(f[0], 2*G, kForceTol);
  ENSURE_NEAR(f[1], -3, kForceTol);
  ENSURE_NEAR(f[2], -4, kForceTol);
  ENSURE_LE(st.residual, kTol);

  // solving again from the solution takes no iteration (warm start)
  ENSURE(acst_solve(f, &st, &t.p, "pgs", kTol, 100) == acsSTATUS_CONVERGED);
  ENSURE(st.niter == 0);
}


static void testSlideFromRest(void) {
  // |F| = 20 N > mu m g: kinetic friction mu m g opposite to F (the motion starts along F)
  acstProblem t;
  mjtNum F[2] = {12, 16}, v0[3] = {0, 0, 0}, f[3] = {0, 0, 0};
  pointMass(&t, 2, 0.5, F, v0);
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 1000) == acsSTATUS_CONVERGED);
  ENSURE_NEAR(f[0], 2*G, kForceTol);
  ENSURE_NEAR(f[1], -0.5*2*G*0.6, kForceTol);
  ENSURE_NEAR(f[2], -0.5*2*G*0.8, kForceTol);
}


static void testSlideMoving(void) {
  // moving along x at 1 m/s, no force: friction -mu m g along x (it cannot stop in one step:
  // stopping needs 100 m/s^2 > mu g)
  acstProblem t;
  mjtNum F[2] = {0, 0}, v0[3] = {1, 0, 0}, f[3] = {5, 5, 5};
  pointMass(&t, 2, 0.5, F, v0);
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 1000) == acsSTATUS_CONVERGED);
  ENSURE_NEAR(f[0], 2*G, kForceTol);
  ENSURE_NEAR(f[1], -0.5*2*G, kForceTol);
  ENSURE_NEAR(f[2], 0, kForceTol);
}


static void testSeparate(void) {
  // moving up at 1 m/s: the contact opens, no force (even from a wrong warm start)
  acstProblem t;
  mjtNum F[2] = {1, 0}, v0[3] = {0, 0, 1}, f[3] = {10, 1, 1};
  pointMass(&t, 2, 0.5, F, v0);
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 100) == acsSTATUS_CONVERGED);
  ENSURE(f[0] == 0 && f[1] == 0 && f[2] == 0);
}


// rigid box of mass m, inertia I (about its center), contacts at corners r relative to the
// center with world-aligned frames (n = z, t1 = x, t2 = y); dofs (v, omega) in world frame
static void boxCorners(acstProblem* t, int ncorner, const mjtNum (*r)[3], mjtNum mu,
                       const mjtNum acc[6]) {
  mjtNum m = 1, I = 1.0/6 * m * 0.2 * 0.2;   // cube of side 0.2
  mjtNum M[36] = {0};
  for (int i=0; i < 3; i++) {
    M[7*i] = m;
    M[7*(i+3)] = I;
  }
  acst_problemInit(t, 6, M, H);
  mjtNum mus[5] = {mu, mu, 0, 0, 0};
  for (int c=0; c < ncorner; c++) {
    // point velocity v + omega x r = v - [r]x omega; rows z, x, y
    const mjtNum* p = r[c];
    mjtNum J[18] = {
      0, 0, 1,  p[1], -p[0], 0,     // z: v_z + w_x r_y - w_y r_x
      1, 0, 0,  0, p[2], -p[1],     // x: v_x + w_y r_z - w_z r_y
      0, 1, 0,  -p[2], 0, p[0],     // y: v_y + w_z r_x - w_x r_z
    };
    mjtNum b[3];
    for (int row=0; row < 3; row++) {
      b[row] = 0;
      for (int col=0; col < 6; col++) {
        b[row] += J[6*row+col] * acc[col];
      }
    }
    acst_problemAdd(t, acsBLOCK_CONTACT, 3, J, b, mus, 0);
  }
}


static void testSlideOffCenter(void) {
  // one corner contact of a box pushed sideways: G_nt != 0, so the slip direction is not the
  // push direction; the NCP solution slides with friction exactly opposite to the slip and on
  // the cone surface, and with zero normal velocity (persistent contact)
  const mjtNum r[1][3] = {{0.1, 0.05, -0.1}};
  mjtNum acc[6] = {6, 3, -G, 0, 0, 0};
  acstProblem t;
  boxCorners(&t, 1, r, 0.3, acc);
  mjtNum f[3] = {0, 0, 0}, a[3];
  acsStats st;
  ENSURE(acst_solve(f, &st, &t.p, "pgs", 1e-10, 100000) == acsSTATUS_CONVERGED);
  acst_velocity(a, &t.p, f);
  mjtNum ft = sqrt(f[1]*f[1] + f[2]*f[2]), at = sqrt(a[1]*a[1] + a[2]*a[2]);
  ENSURE(f[0] > 0 && at > 1);
  // on the cone: |f_t| = mu f_n; opposite to the slip: cos(angle) = -1; a_n = 0.
  // 1e-8 relative: a residual of 1e-10 with f ~ 10 N and a ~ 10 m/s^2
  ENSURE_NEAR(ft, 0.3*f[0], 1e-8*f[0]);
  ENSURE_NEAR((f[1]*a[1] + f[2]*a[2]) / (ft*at), -1, 1e-8);
  ENSURE_NEAR(a[0], 0, 1e-8);
}


static void testHyperstaticBox(void) {
  // four corners of a resting box: forces are not unique, but they must carry the weight with
  // zero net torque and leave every corner at rest
  const mjtNum r[4][3] = {{0.1, 0.1, -0.1}, {-0.1, 0.1, -0.1}, {0.1, -0.1, -0.1},
                          {-0.1, -0.1, -0.1}};
  mjtNum acc[6] = {0, 0, -G, 0, 0, 0};
  acstProblem t;
  boxCorners(&t, 4, r, 0.5, acc);
  mjtNum f[12] = {0}, a[12];
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 10000) == acsSTATUS_CONVERGED);
  acst_velocity(a, &t.p, f);
  // net wrench of the corner forces (rows n = z, t1 = x, t2 = y) balances the weight
  mjtNum F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
  for (int c=0; c < 4; c++) {
    mjtNum fw[3] = {f[3*c+1], f[3*c+2], f[3*c]}, tw[3];
    mju_cross(tw, r[c], fw);
    mju_addTo3(F, fw);
    mju_addTo3(T, tw);
    ENSURE_LE(fabs(a[3*c]) + fabs(a[3*c+1]) + fabs(a[3*c+2]), 1e-9);
  }
  ENSURE_NEAR(F[0], 0, kForceTol);
  ENSURE_NEAR(F[1], 0, kForceTol);
  ENSURE_NEAR(F[2], G, kForceTol);
  for (int i=0; i < 3; i++) {
    ENSURE_NEAR(T[i], 0, kForceTol);
  }
}


static void testOtherRows(void) {
  // one dof of mass 2 with an applied force of 3 N (free acceleration 1.5 m/s^2)
  mjtNum M[1] = {2}, J[1] = {1};
  mjtNum f[1];
  acstProblem t;

  // friction loss 5 N holds 3 N; friction loss 1 N slides with -1 N
  mjtNum b[1] = {1.5};
  acst_problemInit(&t, 1, M, H);
  acst_problemAdd(&t, acsBLOCK_FRICTION, 1, J, b, NULL, 5);
  f[0] = 0;
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 10) == acsSTATUS_CONVERGED);
  ENSURE_NEAR(f[0], -3, kForceTol);
  t.block_floss[0] = 1;
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 10) == acsSTATUS_CONVERGED);
  ENSURE_NEAR(f[0], -1, kForceTol);

  // limit pushed into: f = 2 kg * 1.5 m/s^2; pulled away: f = 0
  mjtNum bin[1] = {-1.5}, bout[1] = {1.5};
  acst_problemInit(&t, 1, M, H);
  acst_problemAdd(&t, acsBLOCK_LIMIT, 1, J, bin, NULL, 0);
  f[0] = 0;
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 10) == acsSTATUS_CONVERGED);
  ENSURE_NEAR(f[0], 3, kForceTol);
  t.b[0] = bout[0];
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 10) == acsSTATUS_CONVERGED);
  ENSURE(f[0] == 0);

  // equality: two coupled bilateral rows on two dofs (x1 - x2 = 0, x1 + x2 = 0) hold both dofs
  mjtNum M2[4] = {1, 0, 0, 3}, J2[4] = {1, -1, 1, 1}, b2[2] = {2 - 0.5, 2 + 0.5};
  mjtNum f2[2] = {0, 0}, a2[2];
  acst_problemInit(&t, 2, M2, H);
  acst_problemAdd(&t, acsBLOCK_EQUALITY, 2, J2, b2, NULL, 0);
  ENSURE(acst_solve(f2, NULL, &t.p, "pgs", kTol, 10) == acsSTATUS_CONVERGED);
  acst_velocity(a2, &t.p, f2);
  ENSURE_NEAR(a2[0], 0, 1e-12);
  ENSURE_NEAR(a2[1], 0, 1e-12);
}


static void testBadInput(void) {
  acstProblem t;
  mjtNum F[2] = {0, 0}, v0[3] = {0, 0, 0}, f[3] = {0, 0, 0};
  pointMass(&t, 2, 0.5, F, v0);

  // a valid problem passes the check; a NaN is reported by row
  char error[acsNERROR];
  ENSURE(acs_checkProblem(&t.p, error, sizeof(error)) == 0);
  t.b[1] = NAN;
  ENSURE(acs_checkProblem(&t.p, error, sizeof(error)) == -1);
  ENSURE(strstr(error, "row 1"));
  t.block_dim[0] = 2;
  ENSURE(acs_checkProblem(&t.p, error, sizeof(error)) == -1);
  ENSURE(strstr(error, "block_dim[0] = 2"));
  t.block_dim[0] = 3;

  // NaN in the problem: no NaN forces come out
  ENSURE(acst_solve(f, NULL, &t.p, "pgs", kTol, 10) == acsSTATUS_DIVERGED);
  ENSURE(f[0] == 0 && f[1] == 0 && f[2] == 0);

  // native is not a problem solver; an empty problem is trivially solved
  t.b[1] = 0;
  ENSURE(acst_solve(f, NULL, &t.p, "native", kTol, 10) == acsSTATUS_ERROR);
  acstProblem empty;
  mjtNum M[1] = {1};
  acst_problemInit(&empty, 1, M, H);
  ENSURE(acst_solve(f, NULL, &empty.p, "pgs", kTol, 10) == acsSTATUS_EMPTY);
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testStick),
    TEST(testSlideFromRest),
    TEST(testSlideMoving),
    TEST(testSeparate),
    TEST(testSlideOffCenter),
    TEST(testHyperstaticBox),
    TEST(testOtherRows),
    TEST(testBadInput),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
