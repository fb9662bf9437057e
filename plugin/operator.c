// Copyright 2026 The acs authors.
//
// The operator of a contact problem, G = J M^-1 J' + diag(R), applied through the sparse rows of J
// and Y = (M^-1 J')', or of the factor-space B (G = B B', see acsProblem), so nothing forms a dense
// nefc x nefc matrix; and the check
// that a problem is well formed (sizes, addresses, columns, finite values), which every entry
// point runs before it reads one.

#include "operator.h"

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "dense.h"
#include "util_errmem.h"

//---------------------------------- Delassus operations -------------------------------------------

mjtNum acs_delassus(const acsProblem* p, int i, int j) {
  const int *ci, *cj;
  const mjtNum *vi, *vj;
  int ni = acs_rowL(&ci, &vi, p, i), nj = acs_rowR(&cj, &vj, p, j);
  mjtNum s = 0;
  if (ci == cj && ni == nj) {
    // one pattern (a row of B with itself, or two rows stored on one column list): every entry
    // pairs, in the order the merge below takes them
    for (int a=0; a < ni; a++) {
      s += vi[a] * vj[a];
    }
    return s;
  }
  int a = 0, b = 0;
  while (a < ni && b < nj) {
    if (ci[a] == cj[b]) {
      s += vi[a++] * vj[b++];
    } else if (ci[a] < cj[b]) {
      a++;
    } else {
      b++;
    }
  }
  return s;
}


void acs_blockDelassus(mjtNum* G, const acsProblem* p, int k) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  int shared = acs_sharedPattern(p, k);
  for (int i=0; i < dim; i++) {
    for (int j=0; j <= i; j++) {
      // rows of B on one pattern (a contact's): dotted entry by entry, as the merge would
      mjtNum g = 0;
      if (shared) {
        const mjtNum* bi = p->B + p->B_rowadr[adr+i];
        const mjtNum* bj = p->B + p->B_rowadr[adr+j];
        for (int c=0; c < p->B_rownnz[adr]; c++) {
          g += bi[c] * bj[c];
        }
      } else {
        g = acs_delassus(p, adr+i, adr+j);
      }
      G[i*dim+j] = G[j*dim+i] = g;
    }
    if (p->R) {
      G[i*dim+i] += p->R[adr+i];
    }
  }
}


// rows whose entries share one column pattern are dotted with a scattered row together (the rows
// of a contact: its two bodies' chains): its pattern and the scattered entries are read once for
// all of them. Up to kRunRows rows per run; lists longer than kRunList take runs of one row
#define kRunRows 3
#define kRunList 256

// the dense columns of acs_delassusColumns (the rows' list times the columns they touch) and
// acs_projectRange's matrices: at most kDenseCap entries; and the work of one product there
// against one of the sparse methods' (measured: kDenseWork)
#define kDenseCap 16384
#define kDenseWork 0.25

// does left row r2 have the column pattern of left row r1
static int samePattern(const acsProblem* p, int r1, int r2) {
  const int *c1, *c2;
  const mjtNum *v1, *v2;
  int n1 = acs_rowL(&c1, &v1, p, r1), n2 = acs_rowL(&c2, &v2, p, r2);
  return n1 == n2 && (c1 == c2 || !memcmp(c1, c2, sizeof(int) * n1));
}


// run[a]: rows from a on (at most kRunRows) sharing row a's column pattern (n <= kRunList)
static void patternRuns(unsigned char* run, const acsProblem* p, const int* rows, int n) {
  for (int a=n-1; a >= 0; a--) {
    run[a] = a + 1 < n && run[a+1] < kRunRows && samePattern(p, rows[a], rows[a+1]) ?
             run[a+1] + 1 : 1;
  }
}


// acs_delassusRows with the runs of patternRuns (read if n <= kRunList)
static void delassusByRows(mjtNum* H, const acsProblem* p, const int* rows, int n,
                           const mjtNum* d, mjtNum* scratch, const unsigned char* run) {
  mju_zero(scratch, p->nv);
  for (int b=0; b < n; b++) {
    // right row rows[b], scattered
    const int* cb;
    const mjtNum* yb;
    int nb = acs_rowR(&cb, &yb, p, rows[b]);
    for (int c=0; c < nb; c++) {
      scratch[cb[c]] = yb[c];
    }

    // its products with left rows a >= b, a run of rows sharing a pattern at a time (the sums in
    // the same order as row by row)
    for (int a=b; a < n; ) {
      int m = n <= kRunList ? run[a] : 1;
      const int* ca;
      const mjtNum* ja[kRunRows];
      int na = acs_rowL(&ca, ja, p, rows[a]);
      for (int i=1; i < m; i++) {
        const int* ci;
        acs_rowL(&ci, ja + i, p, rows[a+i]);
      }
      mjtNum g[kRunRows] = {0};
      if (m == 3) {
        const mjtNum *j0 = ja[0], *j1 = ja[1], *j2 = ja[2];
        mjtNum g0 = 0, g1 = 0, g2 = 0;
        for (int c=0; c < na; c++) {
          mjtNum sc = scratch[ca[c]];
          g0 += j0[c] * sc;
          g1 += j1[c] * sc;
          g2 += j2[c] * sc;
        }
        g[0] = g0;
        g[1] = g1;
        g[2] = g2;
      } else {
        for (int c=0; c < na; c++) {
          mjtNum sc = scratch[ca[c]];
          for (int i=0; i < m; i++) {
            g[i] += ja[i][c] * sc;
          }
        }
      }
      for (int i=0; i < m; i++, a++) {
        H[a*n+b] = H[b*n+a] = d ? d[rows[a]] * g[i] * d[rows[b]] : g[i];
      }
    }
    for (int c=0; c < nb; c++) {
      scratch[cb[c]] = 0;
    }
    if (p->R) {
      H[b*n+b] += d ? d[rows[b]] * p->R[rows[b]] * d[rows[b]] : p->R[rows[b]];
    }
  }
}


