// Copyright 2026 The acs authors.
//
// Friction cones of a contact block (normal first) and the NCP quantities defined on them,
// shared by every solver and by the metrics.
//   K  = {f : ||(f_k / mu_k)_k|| <= f_n}       friction cone (MuJoCo's elliptic cone)
//   K* = {a : ||(mu_k a_k)_k||  <= a_n}        dual cone
//   Gamma(a) = (||(mu_k a_k)_k||, 0, ..., 0)   De Saxce correction
// k runs over the dim-1 friction directions (tangent1, tangent2, spin, roll1, roll2); mu_k >= 0,
// mu_k = 0 forbids force in direction k.

#ifndef ACS_PLUGIN_CONE_H_
#define ACS_PLUGIN_CONE_H_

#include <mujoco/mujoco.h>

// ||(mu_k a_k)_k||: normal component of the De Saxce correction of velocity a.
mjtNum acsu_desaxce(const mjtNum* a, const mjtNum* mu, int dim);

// ||(f_k / mu_k)_k|| (inf if f_k != 0 where mu_k = 0): the normal force f needs to be in K.
mjtNum acsu_coneNorm(const mjtNum* f, const mjtNum* mu, int dim);

// res = Euclidean projection of x onto K (dual = 0) or K* (dual = 1); res may alias x.
void acsu_projectCone(mjtNum* res, const mjtNum* x, const mjtNum* mu, int dim, int dual);

// Euclidean distance of x to K (dual = 0) or K* (dual = 1).
mjtNum acsu_coneDistance(const mjtNum* x, const mjtNum* mu, int dim, int dual);

// Scale the friction components of f onto the cone surface if outside, keeping f_n and the
// direction of (f_k / mu_k)_k (the "horizontal" projection of NCP-PGS); f_n must be >= 0.
void acsu_clampFriction(mjtNum* f, const mjtNum* mu, int dim);

#endif  // ACS_PLUGIN_CONE_H_
