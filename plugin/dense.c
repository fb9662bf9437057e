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


// y <- B_r (B_r'B_r)^-1 B_r'y: the projection onto the span of the factor's kept columns (B's
// columns: L's, each from its diagonal down, the dropped rows' entries included), which is G's
// range; C: those columns as rows (nkeep x n), R: their Gram matrix (nkeep x nkeep)
static void projectKept(mjtNum* y, const mjtNum* L, int n, int nkeep, mjtNum* work,
                        mjtNum pivot) {
  mjtNum* C = work;
  mjtNum* R = C + (size_t)nkeep*n;
  mjtNum* z = R + (size_t)nkeep*nkeep;
  int a = 0;
  for (int j=0; j < n; j++) {
    if (L[j*n+j] > 0) {
      mjtNum* c = C + (size_t)a*n;
      for (int i=0; i < n; i++) {
        c[i] = i < j ? 0 : L[i*n+j];
      }
      z[a++] = mju_dot(c, y, n);
    }
  }
  for (a=0; a < nkeep; a++) {
    for (int b=0; b <= a; b++) {
      R[a*nkeep+b] = R[b*nkeep+a] = mju_dot(C + (size_t)a*n, C + (size_t)b*n, n);
    }
  }
  acs_denseFactor(R, nkeep, pivot);
  acs_denseSolve(z, R, nkeep);
  mju_zero(y, n);
  for (a=0; a < nkeep; a++) {
    mju_addToScl(y, C + (size_t)a*n, z[a], n);
  }
}


int acs_testDenseProjectRange = 0;

int acs_denseProjectRange(mjtNum* y, mjtNum* G, int n, mjtNum* work, mjtNum pivot) {
  acs_denseFactor(G, n, pivot);
  int nkeep = 0;
  for (int j=0; j < n; j++) {
    nkeep += G[j*n+j] > 0;
  }
  int nnull = n - nkeep;
  if (nnull == 0) {
    return 0;
  }

  // by the range where it has fewer dimensions than the null space, as where a pair of bodies
  // touches at four contacts or more (12 rows or more, 6 motions): the null vectors cost about
  // n^2 / 4 each and their Gram matrix nnull^2 n / 2, the kept columns' Gram matrix nkeep^2 n / 2
  // (Fetch push's stabilization: 45k -> 23k instructions a step)
  int bykept = acs_testDenseProjectRange ? acs_testDenseProjectRange == 2 :
               nkeep * nkeep < nnull * (n / 2 + nnull);
  if (bykept) {
    projectKept(y, G, n, nkeep, work, pivot);
    return nnull;
  }
  mjtNum* N = work;               // null vectors, one per dropped row        (nnull x n)
  mjtNum* NN = N + n*n;           // N'N                                      (nnull x nnull)
  mjtNum* z = NN + n*n;           // (N'N)^-1 N'y                             (nnull)
  nnull = 0;
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
  return nnull;
}
