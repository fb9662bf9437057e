// Copyright 2026 The acs authors.
//
// Tests for plugin/cone.c: friction cones, duals, projections, De Saxce correction; and the contact
// residual built on them (residual.c).

#include <math.h>
#include <stdlib.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "residual.h"
#include "test_util.h"

// the projections are exact up to rounding (closed form) or to a bisection stopped at a relative
// bracket of 1e-15: 1e-10 relative to |x| leaves room for rounding in the checks themselves
#define kProjTol 1e-10

static mjtNum randUniform(unsigned* seed) {
  *seed = *seed * 1103515245u + 12345u;
  return ((*seed >> 8) & 0xFFFFFF) / (mjtNum)0xFFFFFF * 2 - 1;
}


// Moreau: p = P_C(x) iff p in C, x - p in the polar cone -C*, and <p, x - p> = 0
static void checkMoreau(const mjtNum* x, const mjtNum* mu, int dim, int dual) {
  mjtNum p[6], q[6], mq[6], scale = mju_norm(x, dim) + 1;
  acsu_projectCone(p, x, mu, dim, dual);
  for (int i=0; i < dim; i++) {
    q[i] = x[i] - p[i];
    mq[i] = -q[i];
  }
  // membership of p in C and of -q in C*: distances vanish
  ENSURE_LE(acsu_coneDistance(p, mu, dim, dual), kProjTol*scale);
  ENSURE_LE(acsu_coneDistance(mq, mu, dim, !dual), kProjTol*scale);
  ENSURE_LE(mju_abs(mju_dot(p, q, dim)), kProjTol*scale*scale);
}


static void testProjectionIsotropic(void) {
  // x = (0, 1, 0), mu = 1: the closest point of {|f_t| <= f_n} is (1/2, 1/2, 0)
  mjtNum mu[5] = {1, 1, 0, 0, 0}, x[3] = {0, 1, 0}, p[3];
  acsu_projectCone(p, x, mu, 3, 0);
  ENSURE_NEAR(p[0], 0.5, 1e-15);
  ENSURE_NEAR(p[1], 0.5, 1e-15);
  ENSURE_NEAR(p[2], 0, 1e-15);

  // inside stays, polar goes to the apex
  mjtNum in[3] = {1, 0.3, -0.4}, polar[3] = {-1, 0.5, 0.5};
  acsu_projectCone(p, in, mu, 3, 0);
  ENSURE(p[0] == 1 && p[1] == 0.3 && p[2] == -0.4);
  acsu_projectCone(p, polar, mu, 3, 0);
  ENSURE(p[0] == 0 && p[1] == 0 && p[2] == 0);

  // dual cone of mu = 0.5 is {2 |a_t| <= ... } = {0.5 |a_t| <= a_n}: (1, 1, 0) is inside
  mjtNum half[5] = {0.5, 0.5, 0, 0, 0}, a[3] = {1, 1, 0};
  ENSURE(acsu_coneDistance(a, half, 3, 1) == 0);
  ENSURE(acsu_coneDistance(a, half, 3, 0) > 0);
}


static void testProjectionRandom(void) {
  const mjtNum mus[][5] = {
    {0.5, 0.5, 0, 0, 0},             // condim 3, isotropic
    {0.3, 0.7, 0, 0, 0},             // condim 3, anisotropic
    {0.9, 0.9, 0.01, 0, 0},          // condim 4
    {0.8, 0.8, 0.01, 0.002, 0.002},  // condim 6
    {0.5, 0, 0, 0, 0},               // one direction without friction
    {1e-5, 1e-5, 0, 0, 0},           // MuJoCo's minimum friction
  };
  const int dims[] = {3, 3, 4, 6, 3, 3};
  unsigned seed = 7;
  for (int c=0; c < 6; c++) {
    for (int trial=0; trial < 2000; trial++) {
      mjtNum x[6];
      for (int i=0; i < dims[c]; i++) {
        x[i] = randUniform(&seed) * (i ? 3 : 1);
      }
      checkMoreau(x, mus[c], dims[c], 0);
      checkMoreau(x, mus[c], dims[c], 1);
    }
  }
}


// anisotropic cones (condim 4 and 6, ADMM's row-scaled cones), points just outside the surface
// and far apart in magnitude: the projection satisfies Moreau's conditions to rounding. 1e-13
// relative to |x| is 50 times the largest error seen (2e-15); the Newton iteration before its
// start at x_n and its stop at a vanishing step reached 1.2e-10 here (mu = 1e-5), bisecting a
// root already found
static void testProjectionNearSurface(void) {
  const mjtNum mus[][5] = {
    {0.9, 0.9, 0.01, 0, 0},          // condim 4
    {0.8, 0.8, 0.01, 0.002, 0.002},  // condim 6
    {1, 1, 20, 0, 0},                // condim 4, row-scaled (ADMM: mu_spin d_n / d_spin)
    {1e-5, 2e-5, 0, 0, 0},           // MuJoCo's minimum friction, anisotropic
  };
  const int dims[] = {4, 6, 4, 3};
  unsigned seed = 11;
  for (int c=0; c < 4; c++) {
    for (int dual=0; dual < 2; dual++) {
      mjtNum worst = 0;
      for (int trial=0; trial < 4000; trial++) {
        mjtNum x[6], p[6], q[6], mq[6], s = 0;
        mjtNum mag = pow(10, (int)(4 * (randUniform(&seed) + 1)) - 3);   // 1e-3 .. 1e5
        for (int i=1; i < dims[c]; i++) {
          x[i] = randUniform(&seed) * mag;
          mjtNum w = dual ? mus[c][i-1] : 1 / mus[c][i-1];
          s += w*w * x[i]*x[i];
        }
        x[0] = mju_sqrt(s) * (1 - 1e-3 * (randUniform(&seed) + 1));   // just outside
        acsu_projectCone(p, x, mus[c], dims[c], dual);
        mjtNum scale = mju_norm(x, dims[c]);
        for (int i=0; i < dims[c]; i++) {
          q[i] = x[i] - p[i];
          mq[i] = -q[i];
        }
        worst = mju_max(worst, acsu_coneDistance(p, mus[c], dims[c], dual) / scale);
        worst = mju_max(worst, acsu_coneDistance(mq, mus[c], dims[c], !dual) / scale);
        worst = mju_max(worst, mju_abs(mju_dot(p, q, dims[c])) / (scale*scale));
      }
      ENSURE_LE(worst, 1e-13);
    }
  }
}


