// Copyright 2026 The acs authors.
//
// Tests for plugin/icf.c: every per-block potential of the Irrotational Contact Fields solvers
// against central finite differences (impulse = -gradient, Hessian = -d impulse / dv), and
// the convexity of each (Hessian positive semi-definite).

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include "icf.h"
#include "test_util.h"

// central differences with step 1e-7 (relative to the velocity scale 1): truncation error
// ~ h^2 |l'''| ~ 1e-14 |l|, rounding ~ eps |l| / h ~ 1e-9 |l|; checks at 1e-6 relative to the
// largest entry leave a margin of 1000 over rounding
#define kStep 1e-7
#define kRelTol 1e-6

static mjtNum maxAbs(const mjtNum* x, int n) {
  mjtNum m = 0;
  for (int i=0; i < n; i++) {
    m = mju_max(m, mju_abs(x[i]));
  }
  return m;
}


// compare gamma and G of block c at v with finite differences of the cost and of gamma
static void checkDerivatives(const acsICFBlock* c, const mjtNum* v, const char* what) {
  int dim = c->dim;
  mjtNum gamma[6], G[36], gp[6], gm[6], vp[6], vm[6];
  acsu_icfPotential(gamma, G, c, v);

  mjtNum gscale = maxAbs(gamma, dim) + 1e-12, Gscale = maxAbs(G, dim*dim) + 1e-12;
  for (int j=0; j < dim; j++) {
    mju_copy(vp, v, dim);
    mju_copy(vm, v, dim);
    vp[j] += kStep;
    vm[j] -= kStep;
    mjtNum lp = acsu_icfPotential(gp, NULL, c, vp);
    mjtNum lm = acsu_icfPotential(gm, NULL, c, vm);

    // impulse: gamma_j = -dl/dv_j
    mjtNum fd = -(lp - lm) / (2*kStep);
    if (!(mju_abs(fd - gamma[j]) <= kRelTol * gscale)) {
      fprintf(stderr, "%s: gamma[%d] = %.12g, finite difference %.12g\n", what, j, gamma[j], fd);
      acst_failures++;
    }

    // Hessian column: G_ij = -d gamma_i / dv_j
    for (int i=0; i < dim; i++) {
      mjtNum fdG = -(gp[i] - gm[i]) / (2*kStep);
      if (!(mju_abs(fdG - G[i*dim+j]) <= kRelTol * Gscale)) {
        fprintf(stderr, "%s: G[%d][%d] = %.12g, finite difference %.12g\n", what, i, j,
                G[i*dim+j], fdG);
        acst_failures++;
      }
    }
  }

  // convexity: G symmetric positive semi-definite (Cholesky of G + tiny I succeeds with
  // positive pivots; symmetric to rounding)
  mjtNum L[36];
  for (int i=0; i < dim; i++) {
    for (int j=0; j < dim; j++) {
      ENSURE_LE(mju_abs(G[i*dim+j] - G[j*dim+i]), 1e-12 * Gscale);
      L[i*dim+j] = G[i*dim+j] + (i == j ? 1e-12 * Gscale : 0);
    }
  }
  ENSURE(mju_cholFactor(L, dim, 0) == dim);
}


static acsICFBlock contactBlock(int kind, int dim) {
  acsICFBlock c;
  memset(&c, 0, sizeof(c));
  c.kind = kind;
  c.dim = dim;
  c.h = 2e-3;
  c.k = 1e5;
  c.d = 10;
  c.phi0 = -1e-4;
  c.mu = 0.6;
  c.scale[0] = 1;
  c.scale[1] = 0.5;                 // anisotropic friction
  c.mu_rot[0] = 0.01;
  c.mu_rot[1] = c.mu_rot[2] = 0.002;
  c.eps = 1e-2;                     // a wide stiction band: the regularized region is sampled
  c.gn0 = c.h * c.k * 1e-4 * (1 - c.d * (-0.01));
  return c;
}


static void testContactPotentials(void) {
  // sliding, slow (inside the regularization), approaching, separating: every velocity avoids
  // the kinks of Hunt & Crossley (where contact breaks), where the Hessian jumps
  const mjtNum vs[][6] = {
    {-0.01, 0.3, -0.2, 0.5, 0.1, -0.3},
    {-0.02, 0.003, 0.004, -0.2, 0.05, 0.01},
    {0.01, -0.5, 0.1, 0, 0, 0},
    {-0.03, 0, 0, 1, -1, 0.5},
  };
  const int kinds[2] = {acsICF_LAGGED, acsICF_SIMILAR};
  const int dims[4] = {1, 3, 4, 6};
  char what[128];
  for (int kk=0; kk < 2; kk++) {
    for (int dd=0; dd < 4; dd++) {
      for (int s=0; s < 4; s++) {
        acsICFBlock c = contactBlock(kinds[kk], dims[dd]);
        snprintf(what, sizeof(what), "%s dim %d velocity %d", kk ? "similar" : "lagged",
                 dims[dd], s);
        checkDerivatives(&c, vs[s], what);
      }
    }
  }

  // the normal impulse is Hunt & Crossley's: n(v) = h k (-phi0 - h v)(1 - d v), zero when the
  // contact breaks, and its potential is constant there
  acsICFBlock c = contactBlock(acsICF_LAGGED, 3);
  mjtNum v[3] = {-0.01, 0, 0}, g[3];
  acsu_icfPotential(g, NULL, &c, v);
  ENSURE_NEAR(g[0], c.h*c.k*(1e-4 + c.h*0.01)*(1 + c.d*0.01), 1e-15);
  mjtNum away[3] = {0.1, 0, 0};
  acsu_icfPotential(g, NULL, &c, away);
  ENSURE(g[0] == 0 && g[1] == 0 && g[2] == 0);

  // Lagged: friction bounded by the start-of-step impulse; Similar: by the current one
  mjtNum fast[3] = {-0.01, 10, 0};
  acsu_icfPotential(g, NULL, &c, fast);
  ENSURE_NEAR(mju_abs(g[1]), c.mu * c.gn0, 1e-6 * c.mu * c.gn0);   // |t_s| -> 1 at 1000 eps
}


static void testRowPotentials(void) {
  acsICFBlock c;
  memset(&c, 0, sizeof(c));
  c.h = 2e-3;
  c.dim = 2;
  c.R[0] = 0.3;
  c.R[1] = 2;
  c.vhat[0] = 0.1;
  c.vhat[1] = -0.2;
  c.fmax = 0.05;
  // (away from the kinks |y| = fmax of the box and y = 0 of the limit)
  const mjtNum vs[][2] = {{0.3, -0.15}, {-0.4, 0.5}, {0.001, -0.35}};
  char what[64];
  for (int kind=acsICF_BILATERAL; kind <= acsICF_BOX; kind++) {
    c.kind = kind;
    for (int s=0; s < 3; s++) {
      snprintf(what, sizeof(what), "row kind %d velocity %d", kind, s);
      checkDerivatives(&c, vs[s], what);
    }
  }

  // a limit pushes only; a box caps the impulse at fmax
  mjtNum g[2], v[2] = {1, 1};
  c.kind = acsICF_LIMIT;
  acsu_icfPotential(g, NULL, &c, v);
  ENSURE(g[0] == 0 && g[1] == 0);
  c.kind = acsICF_BOX;
  mjtNum fast[2] = {-10, 10};
  acsu_icfPotential(g, NULL, &c, fast);
  ENSURE(g[0] == c.fmax && g[1] == -c.fmax);
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testContactPotentials),
    TEST(testRowPotentials),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