void acs_delassusRows(mjtNum* H, const acsProblem* p, const int* rows, int n, const mjtNum* d,
                      mjtNum* scratch) {
  unsigned char run[kRunList];
  if (n <= kRunList) {
    patternRuns(run, p, rows, n);
  }
  delassusByRows(H, p, rows, n, d, scratch, run);
}


int acs_testDelassusColumns = 0;

void acs_columnsLayout(acsColumns* w, acsArena* arena, const acsProblem* p) {
  w->count   = acs_arenaAlloc(arena, p->nv, sizeof(int));
  w->touched = acs_arenaAlloc(arena, p->nv, sizeof(int));
  w->next    = acs_arenaAlloc(arena, p->nv, sizeof(int));
  w->row     = acs_arenaAlloc(arena, p->B ? p->nnzB : 0, sizeof(int));
  w->val     = acs_arenaAlloc(arena, p->B ? p->nnzB : 0, sizeof(mjtNum));
  size_t nrow = p->nefc < kRunList ? p->nefc : kRunList;
  size_t nv = p->nv, ndense = nv * (nrow + nv + 1);
  w->ndense  = ndense < kDenseCap ? (int)ndense : kDenseCap;
  w->dense   = acs_arenaAlloc(arena, w->ndense, sizeof(mjtNum));
  w->ready   = 0;
}


// H's lower triangle (row-major n x n) set to zero
static void zeroLower(mjtNum* H, int n) {
  for (int a=0; a < n; a++) {
    memset(H + (size_t)a*n, 0, (a + 1) * sizeof(mjtNum));
  }
}


// H's lower triangle from the dense columns X (nt columns of n entries each, a column's entries
// contiguous): H_ab = the sum over t of X_ta X_tb, in the order of the columns. Four columns at a
// time, each entry's sum carried in order ((H + p0) + p1) + p2 ...; rows of zeros in the four are
// skipped (their products are zeros, which change no sum: H is never -0)
static void denseColumns(mjtNum* restrict H, const mjtNum* restrict X, int n, int nt) {
  zeroLower(H, n);
  int t = 0;
  for (; t + 4 <= nt; t += 4) {
    const mjtNum *x0 = X + (size_t)t*n, *x1 = x0 + n, *x2 = x1 + n, *x3 = x2 + n;
    for (int a=0; a < n; a++) {
      mjtNum v0 = x0[a], v1 = x1[a], v2 = x2[a], v3 = x3[a];
      if (v0 == 0 && v1 == 0 && v2 == 0 && v3 == 0) {
        continue;
      }
      mjtNum* restrict Ha = H + (size_t)a*n;
      for (int b=0; b <= a; b++) {
        Ha[b] = (((Ha[b] + v0*x0[b]) + v1*x1[b]) + v2*x2[b]) + v3*x3[b];
      }
    }
  }
  for (; t < nt; t++) {
    const mjtNum* x0 = X + (size_t)t*n;
    for (int a=0; a < n; a++) {
      mjtNum v0 = x0[a];
      if (v0 == 0) {
        continue;
      }
      mjtNum* restrict Ha = H + (size_t)a*n;
      for (int b=0; b <= a; b++) {
        Ha[b] += v0*x0[b];
      }
    }
  }
}


// w->touched (nt columns, count non-zero on them) in ascending order, without allocation:
// insertion where the list is short, else the columns read again in order (qsort may take a buffer
// from the heap)
static void sortTouched(acsColumns* w, int nt, int nv) {
  if (nt * nt < 4 * nv) {
    for (int t=1; t < nt; t++) {
      int c = w->touched[t], u = t;
      for (; u > 0 && w->touched[u-1] > c; u--) {
        w->touched[u] = w->touched[u-1];
      }
      w->touched[u] = c;
    }
  } else {
    nt = 0;
    for (int c=0; c < nv; c++) {
      if (w->count[c]) {
        w->touched[nt++] = c;
      }
    }
  }
}


