// Copyright 2026 The acs authors.
//
// Factors and solves in MuJoCo's sparse mass-matrix layout (sparse.c).

#ifndef ACS_PLUGIN_SPARSE_H_
#define ACS_PLUGIN_SPARSE_H_

#include <mujoco/mujoco.h>

// x <- (L' D L)^-1 x on the dofs [adr, adr+num) (a kinematic tree, or all dofs), for a factor in
// MuJoCo's layout of M (rownnz, rowadr, colind: row i holds the ancestors of dof i, then i):
// L the strictly lower values (unit diagonal), diaginv the inverse of D. As mj_solveLD,
// restricted to the range
void acs_solveLD(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                 const mjtNum* L, const mjtNum* diaginv, int adr, int num);

// x <- D^-1/2 L^-T x for a factor as above (sdinv: the square roots of diaginv; NULL: x <- L^-T x),
// on the dofs pat[0..npat) in ascending order, a set closed under ancestors (pat NULL: the dofs
// [0, npat)): the factor-space image B' = D^-1/2 L^-T J' of a row of J, so that J M^-1 J' = B B'.
// x outside the set is neither read nor written (L^-T moves values to ancestors only)
void acs_halfSolveLD(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                     const mjtNum* L, const mjtNum* sdinv, const int* pat, int npat);

// acs_halfSolveLD on the vectors X + rows[r] stride, r < nrows, that share the dofs pat (a block's
// rows), three at a time in one pass over L: bit-identical to one solve each
void acs_halfSolveLDRows(mjtNum* X, size_t stride, const int* rows, int nrows,
                         const int* rownnz, const int* rowadr, const int* colind,
                         const mjtNum* L, const mjtNum* sdinv, const int* pat, int npat);

// mat <- its factor L' D L in place (MuJoCo's elimination: the rows of a dof's ancestors are
// prefixes of its row, so there is no fill), diaginv <- the inverse of D; a pivot below mjMINVAL
// is taken as mjMINVAL. mat in MuJoCo's layout of M, factored on the dofs [adr, adr+num) (whole
// kinematic trees, or all dofs); the other rows are neither read nor written
void acs_factorLD(mjtNum* mat, mjtNum* diaginv, const int* rownnz, const int* rowadr,
                  const int* colind, int adr, int num);

#endif  // ACS_PLUGIN_SPARSE_H_
