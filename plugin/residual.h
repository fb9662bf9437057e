// Copyright 2026 The acs authors.
//
// Residual of a solution with respect to a contact law (residual.c).

#ifndef ACS_PLUGIN_RESIDUAL_H_
#define ACS_PLUGIN_RESIDUAL_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

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

#endif  // ACS_PLUGIN_RESIDUAL_H_
