// Copyright 2026 The acs authors.
//
// Solves in MuJoCo's sparse mass-matrix layout (sparse.c).

#ifndef ACS_PLUGIN_SPARSE_H_
#define ACS_PLUGIN_SPARSE_H_

#include <mujoco/mujoco.h>

// x <- (L' D L)^-1 x on the dofs [adr, adr+num) (a kinematic tree, or all dofs), for a factor in
// MuJoCo's layout of M (rownnz, rowadr, colind: row i holds the ancestors of dof i, then i):
// L the strictly lower values (unit diagonal), diaginv the inverse of D. As mj_solveLD,
// restricted to the range
void acs_solveLD(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                 const mjtNum* L, const mjtNum* diaginv, int adr, int num);

#endif  // ACS_PLUGIN_SPARSE_H_
