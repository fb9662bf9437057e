// Copyright 2026 The acs authors.
//
// Forces between acs's layout (the problem's rows) and MuJoCo's efc layout (forces.c).

#ifndef ACS_PLUGIN_FORCES_H_
#define ACS_PLUGIN_FORCES_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "context.h"

// Contact forces of d->efc_force in acs layout (decodes MuJoCo's pyramid): force (nefc of acs).
void acs_readForces(mjtNum* force, const acsContext* ctx, const mjModel* m, const mjData* d);

// Write force (acs layout) to d: efc_force in MuJoCo's layout (exact pyramid encoding, no
// clamping), efc_state, efc_b, qfrc_constraint = J' efc_force and
// qacc = qacc_smooth + M^-1 qfrc_constraint, as mj_fwdConstraint leaves them.
void acs_writeForces(const acsContext* ctx, const mjModel* m, mjData* d, const mjtNum* force);

#endif  // ACS_PLUGIN_FORCES_H_
