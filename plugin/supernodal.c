// Copyright 2026 The acs authors.
//
// The supernodal Cholesky factor of supernodal.h. The analysis eliminates the nodes one by one,
// each time the one with the fewest dofs among its neighbours (minimum degree, weighted; ties to
// the lowest node), on adjacency bit rows: eliminating v joins its neighbours into a clique (the
// fill), and the neighbours are the rows of v's column. The factorization is right-looking by
// columns of blocks: the node's block is Cholesky-factored, the column's blocks solved against
// it, and their products subtracted from the blocks of the later columns.

#include "supernodal.h"

#include <string.h>

#include <mujoco/mujoco.h>
#include "util_errmem.h"

#define kIndexNodes 64            // up to this many nodes, acs_snBlock finds a block by its pair

// x' y over n entries: short ones inline (a call costs as much as the sum), long ones by mju_dot
// (MuJoCo's wheel vectorizes it)
static inline mjtNum dot(const mjtNum* x, const mjtNum* y, int n) {
  if (n >= 8) {
    return mju_dot(x, y, n);
  }
  mjtNum s = 0;
  for (int i=0; i < n; i++) {
    s += x[i] * y[i];
  }
  return s;
}


void acs_snLayout(acsSupernodal* sn, acsArena* arena, int maxnode, size_t maxval) {
  sn->maxnode  = maxnode;
  sn->maxval   = maxval;
  sn->nnode    = 0;
  sn->words    = (maxnode + 63) / 64;
  sn->start    = acs_arenaAlloc(arena, maxnode, sizeof(int));
  sn->size     = acs_arenaAlloc(arena, maxnode, sizeof(int));
  sn->pos      = acs_arenaAlloc(arena, maxnode, sizeof(int));
  sn->order    = acs_arenaAlloc(arena, maxnode, sizeof(int));
  sn->colstart = acs_arenaAlloc(arena, maxnode + 1, sizeof(int));
  sn->blkrow   = acs_arenaAlloc(arena, maxval, sizeof(int));
  sn->blkadr   = acs_arenaAlloc(arena, maxval, sizeof(size_t));
  sn->val      = acs_arenaAlloc(arena, maxval, sizeof(mjtNum));
  sn->adj      = acs_arenaAlloc(arena, (size_t)maxnode * sn->words, sizeof(uint64_t));
  sn->deg      = acs_arenaAlloc(arena, maxnode, sizeof(int));
  sn->map      = acs_arenaAlloc(arena, maxnode, sizeof(int));
  sn->index    = acs_arenaAlloc(arena, kIndexNodes*kIndexNodes, sizeof(int));
  sn->cache[0] = -1;
}


int acs_snBegin(acsSupernodal* sn, int nnode, const int* start, const int* size) {
  if (nnode > sn->maxnode) {
    sn->nnode = 0;
    return -1;
  }
  sn->nnode = nnode;
  sn->words = (nnode + 63) / 64;
  memcpy(sn->start, start, nnode * sizeof(int));
  memcpy(sn->size, size, nnode * sizeof(int));
  memset(sn->adj, 0, (size_t)nnode * sn->words * sizeof(uint64_t));
  return 0;
}


void acs_snCouple(acsSupernodal* sn, int a, int b) {
  sn->adj[(size_t)a*sn->words + b/64] |= (uint64_t)1 << (b % 64);
  sn->adj[(size_t)b*sn->words + a/64] |= (uint64_t)1 << (a % 64);
}


// dofs of the nodes set in bit row r
static int rowDofs(const acsSupernodal* sn, const uint64_t* r) {
  int dofs = 0;
  for (int w=0; w < sn->words; w++) {
    for (uint64_t bits = r[w]; bits; bits &= bits - 1) {
      dofs += sn->size[64*w + __builtin_ctzll(bits)];
    }
  }
  return dofs;
}


// a block of row node r in node v's column, the next in the pattern; -1 if over capacity
static int addBlock(acsSupernodal* sn, int* nblk, size_t* nval, int r, int v) {
  size_t need = (size_t)sn->size[r] * sn->size[v];
  if ((size_t)*nblk >= sn->maxval || *nval + need > sn->maxval) {
    return -1;
  }
  sn->blkrow[*nblk] = r;
  sn->blkadr[(*nblk)++] = *nval;
  *nval += need;
  return 0;
}


