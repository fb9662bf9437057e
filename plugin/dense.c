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
  // L' x = y by rows of L: x_j final, then taken from the entries before it (contiguous, where
  // the sum over column j of L strided by n: 4.5k instructions a solve of 30 rows, 10% of pgs's
  // instructions on the lying humanoid)
  for (int j=n-1; j >= 0; j--) {
    const mjtNum* Lj = L + j*n;
    if (!(Lj[j] > 0)) {
      x[j] = 0;
      continue;
    }
    mjtNum xj = x[j] / Lj[j];
    x[j] = xj;
    for (int i=0; i < j; i++) {
      x[i] -= Lj[i] * xj;
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


void acs_denseProjectRange(mjtNum* y, mjtNum* G, int n, mjtNum* work, mjtNum pivot) {
  acs_denseFactor(G, n, pivot);
  mjtNum* N = work;               // null vectors, one per dropped row        (nnull x n)
  mjtNum* NN = N + n*n;           // N'N                                      (nnull x nnull)
  mjtNum* z = NN + n*n;           // (N'N)^-1 N'y                             (nnull)
  int nnull = 0;
  for (int j=0; j < n; j++) {
    if (G[j*n+j] == 0) {
      mjtNum* v = N + nnull*n;
      acs_denseNullVector(v, G, n, j);
      z[nnull] = mju_dot(v, y, n);
      for (int c=0; c <= nnull; c++) {
        NN[nnull*n+c] = NN[c*n+nnull] = mju_dot(v, N + c*n, n);
      }
      nnull++;
    }
  }
  if (nnull == 0) {
    return;
  }

  // N'N is positive definite (each null vector has its own dropped row's unit entry): its factor
  // drops nothing. It is stored with row stride n, compacted to nnull here
  for (int a=1; a < nnull; a++) {
    for (int c=0; c < nnull; c++) {
      NN[a*nnull+c] = NN[a*n+c];            // forward: the target never passes the source
    }
  }
  acs_denseFactor(NN, nnull, pivot);
  acs_denseSolve(z, NN, nnull);
  for (int a=0; a < nnull; a++) {
    mju_addToScl(y, N + a*n, -z[a], n);
  }
}