// H's lower triangle by the sparse columns: each column's entries listed in the order of the
// rows, then the products of each pair (the columns of touched, ascending; count: theirs, left
// zero)
static void sparseColumns(mjtNum* H, const acsProblem* p, const int* rows, int n, acsColumns* w,
                          int nt) {
  for (int t=0, e=0; t < nt; t++) {
    w->next[w->touched[t]] = e;
    e += w->count[w->touched[t]];
  }
  for (int a=0; a < n; a++) {
    int adr = p->B_rowadr[rows[a]];
    for (int c=0; c < p->B_rownnz[rows[a]]; c++) {
      int e = w->next[p->B_colind[adr+c]]++;
      w->row[e] = a;
      w->val[e] = p->B[adr+c];
    }
  }

  // H's lower triangle, H_ab (a >= b) summed over the columns in their order
  zeroLower(H, n);
  for (int t=0; t < nt; t++) {
    int c = w->touched[t], e1 = w->next[c], e0 = e1 - w->count[c];
    for (int i=e0; i < e1; i++) {
      mjtNum* Ha = H + w->row[i]*n;
      mjtNum vi = w->val[i];
      for (int j=e0; j <= i; j++) {
        Ha[w->row[j]] += vi * w->val[j];
      }
    }
    w->count[c] = 0;
  }
}


int acs_delassusColumns(mjtNum* H, const acsProblem* p, const int* rows, int n, const mjtNum* d,
                        mjtNum* scratch, acsColumns* w) {
  if (!p->B || n > kRunList) {
    acs_delassusRows(H, p, rows, n, d, scratch);
    return 0;
  }
  unsigned char run[kRunList];
  patternRuns(run, p, rows, n);

  // the entries per column (of the columns the rows touch: a list that is short where many calls
  // are, 22_humanoids' subspace steps), and the work of both ways: by rows, each row's entries
  // once for it and each row before it, half that for the second and third rows of a run sharing
  // a pattern (the scattered row is read once for the run); by columns, a pair of entries per
  // pair of rows in a column. Measured (instructions a step): by columns where less, the Shadow
  // hand's admm -8%, pgs -10% (its joints' limits and friction losses, rows of their own); on the
  // humanoid's and Fetch's contacts, without the runs' half, +3%
  if (!w->ready) {
    memset(w->count, 0, p->nv * sizeof(int));
    w->ready = 1;
  }
  int nt = 0;
  double byrows = 0, bycols = (double)n * n;   // H cleared and scaled
  for (int a=0; a < n; a += run[a]) {           // a run's rows on its first row's columns
    int na = p->B_rownnz[rows[a]], m = run[a];
    const int* col = p->B_colind + p->B_rowadr[rows[a]];
    byrows += (double)na * ((a + 1) + 0.5 * (m - 1) * (a + 1 + 0.5 * m));
    for (int c=0; c < na; c++) {
      if (w->count[col[c]] == 0) {
        w->touched[nt++] = col[c];
      }
      w->count[col[c]] += m;
    }
  }
  for (int t=0; t < nt; t++) {
    bycols += 0.5 * w->count[w->touched[t]] * (w->count[w->touched[t]] + 1);
  }
  double bydense = (double)n * nt + kDenseWork * 0.5 * n * (n + 1) * nt;
  int dense = (size_t)n * nt <= (size_t)w->ndense &&
              (acs_testDelassusColumns == 2 ||
               (!acs_testDelassusColumns && bydense < byrows && bydense < bycols));
  if (!dense && !(bycols < byrows) && !acs_testDelassusColumns) {
    for (int t=0; t < nt; t++) {
      w->count[w->touched[t]] = 0;
    }
    delassusByRows(H, p, rows, n, d, scratch, run);
    return 0;
  }

  // the entries sorted by column, each column's in the order of the rows (next: a column's
  // first entry, then past its last)
  // touched in ascending order, without allocation: insertion where the list is short, else
  // the columns read again in order (qsort may take a buffer from the heap)
  sortTouched(w, nt, p->nv);
  if (dense) {
    // the rows' entries in dense columns (next: a touched column's place), then H
    for (int t=0; t < nt; t++) {
      w->next[w->touched[t]] = t;
      w->count[w->touched[t]] = 0;
    }
    mju_zero(w->dense, n*nt);
    for (int a=0; a < n; a++) {
      int adr = p->B_rowadr[rows[a]];
      for (int c=0; c < p->B_rownnz[rows[a]]; c++) {
        w->dense[(size_t)w->next[p->B_colind[adr+c]]*n + a] = p->B[adr+c];
      }
    }
    denseColumns(H, w->dense, n, nt);
  } else {
    sparseColumns(H, p, rows, n, w, nt);
  }

  // scaled and mirrored, as acs_delassusRows writes them (d_a g d_b), then R
  for (int a=0; a < n; a++) {
    mjtNum* Ha = H + (size_t)a*n;
    if (d) {
      mjtNum da = d[rows[a]];
      for (int b=0; b <= a; b++) {
        Ha[b] = da * Ha[b] * d[rows[b]];
      }
    }
    for (int b=0; b < a; b++) {
      H[(size_t)b*n+a] = Ha[b];
    }
  }
  if (p->R) {
    for (int b=0; b < n; b++) {
      H[b*n+b] += d ? d[rows[b]] * p->R[rows[b]] * d[rows[b]] : p->R[rows[b]];
    }
  }
  return 1 + dense;
}