int acs_snAnalyze(acsSupernodal* sn) {
  int n = sn->nnode, W = sn->words;
  for (int v=0; v < n; v++) {
    sn->pos[v] = -1;
    sn->deg[v] = rowDofs(sn, sn->adj + (size_t)v*W);
  }
  int nblk = 0;
  size_t nval = 0;
  for (int q=0; q < n; q++) {
    int v = -1;
    for (int a=0; a < n; a++) {
      if (sn->pos[a] < 0 && (v < 0 || sn->deg[a] < sn->deg[v])) {
        v = a;
      }
    }
    sn->order[q] = v;
    sn->pos[v] = q;
    sn->colstart[q] = nblk;

    // the column: v's own block, then one per neighbour (the nodes not yet eliminated)
    uint64_t* rv = sn->adj + (size_t)v*W;
    if (addBlock(sn, &nblk, &nval, v, v)) {
      return -1;
    }
    for (int w=0; w < W; w++) {
      for (uint64_t bits = rv[w]; bits; bits &= bits - 1) {
        if (addBlock(sn, &nblk, &nval, 64*w + __builtin_ctzll(bits), v)) {
          return -1;
        }
      }
    }

    // the neighbours become a clique without v (the fill); their degrees anew
    for (int w=0; w < W; w++) {
      for (uint64_t bits = rv[w]; bits; bits &= bits - 1) {
        int a = 64*w + __builtin_ctzll(bits);
        uint64_t* ra = sn->adj + (size_t)a*W;
        for (int k=0; k < W; k++) {
          ra[k] |= rv[k];
        }
        ra[a/64] &= ~((uint64_t)1 << (a % 64));
        ra[v/64] &= ~((uint64_t)1 << (v % 64));
        sn->deg[a] = rowDofs(sn, ra);
      }
    }
  }
  sn->colstart[n] = nblk;
  sn->cache[0] = -1;

  // the blocks of a few nodes by pair, for acs_snBlock
  if (n <= kIndexNodes) {
    for (int a=0; a < n; a++) {
      for (int b=0; b < n; b++) {
        sn->index[a*kIndexNodes + b] = -1;
      }
    }
    for (int q=0; q < n; q++) {
      for (int k=sn->colstart[q]; k < sn->colstart[q+1]; k++) {
        sn->index[sn->order[q]*kIndexNodes + sn->blkrow[k]] = k;
      }
    }
  }
  return 0;
}


size_t acs_snValues(const acsSupernodal* sn) {
  int n = sn->nnode;
  if (n == 0) {
    return 0;
  }
  int last = sn->colstart[n] - 1;
  return sn->blkadr[last] + (size_t)sn->size[sn->blkrow[last]] * sn->size[sn->order[n-1]];
}


void acs_snZero(acsSupernodal* sn) {
  mju_zero(sn->val, acs_snValues(sn));
}


mjtNum* acs_snBlock(int* si, int* sj, acsSupernodal* sn, int a, int b) {
  int swap = sn->pos[a] < sn->pos[b];   // stored in a's column, row node b: entry (j, i)
  int col = swap ? a : b, row = swap ? b : a;
  int k = -1;
  if (sn->nnode <= kIndexNodes) {
    k = sn->index[col*kIndexNodes + row];
  } else {
    if (sn->cache[0] != col || sn->cache[1] != row) {
      sn->cache[0] = col;
      sn->cache[1] = row;
      sn->cache[2] = -1;
      int q = sn->pos[col];
      for (int kk=sn->colstart[q]; kk < sn->colstart[q+1]; kk++) {
        if (sn->blkrow[kk] == row) {
          sn->cache[2] = kk;
        }
      }
    }
    k = sn->cache[2];
  }
  if (k < 0) {
    return NULL;
  }
  *si = swap ? 1 : sn->size[b];
  *sj = swap ? sn->size[a] : 1;
  return sn->val + sn->blkadr[k];
}


