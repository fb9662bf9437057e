// Copyright 2026 The acs authors.
//
// Warm start shared by all solvers: forces of the previous step matched to the current rows.

#ifndef ACS_PLUGIN_WARMSTART_H_
#define ACS_PLUGIN_WARMSTART_H_

#include <mujoco/mujoco.h>
#include "context.h"

// Fill force (acs layout of ctx->problem) with the matched forces of the previous step, zero
// elsewhere. Return the number of blocks that were matched.
int acs_warmstart(mjtNum* force, acsContext* ctx, const mjModel* m, const mjData* d);

// Remember the forces of the current step for the next one. Return 0, or -1 if out of memory.
int acs_warmstore(acsContext* ctx, const mjModel* m, const mjData* d, const mjtNum* force);

#endif  // ACS_PLUGIN_WARMSTART_H_
