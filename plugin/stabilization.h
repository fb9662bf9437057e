// Copyright 2026 The acs authors.
//
// Consistent stabilization (stabilization.c): each island's penetration-recovery requests made
// achievable by its bodies before a dual solve.

#ifndef ACS_PLUGIN_STABILIZATION_H_
#define ACS_PLUGIN_STABILIZATION_H_

#include <mujoco/mujoco.h>
#include "context.h"

// change the requests vstab and the bias b of ctx's problem on the normal and limit rows of each
// island (acsSettings.consistent_stabilization); return 0, or -1 when out of memory
int acs_consistentStabilization(acsContext* ctx, const mjModel* m, const mjData* d);

#endif  // ACS_PLUGIN_STABILIZATION_H_
