// Copyright 2026 The acs authors.

#include "dense.h"

#include <mujoco/mujoco.h>


void acs_denseFactor(mjtNum* H, int n, mjtNum pivot) {
  for (int j=0; j < n; j++) {
    mjtNum d = H[j*n+j] - mju_dot(H + j*n, H + j*n, j);
    if (!(d > pivot * H[j*n+j] + mjMINVAL)) {
      H[j*n+j] = 0;
      for (int i=j+1; i < n; i++) {
        H[i*n+j] = 0;
      }
      continue;
    }
    mjtNum ljj = mju_sqrt(d);
    H[j*n+j] = ljj;
    for (int i=j+1; i < n; i++) {
      H[i*n+j] = (H[i*n+j] - mju_dot(H + i*n, H + j*n, j)) / ljj;
    }
  }
}


void acs_denseSolve(mjtNum* x, const mjtNum* L, int n) {
  for (int i=0; i < n; i++) {
    x[i] = L[i*n+i] > 0 ? (x[i] - mju_dot(L + i*n, x, i)) / L[i*n+i] : 0;
  }
  for (int i=n-1; i >= 0; i--) {
    if (L[i*n+i] > 0) {
      mjtNum s = x[i];
      for (int j=i+1; j < n; j++) {
        s -= L[j*n+i] * x[j];
      }
      x[i] = s / L[i*n+i];
    } else {
      x[i] = 0;
    }
  }
}


// H = B B' with B's row i = L's row i for the kept rows; the dropped row j's B row is its L row
// (entries left of j), a combination of the kept rows before it: L_kk' x = L_jk' gives the
// weights x, and v = e_j - x makes B' v = 0, so H v = 0
void acs_denseNullVector(mjtNum* v, const mjtNum* L, int n, int j) {
  mju_zero(v, n);
  v[j] = 1;
  for (int i=j-1; i >= 0; i--) {
    if (L[i*n+i] > 0) {
      mjtNum s = L[j*n+i];
      for (int k=i+1; k < j; k++) {
        s -= L[k*n+i] * -v[k];
      }
      v[i] = -s / L[i*n+i];
    }
  }
}
