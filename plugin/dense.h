// Copyright 2026 The acs authors.
//
// Small dense symmetric positive semi-definite systems (dense.c): the Cholesky factor that drops
// dependent rows, its solve, the null vectors of the dropped rows and the projection onto the
// range. Used by the Gauss-Seidel driver's subspace step, ADMM's subspace start and consistent
// stabilization, on at most a few hundred rows.

#ifndef ACS_PLUGIN_DENSE_H_
#define ACS_PLUGIN_DENSE_H_

#include <mujoco/mujoco.h>

// Cholesky factor L (lower triangle of H, row-major n x n) of a positive semi-definite H, in place;
// a row whose pivot is at most pivot times its diagonal (the squared sine of its angle to the rows
// before it) depends on them: its diagonal is set to 0 and its column below to zero (dropped)
void acs_denseFactor(mjtNum* H, int n, mjtNum pivot);

// x = H^-1 x with the factor of acs_denseFactor, in place; a dropped row's unknown is 0
void acs_denseSolve(mjtNum* x, const mjtNum* L, int n);

// v (n): the null vector of H that dropped row j of the factor L gives: v_j = 1, v_i = 0 for i > j
// and for the dropped i < j, and the kept i < j make H v = 0 up to the dropping threshold
void acs_denseNullVector(mjtNum* v, const mjtNum* L, int n, int j);

// y <- y - N (N'N)^-1 N'y (n): y's component along the null space N of the positive
// semi-definite G (n x n, overwritten by its acs_denseFactor with pivot: a null vector per dropped
// row) removed, the orthogonal projection onto G's range; formed from the factor's kept columns
// (its range) where their Gram matrix costs less than the null vectors and theirs (nkeep^2 <
// nnull (n / 2 + nnull): a pair touching at four contacts or more); work: 2 n^2 + n. Return the
// number of rows dropped (0: G is regular, y unchanged)
int acs_denseProjectRange(mjtNum* y, mjtNum* G, int n, mjtNum* work, mjtNum pivot);

// tests: acs_denseProjectRange forms the projection 1 from the null vectors, 2 from the kept
// columns (0: as chosen)
extern int acs_testDenseProjectRange;

#endif  // ACS_PLUGIN_DENSE_H_
