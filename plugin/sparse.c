// Copyright 2026 The acs authors.
//
// Solves in MuJoCo's sparse mass-matrix layout: the factor L'DL of M (or of the discrete step's
// matrix) that MuJoCo computes, used by the problem's assembly (Y = M^-1 J') and by the
// compliant solvers' Newton steps (their Hessian in M's pattern).

#include "sparse.h"

#include <mujoco/mujoco.h>

void acs_solveLD(mjtNum* x, const int* rownnz, const int* rowadr, const int* colind,
                 const mjtNum* L, const mjtNum* diaginv, int adr, int num) {
  int end = adr + num;

  // x <- L^-T x
  for (int i=end-1; i >= adr; i--) {
    mjtNum xi = x[i];
    if (rownnz[i] == 1 || xi == 0) {
      continue;
    }
    int start = rowadr[i], stop = rowadr[i] + rownnz[i] - 1;
    for (int k=start; k < stop; k++) {
      x[colind[k]] -= L[k] * xi;
    }
  }

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
