// Copyright 2026 The acs authors.
//
// Tests for plugin/supernodal.c: the sparse Cholesky factor over nodes (kinematic trees) against
// dense algebra on random matrices of that structure, its fill-reducing order, and its refusals.

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include "supernodal.h"
#include "util_errmem.h"
#include "test_util.h"

#define kMaxDof 96

static mjtNum randUniform(unsigned* seed) {
  *seed = *seed * 1103515245u + 12345u;
  return ((*seed >> 8) & 0xFFFFFF) / (mjtNum)0xFFFFFF * 2 - 1;
}


// a factor of at most maxnode nodes and maxval values in a heap block (freed by the caller)
static void* makeFactor(acsSupernodal* sn, int maxnode, size_t maxval) {
  acsArena arena = {NULL, 0};
  acs_snLayout(sn, &arena, maxnode, maxval);
  void* mem = calloc(1, arena.used + 64);
  arena.base = (char*)mem + ((64 - ((size_t)mem & 63)) & 63);
  arena.used = 0;
  acs_snLayout(sn, &arena, maxnode, maxval);
  return mem;
}


// the stored entry for local dof i of node a and local dof j of node b (NULL: not coupled)
static mjtNum* entry(acsSupernodal* sn, int a, int i, int b, int j) {
  int si, sj;
  mjtNum* blk = acs_snBlock(&si, &sj, sn, a, b);
  return blk ? blk + i*si + j*sj : NULL;
}


// add the dense matrix A (ndof x ndof, the nodes' dofs) to the factor's pattern: each node's
// block, and each coupled pair's block once
static void addDense(acsSupernodal* sn, const mjtNum* A, int ndof, int nnode, const int* start,
                     const int* size) {
  acs_snZero(sn);
  for (int a=0; a < nnode; a++) {
    for (int b=0; b <= a; b++) {
      for (int i=0; i < size[a]; i++) {
        for (int j=0; j < size[b]; j++) {
          mjtNum v = A[(start[a]+i)*ndof + start[b]+j];
          mjtNum* e = entry(sn, a, i, b, j);
          if (!e) {
            ENSURE(v == 0);   // an uncoupled pair's entries are zero
            continue;
          }
          *e = v;
          if (a == b) {
            *entry(sn, b, j, a, i) = v;
          }
        }
      }
    }
  }
}


// random SPD matrices with the structure of M + J' G J of bodies in contact: a random SPD block
// per node and a rank-2 PSD coupling per coupled pair; dofs with gaps between the nodes (the
// entries of x there untouched); the solve against the dense matrix: |A x - b| small relative
// to |A| |x| (Cholesky is backward stable: n eps |A| |x|; 1e-12 leaves a factor 100 at n = 90)
static void testRandom(void) {
  unsigned seed = 7;
  for (int trial=0; trial < 40; trial++) {
    int nnode = 1 + trial % 14, start[16], size[16], ndof = 0;
    for (int a=0; a < nnode; a++) {
      ndof += trial % 3 == 2;   // a gap
      start[a] = ndof;
      size[a] = 1 + (int)((randUniform(&seed) + 1) * 3.5);
      ndof += size[a];
    }
    ndof += 1;
    ENSURE(ndof <= kMaxDof);
    acsSupernodal sn;
    void* mem = makeFactor(&sn, 16, (size_t)ndof*ndof);
    static mjtNum A[kMaxDof*kMaxDof], L[kMaxDof*kMaxDof];
    mju_zero(A, ndof*ndof);
    for (int i=0; i < ndof; i++) {
      A[i*ndof + i] = 1;   // the gaps too, so the dense matrix is SPD
    }
    ENSURE(acs_snBegin(&sn, nnode, start, size) == 0);
    for (int a=0; a < nnode; a++) {
      for (int i=0; i < size[a]; i++) {
        for (int j=0; j < size[a]; j++) {
          mjtNum v = 0;
          for (int k=0; k < size[a]; k++) {   // B B' from a seeded B: the same B each time
            unsigned s1 = 1000*trial + 100*a + 10*i + k, s2 = 1000*trial + 100*a + 10*j + k;
            v += randUniform(&s1) * randUniform(&s2);
          }
          A[(start[a]+i)*ndof + start[a]+j] += v;
        }
      }
      for (int b=0; b < a; b++) {
        if (randUniform(&seed) > (trial % 2 ? 0.3 : -0.4)) {
          continue;
        }
        acs_snCouple(&sn, a, b);
        for (int r=0; r < 2; r++) {   // u u' over both nodes' dofs
          mjtNum u[kMaxDof] = {0};
          for (int i=0; i < size[a]; i++) u[start[a]+i] = randUniform(&seed);
          for (int j=0; j < size[b]; j++) u[start[b]+j] = randUniform(&seed);
          for (int i=0; i < ndof; i++) {
            for (int j=0; j < ndof; j++) {
              A[i*ndof + j] += u[i]*u[j];
            }
          }
        }
      }
    }
    ENSURE(acs_snAnalyze(&sn) == 0);
    addDense(&sn, A, ndof, nnode, start, size);
    ENSURE(acs_snFactor(&sn, 1e-14) == 0);

    mjtNum b[kMaxDof], x[kMaxDof], r[kMaxDof];
    for (int i=0; i < ndof; i++) {
      b[i] = randUniform(&seed);
    }
    mju_copy(x, b, ndof);
    acs_snSolve(&sn, x);
    // the gaps are not the factor's: x keeps b there; solve the dense system with them as 1 x = b
    mju_mulMatVec(r, A, x, ndof, ndof);
    mju_subFrom(r, b, ndof);
    mjtNum anorm = 0;
    for (int i=0; i < ndof*ndof; i++) {
      anorm = mju_max(anorm, mju_abs(A[i]));
    }
    ENSURE_LE(mju_norm(r, ndof), 1e-12 * ndof * anorm * mju_norm(x, ndof));

    // the same matrix factored dense: the same solution
    mju_copy(L, A, ndof*ndof);
    ENSURE(mju_cholFactor(L, ndof, 0) == ndof);
    mjtNum xd[kMaxDof];
    mju_cholSolve(xd, L, b, ndof);
    for (int i=0; i < ndof; i++) {
      ENSURE_NEAR(x[i], xd[i], 1e-10 * (1 + mju_abs(xd[i])));
    }
    free(mem);
  }
}