int acs_testProjectRange = 0;

// the dofs the rows' J touches, in w->touched (first touch order) and marked in w->count (the
// caller clears the marks); return their number
static int touchedDofs(const acsProblem* p, const int* rows, int n, acsColumns* w) {
  if (!w->ready) {
    memset(w->count, 0, p->nv * sizeof(int));
    w->ready = 1;
  }
  int nt = 0;
  for (int a=0; a < n; a++) {
    const int* col = p->J_colind + p->J_rowadr[rows[a]];
    for (int c=0; c < p->J_rownnz[rows[a]]; c++) {
      if (!w->count[col[c]]) {
        w->count[col[c]] = 1;
        w->touched[nt++] = col[c];
      }
    }
  }
  return nt;
}


// do rows r1 and r2 of J have the same column pattern
static int sameJPattern(const acsProblem* p, int r1, int r2) {
  int n1 = p->J_rownnz[r1];
  return n1 == p->J_rownnz[r2] &&
         !memcmp(p->J_colind + p->J_rowadr[r1], p->J_colind + p->J_rowadr[r2], sizeof(int) * n1);
}


int acs_projectFits(const acsProblem* p, const int* rows, int n, acsColumns* w) {
  if ((size_t)(p->nv + 1) * p->nv <= (size_t)w->ndense) {
    return 1;                   // every dof would fit
  }
  int nt = touchedDofs(p, rows, n, w);
  for (int t=0; t < nt; t++) {
    w->count[w->touched[t]] = 0;
  }
  return (size_t)(nt + 1) * nt <= (size_t)w->ndense;
}


