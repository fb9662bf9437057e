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
#include "operator.h"
#include "residual.h"

// the larger of a and b; b if either is NaN (as the residuals)
static inline mjtNum max2(mjtNum a, mjtNum b) {
  return a > b ? a : b;
}

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