// minimum degree: a star (a hub, 9 leaves) and a chain factor without fill (the leaves and the
// chain's ends first: one block per node and one per edge; the hub first would join all the
// leaves); a cycle of 8 fills exactly 5 blocks (eliminating a node of a cycle joins its two
// neighbours, until 3 are left)
static void testOrder(void) {
  int start[10], size[10];
  for (int a=0; a < 10; a++) {
    start[a] = 6*a;
    size[a] = 6;
  }
  acsSupernodal sn;
  void* mem = makeFactor(&sn, 10, 10000);
  acs_snBegin(&sn, 10, start, size);
  for (int a=1; a < 10; a++) {
    acs_snCouple(&sn, 0, a);
  }
  ENSURE(acs_snAnalyze(&sn) == 0);
  ENSURE(sn.colstart[10] == 10 + 9);

  acs_snBegin(&sn, 10, start, size);
  for (int a=1; a < 10; a++) {
    acs_snCouple(&sn, a-1, a);
  }
  ENSURE(acs_snAnalyze(&sn) == 0);
  ENSURE(sn.colstart[10] == 10 + 9);

  acs_snBegin(&sn, 8, start, size);
  for (int a=0; a < 8; a++) {
    acs_snCouple(&sn, a, (a + 1) % 8);
  }
  ENSURE(acs_snAnalyze(&sn) == 0);
  ENSURE(sn.colstart[8] == 8 + 8 + 5);
  free(mem);
}


// refusals: more nodes than the capacity, a pattern over the value capacity, an uncoupled pair
// (no entry), a matrix that is not positive definite
static void testRefusals(void) {
  int start[3] = {0, 3, 6}, size[3] = {3, 3, 3};
  acsSupernodal sn;
  void* mem = makeFactor(&sn, 3, 9 + 9 + 9 + 9);   // the three nodes' blocks and one pair
  ENSURE(acs_snBegin(&sn, 4, start, size) == -1);
  ENSURE(acs_snBegin(&sn, 3, start, size) == 0);
  acs_snCouple(&sn, 0, 1);
  ENSURE(acs_snAnalyze(&sn) == 0);
  ENSURE(entry(&sn, 0, 0, 2, 0) == NULL);
  ENSURE(entry(&sn, 1, 2, 0, 1) == entry(&sn, 0, 1, 1, 2));
  acs_snCouple(&sn, 1, 2);   // one pair more: 45 values
  ENSURE(acs_snAnalyze(&sn) == -1);

  acs_snBegin(&sn, 3, start, size);
  acs_snCouple(&sn, 0, 1);
  acs_snAnalyze(&sn);
  acs_snZero(&sn);
  for (int a=0; a < 3; a++) {
    for (int i=0; i < 3; i++) {
      *entry(&sn, a, i, a, i) = a == 2 && i == 1 ? -1 : 1;
    }
  }
  ENSURE(acs_snFactor(&sn, 1e-14) == -1);
  free(mem);
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testRandom),
    TEST(testOrder),
    TEST(testRefusals),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