int acs_projectRange(mjtNum* y, const acsProblem* p, const int* rows, int n, const mjtNum* d,
                     mjtNum pivot, acsColumns* w) {
  // the dofs the rows' J touches, ascending, and their places (next)
  int nt = touchedDofs(p, rows, n, w);
  if ((size_t)(nt + 1) * nt > (size_t)w->ndense) {
    for (int t=0; t < nt; t++) {
      w->count[w->touched[t]] = 0;
    }
    return -1;
  }
  sortTouched(w, nt, p->nv);
  for (int t=0; t < nt; t++) {
    w->next[w->touched[t]] = t;
    w->count[w->touched[t]] = 0;
  }

  // g = A'y and K = A'A's lower triangle: by the rows' products entry by entry (sparse rows: a
  // hand's limits), or with A written out dense (X, a row's nt entries contiguous) by
  // denseColumns, four rows at a time, where that is less work (a gripper's contacts on one arm;
  // the same weights as acs_delassusColumns's choice)
  double bysparse = 0;
  for (int a=0; a < n; a++) {
    bysparse += 0.5 * p->J_rownnz[rows[a]] * (p->J_rownnz[rows[a]] + 1);
  }
  int dense = acs_testProjectRange ? acs_testProjectRange == 2 :
              kDenseWork * 0.5 * n * nt * (nt + 1) + (double)n * nt < bysparse;
  dense = dense && (size_t)(n + nt + 1) * nt <= (size_t)w->ndense;
  mjtNum* X = w->dense;
  mjtNum* K = X + (dense ? (size_t)n*nt : 0);
  mjtNum* g = K + (size_t)nt*nt;
  mju_zero(g, nt);
  if (dense) {
    mju_zero(X, n*nt);
  } else {
    mju_zero(K, nt*nt);
  }
  for (int a=0; a < n; ) {
    int adr = p->J_rowadr[rows[a]], nnz = p->J_rownnz[rows[a]];
    const int* col = p->J_colind + adr;
    const mjtNum* jr = p->J + adr;
    mjtNum dr = d ? d[rows[a]] : 1;
    if (dense) {
      mjtNum* xa = X + (size_t)a*nt;
      for (int c=0; c < nnz; c++) {
        xa[w->next[col[c]]] = dr * jr[c];
      }
      for (int t=0; t < nt; t++) {
        g[t] += xa[t] * y[a];
      }
      a++;
      continue;
    }

    // the rows from a on that share its pattern (a contact's three) in one pass over their
    // pairs of entries: each entry of K and g takes the rows' terms in the order of the rows, as
    // row by row (the same sums); the pattern's places read once for them (lying humanoid,
    // admm: acs_projectRange 74k -> 60k instructions a step)
    int m = 1;
    while (m < kRunRows && a + m < n && sameJPattern(p, rows[a], rows[a+m])) {
      m++;
    }
    const mjtNum* jm[kRunRows] = {jr, NULL, NULL};
    mjtNum dm[kRunRows] = {dr, 0, 0}, ym[kRunRows] = {y[a], 0, 0};
    for (int i=1; i < m; i++) {
      jm[i] = p->J + p->J_rowadr[rows[a+i]];
      dm[i] = d ? d[rows[a+i]] : 1;
      ym[i] = y[a+i];
    }
    for (int c=0; c < nnz; c++) {
      acsASSERT(c == 0 || col[c] > col[c-1]);
      int tc = w->next[col[c]];
      mjtNum* Kc = K + (size_t)tc*nt;
      mjtNum jc[kRunRows];
      for (int i=0; i < m; i++) {
        jc[i] = dm[i] * dm[i] * jm[i][c];
        g[tc] += dm[i] * jm[i][c] * ym[i];
      }
      if (m == 3) {
        const mjtNum *j0 = jm[0], *j1 = jm[1], *j2 = jm[2];
        for (int e=0; e <= c; e++) {   // a row's columns ascend: so do their places
          mjtNum* k = Kc + w->next[col[e]];
          *k = ((*k + jc[0] * j0[e]) + jc[1] * j1[e]) + jc[2] * j2[e];
        }
      } else {
        for (int e=0; e <= c; e++) {
          mjtNum* k = Kc + w->next[col[e]];
          for (int i=0; i < m; i++) {
            *k += jc[i] * jm[i][e];
          }
        }
      }
    }
    a += m;
  }
  if (dense) {
    denseColumns(K, X, nt, n);
  }

  // u = K^+ g (a dof no row moves independently of those before it is dropped: any solution
  // gives the same A u), y = A u, where the rows depend on each other (rank below n)
  acs_denseFactor(K, nt, pivot);
  int rank = 0;
  for (int t=0; t < nt; t++) {
    rank += K[t*nt+t] > 0;
  }
  if (rank >= n) {
    return 0;
  }
  acs_denseSolve(g, K, nt);
  for (int a=0; a < n; a++) {
    int adr = p->J_rowadr[rows[a]];
    mjtNum s = 0;
    for (int c=0; c < p->J_rownnz[rows[a]]; c++) {
      s += p->J[adr+c] * g[w->next[p->J_colind[adr+c]]];
    }
    y[a] = (d ? d[rows[a]] : 1) * s;
  }
  return 1;
}


void acs_mulYT(mjtNum* w, const acsProblem* p, const mjtNum* f) {
  mju_zero(w, p->nv);
  for (int r=0; r < p->nefc; r++) {
    if (f[r] == 0) {
      continue;
    }
    const int* col;
    const mjtNum* y;
    int n = acs_rowR(&col, &y, p, r);
    for (int i=0; i < n; i++) {
      w[col[i]] += y[i] * f[r];
    }
  }
}


int acs_sharedPattern(const acsProblem* p, int k) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  if (!p->B || p->B_rownnz[adr] == 0) {
    return 0;
  }
  for (int r=1; r < dim; r++) {
    if (p->B_rownnz[adr+r] != p->B_rownnz[adr] ||
        memcmp(p->B_colind + p->B_rowadr[adr+r], p->B_colind + p->B_rowadr[adr],
               sizeof(int) * p->B_rownnz[adr])) {
      return 0;
    }
  }
  return 1;
}


void acs_addYTBlock(mjtNum* w, const acsProblem* p, int k, const mjtNum* df, int shared) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  if (shared && dim == 3 && df[0] != 0 && df[1] != 0 && df[2] != 0) {
    // the three rows in one pass over their pattern: each w entry takes the rows' terms in the
    // same order as row by row
    const int* col = p->B_colind + p->B_rowadr[adr];
    const mjtNum* y0 = p->B + p->B_rowadr[adr];
    const mjtNum* y1 = p->B + p->B_rowadr[adr+1];
    const mjtNum* y2 = p->B + p->B_rowadr[adr+2];
    mjtNum d0 = df[0], d1 = df[1], d2 = df[2];
    for (int i=0; i < p->B_rownnz[adr]; i++) {
      mjtNum t = w[col[i]];
      t += y0[i] * d0;
      t += y1[i] * d1;
      t += y2[i] * d2;
      w[col[i]] = t;
    }
    return;
  }
  for (int r=0; r < dim; r++) {
    if (df[r] == 0) {
      continue;
    }
    const int* col;
    const mjtNum* y;
    int n = acs_rowR(&col, &y, p, adr+r);
    for (int i=0; i < n; i++) {
      w[col[i]] += y[i] * df[r];
    }
  }
}


