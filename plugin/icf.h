// Copyright 2026 The acs authors.
//
// Per-block convex potentials of the Irrotational Contact Fields models (Castro, Han,
// Masterjohn), "Lagged" and "Similar": Hunt & Crossley normal compliance with regularized
// friction, and SAP-style near-rigid potentials for the other constraint rows. A potential
// l(v) of a block's constraint velocity v gives the impulse gamma = -dl/dv and the Hessian
// G = d2l/dv2 (symmetric positive semi-definite). Rows are in acs's order: normal first.

#ifndef ACS_PLUGIN_ICF_H_
#define ACS_PLUGIN_ICF_H_

#include <mujoco/mujoco.h>

typedef enum acstICFKind_ {       // potential of a block
  acsICF_LAGGED = 0,              // contact: H&C normal, friction bound from the start of step
  acsICF_SIMILAR,                 // contact: H&C at z = v_n - mu |v_t|_s (strongly coupled)
  acsICF_BILATERAL,               // equality rows: 1/2 (v - vhat)^2 / R per row
  acsICF_LIMIT,                   // unilateral row: impulse max(0, -(v - vhat) / R)
  acsICF_BOX                      // friction loss row: impulse clamp(-v / R, -fmax, fmax)
} acstICFKind;

// constants of one block for one step
typedef struct acsICFBlock_ {
  int    kind;                    // acstICFKind
  int    dim;                     // rows: contacts 1, 3, 4, 6; equality 1-6; others 1
  mjtNum h;                       // time step (s)

  // contacts
  mjtNum k;                       // stiffness (N/m)
  mjtNum d;                       // Hunt & Crossley dissipation (s/m)
  mjtNum phi0;                    // signed distance at the start of the step (m)
  mjtNum mu;                      // sliding friction mu = max(mu_1, mu_2)
  mjtNum scale[2];                // tangent scaling mu_k / mu (anisotropic friction)
  mjtNum mu_rot[3];               // torsional and rolling friction (m), condim 4 and 6
  mjtNum eps;                     // stiction tolerance v_s (m/s)
  mjtNum gn0;                     // normal impulse of the start-of-step state (N s)

  // other rows (per row)
  mjtNum R[6];                    // regularization (velocity per impulse, 1/kg)
  mjtNum vhat[6];                 // target velocity (m/s)
  mjtNum fmax;                    // friction-loss impulse bound (N s)
} acsICFBlock;

// Hunt & Crossley discrete normal impulse n(v), its derivative n'(v) and antiderivative N(v)
// (N constant beyond the velocity where contact breaks)
mjtNum acsu_hcImpulse(mjtNum v, mjtNum h, mjtNum k, mjtNum d, mjtNum phi0);
mjtNum acsu_hcDerivative(mjtNum v, mjtNum h, mjtNum k, mjtNum d, mjtNum phi0);
mjtNum acsu_hcPotential(mjtNum v, mjtNum h, mjtNum k, mjtNum d, mjtNum phi0);

// cost l(v) of a block at constraint velocity v (dim); gamma (dim) = -dl/dv and
// G (dim x dim, row-major) = d2l/dv2 if not NULL
mjtNum acsu_icfPotential(mjtNum* gamma, mjtNum* G, const acsICFBlock* c, const mjtNum* v);

#endif  // ACS_PLUGIN_ICF_H_
