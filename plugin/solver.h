// Copyright 2026 The acs authors.
//
// Dispatch of the problem solvers (solver.c): the function types every solver file implements,
// the workspace of a problem and the solve of a problem known to be valid.

#ifndef ACS_PLUGIN_SOLVER_H_
#define ACS_PLUGIN_SOLVER_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

// workspace in bytes needed to solve p with s
typedef size_t (*acsfWorkspace)(const acsProblem* p, const acsSettings* s);

// solve p: force holds the warm start on input and the solution on output; return acstStatus.
// work has at least acsfWorkspace(p, s) bytes, 64-byte aligned; stats and state are not NULL
typedef int (*acsfSolve)(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                         const acsProblem* p, const acsSettings* s);

// Workspace in bytes of a problem known to be valid (acs_workspaceSize checks it first)
size_t acs_workspaceBytes(const acsProblem* p, const acsSettings* settings);

// Solve a problem that is known to be valid (built by acs_buildProblem, or checked by acs_solve)
// with settings->solver (not native): force holds the warm start and gets the solution; stats
// (status included) are filled. work: acs_workspaceSize bytes. A non-finite solution becomes zero
// forces with status acsSTATUS_DIVERGED.
void acs_solveProblem(mjtNum* force, acsStats* stats, acsSolverState* state, const acsProblem* p,
                      const acsSettings* settings, void* work);

#endif  // ACS_PLUGIN_SOLVER_H_