// J_r . w + b_r + R_r f_r (B_r . w with B)
static inline mjtNum rowVelocity(const acsProblem* p, int r, const mjtNum* w, const mjtNum* f) {
  const int* col;
  const mjtNum* j;
  int n = acs_rowL(&col, &j, p, r);
  mjtNum s = p->b[r];
  for (int i=0; i < n; i++) {
    s += j[i] * w[col[i]];
  }
  if (p->R) {
    s += p->R[r] * f[r];
  }
  return s;
}


void acs_velocity(mjtNum* a, const acsProblem* p, const mjtNum* w, const mjtNum* f) {
  for (int r=0; r < p->nefc; r++) {
    a[r] = rowVelocity(p, r, w, f);
  }
}


void acs_velocityBlock(mjtNum* a, const acsProblem* p, int k, const mjtNum* w, const mjtNum* f,
                       int shared) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  if (shared && dim == 3) {
    // the three rows in one pass over their pattern (w read once), each sum in its row's order
    const int* col = p->B_colind + p->B_rowadr[adr];
    const mjtNum* j0 = p->B + p->B_rowadr[adr];
    const mjtNum* j1 = p->B + p->B_rowadr[adr+1];
    const mjtNum* j2 = p->B + p->B_rowadr[adr+2];
    mjtNum s0 = p->b[adr], s1 = p->b[adr+1], s2 = p->b[adr+2];
    for (int i=0; i < p->B_rownnz[adr]; i++) {
      mjtNum wc = w[col[i]];
      s0 += j0[i] * wc;
      s1 += j1[i] * wc;
      s2 += j2[i] * wc;
    }
    if (p->R) {
      s0 += p->R[adr] * f[adr];
      s1 += p->R[adr+1] * f[adr+1];
      s2 += p->R[adr+2] * f[adr+2];
    }
    a[0] = s0;
    a[1] = s1;
    a[2] = s2;
    return;
  }
  for (int r=0; r < dim; r++) {
    a[r] = rowVelocity(p, adr+r, w, f);
  }
}


//---------------------------------- validation ----------------------------------------------------

// sorted column indices in [0, nv)
static int checkRow(const int* col, int n, int nv) {
  for (int i=0; i < n; i++) {
    if (col[i] < 0 || col[i] >= nv || (i > 0 && col[i] <= col[i-1])) {
      return -1;
    }
  }
  return 0;
}


// a sparse row set (rownnz, rowadr, colind, values of nnz entries) of nrow rows over nv columns;
// name for messages
static int checkSparse(const int* rownnz, const int* rowadr, const int* colind,
                       const mjtNum* val, int nnz, int nrow, int nv, const char* name,
                       char* error, int error_sz) {
  if (nrow > 0 && (!rownnz || !rowadr)) {
    acs_formatError(error, error_sz, "%s_rownnz and %s_rowadr must not be NULL (nefc = %d)",
                    name, name, nrow);
    return -1;
  }
  for (int r=0; r < nrow; r++) {
    if (rownnz[r] < 0 || rownnz[r] > nv || rowadr[r] < 0 || rowadr[r] > nnz - rownnz[r]) {
      acs_formatError(error, error_sz, "row %d: %s_rownnz = %d must be in [0, nv = %d] and the "
                      "row (%s_rowadr = %d) inside the nnz%s = %d entries", r, name, rownnz[r],
                      nv, name, rowadr[r], name, nnz);
      return -1;
    }
    if (rownnz[r] > 0 && (!colind || !val)) {
      acs_formatError(error, error_sz, "row %d: %s_colind and %s must not be NULL", r, name,
                      name);
      return -1;
    }
    if (rownnz[r] > 0 && checkRow(colind + rowadr[r], rownnz[r], nv)) {
      acs_formatError(error, error_sz, "row %d: column indices of %s must be sorted, distinct "
                      "and in [0, %d)", r, name, nv);
      return -1;
    }
    for (int i=0; i < rownnz[r]; i++) {
      if (!isfinite(val[rowadr[r] + i])) {
        acs_formatError(error, error_sz, "row %d: %s has a non-finite value", r, name);
        return -1;
      }
    }
  }
  return 0;
}


// n numbers finite (and >= lo when lo is not NaN); name for messages; arr may be NULL
static int checkFinite(const mjtNum* arr, int n, mjtNum lo, const char* name,
                       char* error, int error_sz) {
  for (int i=0; arr && i < n; i++) {
    if (!isfinite(arr[i]) || arr[i] < lo) {
      acs_formatError(error, error_sz, "%s[%d] = %g: must be finite%s", name, i, arr[i],
                      isnan(lo) ? "" : lo > 0 ? " and > 0" : " and >= 0");
      return -1;
    }
  }
  return 0;
}


