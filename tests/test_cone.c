// Copyright 2026 The acs authors.
//
// Tests for plugin/cone.c: friction cones, duals, projections, De Saxce correction.

#include <math.h>
#include <stdlib.h>

#include <mujoco/mujoco.h>
#include "cone.h"
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
    TEST(testDesaxceAndNorms),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
