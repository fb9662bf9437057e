// Copyright 2026 The acs authors.
//
// The admm solver family (solver_admm.c), called through the dispatch table of solver.c.

#ifndef ACS_PLUGIN_SOLVER_ADMM_H_
#define ACS_PLUGIN_SOLVER_ADMM_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

size_t acs_admmWorkspace(const acsProblem* p, const acsSettings* s);
int    acs_admmSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                   const acsProblem* p, const acsSettings* s);

#endif  // ACS_PLUGIN_SOLVER_ADMM_H_