int acs_checkProblem(const acsProblem* p, char* error, int error_sz) {
  if (!p) {
    acs_formatError(error, error_sz, "problem is NULL");
    return -1;
  }
  if (p->nv < 0 || p->nefc < 0 || p->nblock < 0) {
    acs_formatError(error, error_sz, "nv = %d, nefc = %d, nblock = %d: sizes must be >= 0",
                    p->nv, p->nefc, p->nblock);
    return -1;
  }
  if (!(p->timestep > 0) || !isfinite(p->timestep)) {
    acs_formatError(error, error_sz, "timestep must be a positive number, got %g", p->timestep);
    return -1;
  }
  if (p->nblock > 0 && (!p->block_type || !p->block_dim || !p->block_adr || !p->block_mu ||
                        !p->block_floss || !p->block_pos)) {
    acs_formatError(error, error_sz, "block_type, block_dim, block_adr, block_mu, block_floss "
                    "and block_pos must not be NULL (nblock = %d)", p->nblock);
    return -1;
  }
  if (p->nefc > 0 && !p->b) {
    acs_formatError(error, error_sz, "b must not be NULL (nefc = %d)", p->nefc);
    return -1;
  }

  // blocks
  int nrow = 0;
  for (int k=0; k < p->nblock; k++) {
    int type = p->block_type[k], dim = p->block_dim[k];
    if (type < 0 || type >= acsNBLOCK) {
      acs_formatError(error, error_sz, "block_type[%d] = %d: must be an acstBlock (0 to %d)",
                      k, type, acsNBLOCK-1);
      return -1;
    }
    int ok = (type == acsBLOCK_CONTACT) ? (dim == 1 || dim == 3 || dim == 4 || dim == 6) :
             (type == acsBLOCK_EQUALITY) ? (dim >= 1 && dim <= 6) : dim == 1;
    if (!ok) {
      acs_formatError(error, error_sz, "block_dim[%d] = %d: contacts have 1, 3, 4 or 6 rows, "
                      "equality 1 to 6, friction loss and limits 1", k, dim);
      return -1;
    }
    if (p->block_adr[k] != nrow) {
      acs_formatError(error, error_sz, "block_adr[%d] = %d: blocks must be contiguous (%d)",
                      k, p->block_adr[k], nrow);
      return -1;
    }
    if (type == acsBLOCK_CONTACT) {
      for (int j=0; j < dim-1; j++) {
        mjtNum mu = p->block_mu[5*k+j];
        if (!(mu >= 0) || !isfinite(mu)) {
          acs_formatError(error, error_sz, "block_mu[%d][%d] = %g: must be finite and >= 0",
                          k, j, mu);
          return -1;
        }
      }
      if (p->block_stiffness && (!(p->block_stiffness[k] > 0) ||
                                 !isfinite(p->block_stiffness[k]))) {
        acs_formatError(error, error_sz, "block_stiffness[%d] = %g: must be finite and > 0", k,
                        p->block_stiffness[k]);
        return -1;
      }
      if (p->block_dissipation && (!(p->block_dissipation[k] >= 0) ||
                                   !isfinite(p->block_dissipation[k]))) {
        acs_formatError(error, error_sz, "block_dissipation[%d] = %g: must be finite and >= 0",
                        k, p->block_dissipation[k]);
        return -1;
      }
    }
    if (type == acsBLOCK_FRICTION && (!(p->block_floss[k] >= 0) || !isfinite(p->block_floss[k]))) {
      acs_formatError(error, error_sz, "block_floss[%d] = %g: must be finite and >= 0",
                      k, p->block_floss[k]);
      return -1;
    }
    if (!isfinite(p->block_pos[k])) {
      acs_formatError(error, error_sz, "block_pos[%d] = %g: must be finite", k, p->block_pos[k]);
      return -1;
    }
    nrow += dim;
  }
  if (nrow != p->nefc) {
    acs_formatError(error, error_sz, "blocks hold %d rows, nefc = %d", nrow, p->nefc);
    return -1;
  }

  // islands
  if (p->block_island) {
    if (p->nisland < 0 || p->nisland > p->nblock || (p->nblock > 0 && p->nisland == 0) ||
        (p->nisland > 0 && !p->island_nefc)) {
      acs_formatError(error, error_sz, "nisland = %d: must be in [1, nblock = %d], with "
                      "island_nefc given", p->nisland, p->nblock);
      return -1;
    }
    for (int k=0; k < p->nblock; k++) {
      if (p->block_island[k] < 0 || p->block_island[k] >= p->nisland) {
        acs_formatError(error, error_sz, "block_island[%d] = %d: must be in [0, nisland = %d)",
                        k, p->block_island[k], p->nisland);
        return -1;
      }
    }
    for (int i=0; i < p->nisland; i++) {
      int n = 0;
      for (int k=0; k < p->nblock; k++) {
        n += p->block_island[k] == i ? p->block_dim[k] : 0;
      }
      if (n != p->island_nefc[i]) {
        acs_formatError(error, error_sz, "island_nefc[%d] = %d, but its blocks hold %d rows",
                        i, p->island_nefc[i], n);
        return -1;
      }
    }
  }

  // rows
  if (checkFinite(p->b, p->nefc, NAN, "b", error, error_sz) ||
      checkFinite(p->R, p->nefc, 0, "R", error, error_sz) ||
      checkFinite(p->vel, p->nefc, NAN, "vel", error, error_sz) ||
      checkFinite(p->vfree, p->nefc, NAN, "vfree", error, error_sz) ||
      checkFinite(p->pos, p->nefc, NAN, "pos", error, error_sz) ||
      checkSparse(p->J_rownnz, p->J_rowadr, p->J_colind, p->J, p->nnzJ, p->nefc, p->nv, "J",
                  error, error_sz) ||
      (p->Y && checkSparse(p->Y_rownnz, p->Y_rowadr, p->Y_colind, p->Y, p->nnzY, p->nefc,
                           p->nv, "Y", error, error_sz)) ||
      (p->B && checkSparse(p->B_rownnz, p->B_rowadr, p->B_colind, p->B, p->nnzB, p->nefc,
                           p->nv, "B", error, error_sz))) {
    return -1;
  }

  // a row that acts on no dof cannot change its velocity: with b != 0 no force satisfies its law
  for (int r=0; r < p->nefc; r++) {
    mjtNum jmax = 0;
    for (int i=0; i < p->J_rownnz[r]; i++) {
      jmax = mju_max(jmax, mju_abs(p->J[p->J_rowadr[r] + i]));
    }
    if (jmax == 0 && (!p->R || p->R[r] == 0) && p->b[r] != 0) {
      acs_formatError(error, error_sz, "row %d: J and R are zero but b = %g: the row acts on no "
                      "dof, so no force can satisfy its law; leave it out of the problem (acs_step "
                      "gives such rows zero force)", r, p->b[r]);
      return -1;
    }
  }
  return 0;
}


