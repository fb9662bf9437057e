// Copyright 2026 The acs authors.
//
// The entry points of the solver families, called through the dispatch table of solver.c:
// pgs, lcp-pgs, ccp-pgs (solver_pgs.c); admm, ccp-admm (solver_admm.c); raisim (solver_raisim.c);
// lagged, similar (solver_icf.c). Each has the types acsfWorkspace and acsfSolve of solver.h.

#ifndef ACS_PLUGIN_SOLVERS_H_
#define ACS_PLUGIN_SOLVERS_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

size_t acs_pgsWorkspace(const acsProblem* p, const acsSettings* s);
int    acs_pgsSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                    const acsProblem* p, const acsSettings* s);

// tests: > 0: the compliant solvers factor the groups of trees with couplings outside M's pattern
// densely below this many dofs (1: never, conjugate gradients); 0: the default (400)
extern int acs_testIcfDenseNv;

// tests: how the compliant solvers add a block's J' G J to H when the block's dofs are one chain
// of M's pattern: 0: directly (the default), 1: by the general lookup, as other blocks, 2:
// directly, counted in acs_testIcfChainBlocks (not thread-safe: one thread only)
extern int acs_testIcfChain;
extern long acs_testIcfChainBlocks;

// tests: acs_testIcfOwnFactor = 1: the compliant solvers factor M themselves although the
// problem gives M_LD; acs_testIcfNoU0 = 1: they ignore the problem's u0 (the previous forces or
// zero start them)
extern int acs_testIcfOwnFactor;
extern int acs_testIcfNoU0;

// tests: acs_testIcfNoCrossings = 1: the compliant solvers' line search falls back to bisection
// alone, without the line's stiction crossings
extern int acs_testIcfNoCrossings;

// tests: > 0: the largest island ADMM factorizes densely, every island up to it dense (larger
// ones: Woodbury's identity, or conjugate gradients); 0: the default (200 rows, and islands of
// many more rows than dofs by Woodbury's identity). Set before any workspace query
extern int acs_testAdmmDenseRows;

// tests: 1: ADMM solves its large islands' x-update by conjugate gradients even where the problem
// gives M (0: by Woodbury's identity and the supernodal factor there). Set before any workspace
// query
extern int acs_testAdmmIterative;

// tests: 1: ADMM scales each block's rows by one factor (0: its force rows and its torque rows
// each by their own)
extern int acs_testAdmmBlockScale;

size_t acs_admmWorkspace(const acsProblem* p, const acsSettings* s);
int    acs_admmSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                     const acsProblem* p, const acsSettings* s);

size_t acs_raisimWorkspace(const acsProblem* p, const acsSettings* s);
int    acs_raisimSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                       const acsProblem* p, const acsSettings* s);

size_t acs_icfWorkspace(const acsProblem* p, const acsSettings* s);
int    acs_icfSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                    const acsProblem* p, const acsSettings* s);

#endif  // ACS_PLUGIN_SOLVERS_H_
