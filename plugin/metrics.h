// Copyright 2026 The acs authors.
//
// Physical criteria of a solution, identical for every solver (native included): the NCP residual
// with the De Saxce correction (residual.c), Signorini, Coulomb and maximum-dissipation
// violations, penetration and the slip of sticking contacts.

#ifndef ACS_PLUGIN_METRICS_H_
#define ACS_PLUGIN_METRICS_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

// a contact is "sticking" when its force is inside the cone by this relative margin:
// ||(f_k / mu_k)|| <= (1 - acsSTICKMARGIN) f_n  (pyramid: sum |f_k| / mu_k, the L1 form)
#define acsSTICKMARGIN 1e-2

// the physical criteria of acsStats (as acs_evaluateProblem) for force and its velocity
// a = G f + b (nefc), computed by the caller (for example from MuJoCo's qacc: no Y needed)
void acs_evaluateVelocity(acsStats* stats, const mjtNum* force, const mjtNum* a,
                          const acsProblem* p);

#endif  // ACS_PLUGIN_METRICS_H_
