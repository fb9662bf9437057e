// Copyright 2026 The acs authors.
//
// The step's acsProblem, assembled from MuJoCo's constraint rows. The files that read mjData's
// constraint rows are this one, forces.c, warmstart.c and pipeline.c.

#ifndef ACS_PLUGIN_PROBLEM_H_
#define ACS_PLUGIN_PROBLEM_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "context.h"

// Build ctx->problem from d after mj_fwdAcceleration (or after MuJoCo's constraint stage): every
// efc row, grouped into blocks, contacts in the contact frame (normal first) whatever the cone;
// J as sparse rows, and if flg_Y the factor-space rows B = D^-1/2 L^-T J' (G = B B': the dual
// solvers; the compliance needs it too);
// b = J (qvel / h + qacc_smooth) - v* / h with v* the Baumgarte and restitution bias;
// R = compliance * diag(G). A speculative contact's distance is its true gap (mj_geomDistance
// uses d's stack). Return 0, or -1 if out of memory.
int acs_buildProblem(acsContext* ctx, const mjModel* m, mjData* d, int flg_Y);

#endif  // ACS_PLUGIN_PROBLEM_H_