int acs_snFactor(acsSupernodal* sn, mjtNum mindiag) {
  int n = sn->nnode;
  for (int q=0; q < n; q++) {
    int v = sn->order[q], s = sn->size[v];
    int first = sn->colstart[q], end = sn->colstart[q+1];
    mjtNum* L = sn->val + sn->blkadr[first];

    // the node's block: Cholesky (MuJoCo's, vectorized in its wheel), its lower triangle; the
    // diagonal then stored inverted (a product costs a fraction of a division)
    mjtNum maxd = 0;
    for (int j=0; j < s; j++) {
      maxd = mju_max(maxd, L[j*s + j]);
    }
    if (mju_cholFactor(L, s, mindiag * maxd + mjMINVAL) < s) {
      return -1;
    }
    for (int j=0; j < s; j++) {
      L[j*s + j] = 1 / L[j*s + j];
    }

    // the column's blocks: A_rv L_vv^-T, row by row (forward substitution)
    for (int k=first+1; k < end; k++) {
      int sr = sn->size[sn->blkrow[k]];
      mjtNum* B = sn->val + sn->blkadr[k];
      for (int i=0; i < sr; i++) {
        mjtNum* y = B + i*s;
        for (int j=0; j < s; j++) {
          y[j] = (y[j] - dot(y, L + j*s, j)) * L[j*s + j];
        }
      }
    }

    // the later columns: A_r1r2 -= L_r1v L_r2v' (lower triangle of a node's own block); the
    // analysis made v's neighbours a clique: column r2 has a block in every row r1 after it
    for (int k2=first+1; k2 < end; k2++) {
      int r2 = sn->blkrow[k2], s2 = sn->size[r2], q2 = sn->pos[r2];
      const mjtNum* B2 = sn->val + sn->blkadr[k2];
      for (int k=sn->colstart[q2]; k < sn->colstart[q2+1]; k++) {
        sn->map[sn->blkrow[k]] = k;
      }
      for (int k1=first+1; k1 < end; k1++) {
        int r1 = sn->blkrow[k1], s1 = sn->size[r1];
        if (sn->pos[r1] < q2) {
          continue;
        }
        const mjtNum* B1 = sn->val + sn->blkadr[k1];
        int kt = sn->map[r1];
        acsASSERT(kt >= sn->colstart[q2] && kt < sn->colstart[q2+1] && sn->blkrow[kt] == r1);
        mjtNum* T = sn->val + sn->blkadr[kt];
        for (int i=0; i < s1; i++) {
          for (int j=0; j < (r1 == r2 ? i + 1 : s2); j++) {
            T[i*s2 + j] -= dot(B1 + i*s, B2 + j*s, s);
          }
        }
      }
    }
  }
  return 0;
}


void acs_snSolve(const acsSupernodal* sn, mjtNum* x) {
  int n = sn->nnode;

  // L y = x
  for (int q=0; q < n; q++) {
    int v = sn->order[q], s = sn->size[v], first = sn->colstart[q];
    const mjtNum* L = sn->val + sn->blkadr[first];
    mjtNum* xv = x + sn->start[v];
    for (int j=0; j < s; j++) {
      xv[j] = (xv[j] - dot(L + j*s, xv, j)) * L[j*s + j];
    }
    for (int k=first+1; k < sn->colstart[q+1]; k++) {
      int r = sn->blkrow[k];
      const mjtNum* B = sn->val + sn->blkadr[k];
      mjtNum* xr = x + sn->start[r];
      for (int i=0; i < sn->size[r]; i++) {
        xr[i] -= dot(B + i*s, xv, s);
      }
    }
  }

  // L' x = y
  for (int q=n-1; q >= 0; q--) {
    int v = sn->order[q], s = sn->size[v], first = sn->colstart[q];
    const mjtNum* L = sn->val + sn->blkadr[first];
    mjtNum* xv = x + sn->start[v];
    for (int k=first+1; k < sn->colstart[q+1]; k++) {
      int r = sn->blkrow[k];
      const mjtNum* B = sn->val + sn->blkadr[k];
      const mjtNum* xr = x + sn->start[r];
      for (int i=0; i < sn->size[r]; i++) {
        for (int j=0; j < s; j++) {
          xv[j] -= B[i*s + j] * xr[i];
        }
      }
    }
    for (int j=s-1; j >= 0; j--) {
      mjtNum t = xv[j];
      for (int i=j+1; i < s; i++) {
        t -= L[i*s + j] * xv[i];
      }
      xv[j] = t * L[j*s + j];
    }
  }
}
