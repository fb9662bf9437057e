// Copyright 2026 The acs authors.
//
// Physical criteria of a solution, identical for every solver (native included): the NCP residual
// with the De Saxce correction (the stopping test of the NCP solvers), Signorini, Coulomb and
// maximum-dissipation violations, penetration and the slip of sticking contacts.

#ifndef ACS_PLUGIN_METRICS_H_
#define ACS_PLUGIN_METRICS_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

// a contact is "sticking" when its force is inside the cone by this relative margin:
// ||(f_k / mu_k)|| <= (1 - acsSTICKMARGIN) f_n  (pyramid: sum |f_k| / mu_k, the L1 form)
#define acsSTICKMARGIN 1e-2

// residual of block k of p for force f and velocity a (both pointing at the block's rows) with
// respect to a contact law (acstModel):
//   equality:      max |a_r|
//   friction loss: max(box violation of f, (f + fl) max(a, 0), (fl - f) max(-a, 0))
//   limit, dim-1 contact:  max(max(0, -f), max(0, -a), |f a|)
//   contact, NCP:  max(dist(f, K), dist(a + Gamma(a), K*), |<f, a + Gamma(a)>|)
//   contact, CCP:  max(dist(f, K), dist(a, K*), |<f, a>|)
//   contact, LCP:  max(box violation |f_k| <= mu_k f_n, max(0, -a_n), |<f, a + Gamma1(a)>|)
//                  with Gamma1(a) = sum_k mu_k |a_k| on the normal
mjtNum acs_blockResidual(const acsProblem* p, int k, const mjtNum* f, const mjtNum* a, int model);

// max over blocks of acs_blockResidual, for a = G f + b (nefc)
mjtNum acs_residual(const acsProblem* p, const mjtNum* f, const mjtNum* a, int model);

// the physical criteria of acsStats (as acs_evaluateProblem) for force and its velocity
// a = G f + b (nefc), computed by the caller (for example from MuJoCo's qacc: no Y needed)
void acs_evaluateVelocity(acsStats* stats, const mjtNum* force, const mjtNum* a,
                          const acsProblem* p);

#endif  // ACS_PLUGIN_METRICS_H_