// a contact block's residual against its definition (residual.h), the projections computed
// always: the residual skips a cone distance when a bound on it (the normal raise that reaches
// the cone) is below the residual so far, which leaves the maximum unchanged. Forces and
// velocities inside, on and outside the cones, NCP and CCP, condim 3, 4 and 6
static void testContactResidual(void) {
  const mjtNum mus[][5] = {
    {0.5, 0.5, 0, 0, 0}, {0.9, 0.9, 0.01, 0, 0}, {0.8, 0.8, 0.01, 0.002, 0.002},
  };
  const int dims[] = {3, 4, 6};
  unsigned seed = 5;
  int skipped = 0;
  for (int c=0; c < 3; c++) {
    int type = acsBLOCK_CONTACT, dim = dims[c];
    acsProblem p = {0};
    p.block_type = &type;
    p.block_dim = &dim;
    p.block_mu = mus[c];
    for (int model=acsMODEL_NCP; model <= acsMODEL_CCP; model++) {
      for (int trial=0; trial < 4000; trial++) {
        mjtNum f[6], a[6], ahat[6];
        for (int i=0; i < dim; i++) {
          f[i] = randUniform(&seed) * (i ? 1 : 2);
          a[i] = randUniform(&seed) * (i ? 1 : 2);
        }
        if (trial % 2) {      // a force projected onto K: on the surface up to rounding
          acsu_projectCone(f, f, mus[c], dim, 0);
        }
        mjtNum gamma = model == acsMODEL_NCP ? acsu_desaxce(a, mus[c], dim) : 0;
        mju_copy(ahat, a, dim);
        ahat[0] += gamma;
        mjtNum dprimal = acsu_coneDistance(f, mus[c], dim, 0);
        mjtNum ddual = acsu_coneDistance(ahat, mus[c], dim, 1);
        mjtNum compl = mju_abs(mju_dot(f, ahat, dim));
        mjtNum expect = mju_max(compl, mju_max(dprimal, ddual));
        skipped += (dprimal > 0 && dprimal <= compl) || (ddual > 0 && ddual <= compl);
        // the same maximum up to the order of the complementarity's sum (a few ulps of values
        // up to 10)
        ENSURE_NEAR(acs_blockResidual(&p, 0, f, a, model), expect, 1e-14 * (1 + expect));
      }
    }
  }
  ENSURE(skipped > 1000);     // the bound did skip projections, where the test can tell
}


static void testDesaxceAndNorms(void) {
  mjtNum mu[5] = {0.5, 0.25, 0.1, 0, 0};
  mjtNum a[4] = {7, 2, 4, 10};
  // ||(0.5*2, 0.25*4, 0.1*10)|| = ||(1, 1, 1)|| = sqrt(3)
  ENSURE_NEAR(acsu_desaxce(a, mu, 4), sqrt(3.0), 1e-15);
  // ||(2/0.5, 4/0.25, 10/0.1)|| = ||(4, 16, 100)||
  ENSURE_NEAR(acsu_coneNorm(a, mu, 4), sqrt(16.0 + 256 + 10000), 1e-12);

  // the horizontal projection keeps f_n and the direction of (f_k / mu_k), and lands on the cone
  mjtNum f[3] = {2, 3, 4}, mu2[5] = {0.5, 0.5, 0, 0, 0};
  acsu_clampFriction(f, mu2, 3);
  ENSURE_NEAR(f[0], 2, 0);
  ENSURE_NEAR(acsu_coneNorm(f, mu2, 3), 2, 1e-14);
  ENSURE_NEAR(f[1]/f[2], 0.75, 1e-14);

  // zero friction coefficient forbids that component
  mjtNum g[3] = {1, 0.1, 0.2}, mu3[5] = {0.5, 0, 0, 0, 0};
  acsu_clampFriction(g, mu3, 3);
  ENSURE(g[2] == 0);
  ENSURE(isinf(acsu_coneNorm((mjtNum[]){1, 0, 1}, mu3, 3)));
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testProjectionIsotropic),
    TEST(testProjectionRandom),
    TEST(testProjectionNearSurface),
    TEST(testContactResidual),
    TEST(testDesaxceAndNorms),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
