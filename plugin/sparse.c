// Copyright 2026 The acs authors.
//
// Factors and solves in MuJoCo's sparse mass-matrix layout: the factor L'DL of M (or of the step's
// matrix: the discrete integrator's, the damped Euler step's), used by the problem's assembly
// (the rows of B = D^-1/2 L^-T J') and by the compliant solvers' Newton steps (their Hessian in
// M's pattern).

#include "sparse.h"

#include <mujoco/mujoco.h>

// x <- L^-T x on the dofs pat[0..num) (ascending, closed under ancestors), or [adr, adr + num)
// when pat is NULL: descendants first, each moving its value to its ancestors
static void solveLT(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                    const mjtNum* L, const int* pat, int adr, int num) {
  for (int q=num-1; q >= 0; q--) {
    int i = pat ? pat[q] : adr + q;
    mjtNum xi = x[i];
    if (rownnz[i] == 1 || xi == 0) {
      continue;
    }
    int start = rowadr[i], stop = rowadr[i] + rownnz[i] - 1;
    for (int k=start; k < stop; k++) {
      x[colind[k]] -= L[k] * xi;
    }
  }
}


void acs_solveLD(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                 const mjtNum* L, const mjtNum* diaginv, int adr, int num) {
  int end = adr + num;

  // x <- L^-T x
  solveLT(x, rownnz, rowadr, colind, L, NULL, adr, num);

  // x <- D^-1 x
  for (int i=adr; i < end; i++) {
    x[i] *= diaginv[i];
  }

  // x <- L^-1 x
  for (int i=adr; i < end; i++) {
    int n = rownnz[i] - 1;
    if (n > 0) {
      int start = rowadr[i];
      mjtNum s = 0;
      for (int k=0; k < n; k++) {
        s += L[start+k] * x[colind[start+k]];
      }
      x[i] -= s;
    }
  }
}


void acs_halfSolveLD(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                     const mjtNum* L, const mjtNum* sdinv, const int* pat, int npat) {
  // x <- L^-T x
  solveLT(x, rownnz, rowadr, colind, L, pat, 0, npat);

  // x <- D^-1/2 x
  for (int q=0; q < npat && sdinv; q++) {
    int i = pat ? pat[q] : q;
    x[i] *= sdinv[i];
  }
}


void acs_halfSolveLDRows(mjtNum* X, size_t stride, const int* rows, int nrows,
                         const int* rownnz, const int* rowadr, const int* colind,
                         const mjtNum* L, const mjtNum* sdinv, const int* pat, int npat) {
  int r = 0;
  for (; r + 3 <= nrows; r += 3) {
    // three vectors in one pass over L: each vector's updates in the same order as alone, so
    // bit-identical to three solves; a vector whose value is zero at a dof skips it, as alone
    mjtNum* x0 = X + rows[r]*stride;
    mjtNum* x1 = X + rows[r+1]*stride;
    mjtNum* x2 = X + rows[r+2]*stride;
    for (int q=npat-1; q >= 0; q--) {
      int i = pat ? pat[q] : q;
      mjtNum v0 = x0[i], v1 = x1[i], v2 = x2[i];
      if (rownnz[i] == 1 || (v0 == 0 && v1 == 0 && v2 == 0)) {
        continue;
      }
      int start = rowadr[i], stop = rowadr[i] + rownnz[i] - 1;
      if (v0 != 0 && v1 != 0 && v2 != 0) {
        for (int k=start; k < stop; k++) {
          int c = colind[k];
          mjtNum l = L[k];
          x0[c] -= l * v0;
          x1[c] -= l * v1;
          x2[c] -= l * v2;
        }
        continue;
      }
      mjtNum* x[3] = {x0, x1, x2};
      mjtNum v[3] = {v0, v1, v2};
      for (int j=0; j < 3; j++) {
        for (int k=start; v[j] != 0 && k < stop; k++) {
          x[j][colind[k]] -= L[k] * v[j];
        }
      }
    }
    for (int q=0; q < npat && sdinv; q++) {
      int i = pat ? pat[q] : q;
      x0[i] *= sdinv[i];
      x1[i] *= sdinv[i];
      x2[i] *= sdinv[i];
    }
  }
  for (; r < nrows; r++) {
    acs_halfSolveLD(X + rows[r]*stride, rownnz, rowadr, colind, L, sdinv, pat, npat);
  }
}


void acs_factorLD(mjtNum* mat, mjtNum* diaginv, const int* rownnz, const int* rowadr,
                  const int* colind, int adr, int num) {
  for (int j=adr+num-1; j >= adr; j--) {
    int start = rowadr[j], diag = rownnz[j] - 1, end = start + diag;
    mjtNum invD = 1 / mju_max(mat[end], mjMINVAL);
    diaginv[j] = invD;
    for (int e=end-1; e >= start; e--) {
      // row i += scl * row j's first rownnz[i] entries (mju_addToScl's arithmetic, inline: the
      // rows are short, a call per pair cost more than the pair's work)
      int i = colind[e], n = rownnz[i];
      mjtNum scl = -mat[e] * invD, *dst = mat + rowadr[i];
      const mjtNum* src = mat + start;
      for (int c=0; c < n; c++) {
        dst[c] += src[c] * scl;
      }
    }
    mju_scl(mat + start, mat + start, invD, diag);
  }
}