int acs_checkProblemFor(const acsProblem* p, int primal, char* error, int error_sz) {
  if (!primal) {
    if (p->nefc > 0 && !p->Y && !p->B) {
      acs_formatError(error, error_sz, "Y (M^-1 J' by rows) or B (D^-1/2 L^-T J' by rows) must "
                      "be given for this solver");
      return -1;
    }
    return 0;
  }
  if (p->nefc > 0 && (!p->vel || !p->vfree || !p->pos)) {
    acs_formatError(error, error_sz, "vel, vfree and pos must be given for lagged and similar");
    return -1;
  }
  if (p->nv > 0 && (!p->M || !p->M_rownnz || !p->M_rowadr || !p->M_colind)) {
    acs_formatError(error, error_sz, "M, M_rownnz, M_rowadr and M_colind must be given for "
                    "lagged and similar");
    return -1;
  }

  // MuJoCo's layout: row i holds ancestors of i in ascending order, then i; positive diagonal
  int adr = 0;
  for (int i=0; i < p->nv; i++) {
    int n = p->M_rownnz[i], radr = p->M_rowadr[i];
    if (n < 1 || n > i+1 || radr != adr || adr > p->nnzM - n) {
      acs_formatError(error, error_sz, "M row %d: MuJoCo's sparse layout expected (rows stored "
                      "one after the other, 1 to %d entries, inside the nnzM = %d entries)", i,
                      i+1, p->nnzM);
      return -1;
    }
    if (p->M_colind[radr + n - 1] != i || checkRow(p->M_colind + radr, n, i+1)) {
      acs_formatError(error, error_sz, "M row %d: MuJoCo's sparse layout expected (rows "
                      "contiguous, ascending columns < %d, diagonal last)", i, i);
      return -1;
    }
    for (int j=0; j < n; j++) {
      if (!isfinite(p->M[radr + j])) {
        acs_formatError(error, error_sz, "M row %d has a non-finite value", i);
        return -1;
      }
    }
    if (!(p->M[radr + n - 1] > 0)) {
      acs_formatError(error, error_sz, "M[%d][%d] = %g: the diagonal must be > 0", i, i,
                      p->M[radr + n - 1]);
      return -1;
    }
    adr += n;
  }

  // M's factor (both or neither) and the start-of-step velocity change, when given
  if (!p->M_LD != !p->M_Dinv) {
    acs_formatError(error, error_sz, "M_LD and M_Dinv (M's factor) must be given together or "
                    "both be NULL");
    return -1;
  }
  if (checkFinite(p->M_LD, adr, NAN, "M_LD", error, error_sz) ||
      checkFinite(p->M_Dinv, p->nv, mjMINVAL, "M_Dinv", error, error_sz) ||
      checkFinite(p->u0, p->nv, NAN, "u0", error, error_sz)) {
    return -1;
  }
  return 0;
}
