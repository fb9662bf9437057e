// Copyright 2026 The acs authors.
//
// The residual of a solution with respect to a contact law, block by block: the stopping test of
// the dual solvers and the first of the physical criteria (metrics.c).

#include "residual.h"

#include <math.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"

static inline mjtNum max2(mjtNum a, mjtNum b) {
  return a > b ? a : b;
}


// residual of a contact block (dim > 1) for one contact law
static mjtNum contactResidual(const mjtNum* f, const mjtNum* a, const mjtNum* mu, int dim,
                              int model) {
  mjtNum res;
  if (model == acsMODEL_LCP) {
    // box cone |f_k| <= mu_k f_n, L1 De Saxce term; a + Gamma1(a) is in the dual exactly
    // when a_n >= 0
    mjtNum gamma1 = 0;
    res = max2(0, -f[0]);
    for (int j=1; j < dim; j++) {
      gamma1 += mu[j-1] * mju_abs(a[j]);
      res = max2(res, mju_abs(f[j]) - mu[j-1]*max2(f[0], 0));
    }
    res = max2(res, -a[0]);
    return max2(res, mju_abs(mju_dot(f, a, dim) + f[0]*gamma1));
  }

  mjtNum gamma = (model == acsMODEL_CCP) ? 0 : acsu_desaxce(a, mu, dim);

  // complementarity <f, a + Gamma(a)>
  res = mju_abs(mju_dot(f, a, dim) + f[0]*gamma);

  // primal: distance of f to K (zero when f is in K, as solvers keep it). f raised to
  // f_n = ||f||_K is in K, so the distance is at most ||f||_K - f_n: the projection is computed
  // only when that bound exceeds the residual so far (a projected force lies on the cone's
  // surface up to rounding, and its distance would not change the maximum)
  if (acsu_coneNorm(f, mu, dim) - f[0] > res) {
    res = max2(res, acsu_coneDistance(f, mu, dim, 0));
  }

  // dual: NCP: a + Gamma(a) is in K* exactly when a_n >= 0, and raised by -a_n it is; CCP: a
  // itself must be in K*, and raised by Gamma(a) - a_n it is. The same bound as above
  mjtNum excess = (model != acsMODEL_CCP) ? -a[0] : acsu_desaxce(a, mu, dim) - a[0];
  if (excess > 0 && excess > res) {
    mjtNum ahat[6];
    mju_copy(ahat, a, dim);
    ahat[0] += gamma;
    res = max2(res, acsu_coneDistance(ahat, mu, dim, 1));
  }
  return res;
}


mjtNum acs_blockResidual(const acsProblem* p, int k, const mjtNum* f, const mjtNum* a, int model) {
  int dim = p->block_dim[k];
  mjtNum res = 0;

  switch ((acstBlock) p->block_type[k]) {
  case acsBLOCK_EQUALITY:
    for (int r=0; r < dim; r++) {
      res = max2(res, mju_abs(a[r]));
    }
    return res;

  case acsBLOCK_FRICTION: {
    mjtNum fl = p->block_floss[k];
    res = max2(0, mju_abs(f[0]) - fl);
    res = max2(res, (f[0] + fl) * max2(a[0], 0));
    res = max2(res, (fl - f[0]) * max2(-a[0], 0));
    return res;
  }

  case acsBLOCK_LIMIT:
    return max2(max2(-f[0], -a[0]), max2(mju_abs(f[0]*a[0]), 0));

  case acsBLOCK_CONTACT:
    if (dim == 1) {
      return max2(max2(-f[0], -a[0]), max2(mju_abs(f[0]*a[0]), 0));
    }
    return contactResidual(f, a, p->block_mu + 5*k, dim, model);

  default:
    return INFINITY;
  }
}


mjtNum acs_residual(const acsProblem* p, const mjtNum* f, const mjtNum* a, int model) {
  mjtNum res = 0;
  for (int k=0; k < p->nblock; k++) {
    int adr = p->block_adr[k];
    mjtNum r = acs_blockResidual(p, k, f + adr, a + adr, model);
    if (!(r <= res)) {   // also propagates NaN
      res = r;
    }
  }
  return res;
}


// inputs of the stand-alone evaluations: a valid problem with Y, force and scratch given
