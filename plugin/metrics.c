// Copyright 2026 The acs authors.
//
// Physical criteria of a solution (Le Lidec et al., "Contact models in robotics", Sec. II and
// IV): with a = G f + b the biased constraint velocity over the timestep and Gamma the De Saxce
// correction, a contact solves the NCP  K ∋ f _|_ a + Gamma(a) ∈ K*. Its residual is the max of
// the primal (dist to K), dual (dist to K*) and complementarity terms; the complementarity splits
// into Signorini f_n a_n and the maximum-dissipation gap f_t.a_t + f_n ||mu a_t|| when f ∈ K.

#include "metrics.h"

#include <math.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "solver.h"

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

  // primal: distance of f to K (zero when f is in K, as solvers keep it)
  if (acsu_coneNorm(f, mu, dim) > f[0]) {
    res = max2(res, acsu_coneDistance(f, mu, dim, 0));
  }

  // dual: NCP: a + Gamma(a) is in K* exactly when a_n >= 0; CCP: a itself must be in K*
  if (model != acsMODEL_CCP ? a[0] < 0 : acsu_desaxce(a, mu, dim) > a[0]) {
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
static int evaluationInputs(const mjtNum* scratch, const mjtNum* force, const acsProblem* p) {
  return scratch && force && !acs_checkProblem(p, NULL, 0) && !acs_checkProblemFor(p, 0, NULL, 0);
}


mjtNum acs_problemResidual(mjtNum* scratch, const mjtNum* force, const acsProblem* p, int model) {
  if (!evaluationInputs(scratch, force, p) || model < 0 || model >= acsNMODEL) {
    return NAN;
  }
  acs_mulYT(scratch, p, force);
  acs_velocity(scratch + p->nv, p, scratch, force);
  return acs_residual(p, force, scratch + p->nv, model);
}


// force inside the cone by the sticking margin (elliptic or MuJoCo's pyramid)
static int isSticking(const mjtNum* f, const mjtNum* mu, int dim, int pyramid) {
  if (!(f[0] > 0)) {
    return 0;
  }
  mjtNum s = 0;
  if (pyramid) {
    for (int j=0; j < dim-1; j++) {
      s += mju_abs(f[j+1]) / mu[j];
    }
  } else {
    s = acsu_coneNorm(f, mu, dim);
  }
  return s <= (1 - acsSTICKMARGIN) * f[0];
}


void acs_evaluateProblem(acsStats* stats, mjtNum* scratch, const mjtNum* force,
                         const acsProblem* p) {
  if (!stats) {
    return;
  }
  if (!evaluationInputs(scratch, force, p)) {
    stats->status = acsSTATUS_ERROR;
    stats->residual = stats->signorini = stats->coulomb = stats->mdp = NAN;
    stats->penetration = stats->slip = stats->energy = NAN;
    return;
  }
  mjtNum* w = scratch;
  mjtNum* a = scratch + p->nv;
  acs_mulYT(w, p, force);
  acs_velocity(a, p, w, force);
  acs_evaluateVelocity(stats, force, a, p);
}


void acs_evaluateVelocity(acsStats* stats, const mjtNum* force, const mjtNum* a,
                          const acsProblem* p) {
  mjtNum h = p->timestep;
  stats->residual = acs_residual(p, force, a, acsMODEL_NCP);
  stats->signorini = stats->coulomb = stats->mdp = stats->penetration = stats->slip = 0;
  stats->ncontact = 0;

  for (int k=0; k < p->nblock; k++) {
    int type = p->block_type[k], dim = p->block_dim[k], adr = p->block_adr[k];
    const mjtNum* f = force + adr;
    const mjtNum* ak = a + adr;

    if (type == acsBLOCK_LIMIT || type == acsBLOCK_CONTACT) {
      stats->signorini = max2(stats->signorini, mju_abs(f[0]*ak[0]));
    }
    if (type != acsBLOCK_CONTACT) {
      continue;
    }

    stats->ncontact++;
    stats->penetration = max2(stats->penetration, -p->block_pos[k]);
    if (dim == 1) {
      stats->coulomb = max2(stats->coulomb, max2(0, -f[0]));
      continue;
    }

    const mjtNum* mu = p->block_mu + 5*k;
    stats->coulomb = max2(stats->coulomb, acsu_coneDistance(f, mu, dim, 0));
    mjtNum gap = mju_dot(f+1, ak+1, dim-1) + f[0]*acsu_desaxce(ak, mu, dim);
    stats->mdp = max2(stats->mdp, gap);

    // translational slip speed after the step: the tangential velocity is h * a_t (no bias)
    if (isSticking(f, mu, dim, p->pyramid)) {
      mjtNum vt = h * mju_sqrt(ak[1]*ak[1] + ak[2]*ak[2]);
      stats->slip = max2(stats->slip, vt);
    }
  }
}
