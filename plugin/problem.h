// Copyright 2026 The acs authors.
//
// The step's acsProblem, assembled from MuJoCo's constraint rows, and the write-back of forces in
// MuJoCo's efc_force layout. The only files that read mjData are this one, warmstart.c and
// pipeline.c.

#ifndef ACS_PLUGIN_PROBLEM_H_
#define ACS_PLUGIN_PROBLEM_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "context.h"

// Build ctx->problem from d after mj_fwdAcceleration (or after MuJoCo's constraint stage): every
// efc row, grouped into blocks, contacts in the contact frame (normal first) whatever the cone;
// J as sparse rows, and Y = (M^-1 J')' if flg_Y (the dual solvers; the compliance needs it too);
// b = J (qvel / h + qacc_smooth) - v* / h with v* the Baumgarte and restitution bias;
// R = compliance * diag(G). A speculative contact's distance is its true gap (mj_geomDistance
// uses d's stack). Return 0, or -1 if out of memory.
int acs_buildProblem(acsContext* ctx, const mjModel* m, mjData* d, int flg_Y);

// Contact forces of d->efc_force in acs layout (decodes MuJoCo's pyramid): force (nefc of acs).
void acs_readForces(mjtNum* force, const acsContext* ctx, const mjModel* m, const mjData* d);

// Write force (acs layout) to d: efc_force in MuJoCo's layout (exact pyramid encoding, no
// clamping), efc_state, efc_b, qfrc_constraint = J' efc_force and
// qacc = qacc_smooth + M^-1 qfrc_constraint, as mj_fwdConstraint leaves them.
void acs_writeForces(const acsContext* ctx, const mjModel* m, mjData* d, const mjtNum* force);

// Number of MuJoCo efc rows of block k.
int acs_blockRowsMj(const acsContext* ctx, const mjModel* m, int k);

#endif  // ACS_PLUGIN_PROBLEM_H_
