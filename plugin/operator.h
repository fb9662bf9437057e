// Copyright 2026 The acs authors.
//
// Products with G = J M^-1 J' + diag(R) through the sparse rows of B (G = B B') or of J and Y,
// and the checks of a problem's form (acs_checkProblem in acs.h, and what a solver needs beyond
// it).

#ifndef ACS_PLUGIN_OPERATOR_H_
#define ACS_PLUGIN_OPERATOR_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "util_errmem.h"

// Check what a solver needs beyond acs_checkProblem: Y or B (dual solvers, primal = 0), or the mass
// matrix in MuJoCo's sparse layout and vel, vfree, pos (lagged, similar: primal = 1).
// Return 0, or -1 with a message.
int acs_checkProblemFor(const acsProblem* p, int primal, char* error, int error_sz);


//---------------------------------- Delassus operations -------------------------------------------

// G = L R' + diag(R) by sparse rows: the left factor L is B if the problem has it, else J; the
// right one is B, else Y. Row r of either: its entries in *col, *val, their count returned
static inline int acs_rowL(const int** col, const mjtNum** val, const acsProblem* p, int r) {
  if (p->B) {
    *col = p->B_colind + p->B_rowadr[r];
    *val = p->B + p->B_rowadr[r];
    return p->B_rownnz[r];
  }
  *col = p->J_colind + p->J_rowadr[r];
  *val = p->J + p->J_rowadr[r];
  return p->J_rownnz[r];
}

static inline int acs_rowR(const int** col, const mjtNum** val, const acsProblem* p, int r) {
  if (p->B) {
    *col = p->B_colind + p->B_rowadr[r];
    *val = p->B + p->B_rowadr[r];
    return p->B_rownnz[r];
  }
  *col = p->Y_colind + p->Y_rowadr[r];
  *val = p->Y + p->Y_rowadr[r];
  return p->Y_rownnz[r];
}


// sparse dot product of row i of the left factor with row j of the right one (both column-sorted):
// G_ij without R
mjtNum acs_delassus(const acsProblem* p, int i, int j);

// dense diagonal block of block k: G_kk + diag(R) (dim x dim, row-major)
void acs_blockDelassus(mjtNum* G, const acsProblem* p, int k);

// dense G_FF + diag(R_F) of the rows rows[0..n) (n x n, row-major), scaled D (G_FF + R_F) D by
// the row scales d (nefc; NULL: none): each right row scattered into scratch (nv, left zero) and
// dotted with the left rows, faster than n^2 / 2 sparse merges
void acs_delassusRows(mjtNum* H, const acsProblem* p, const int* rows, int n, const mjtNum* d,
                      mjtNum* scratch);

// the workspace of acs_delassusColumns and acs_projectRange
typedef struct acsColumns_ {
  int*    count;                  // entries per column, zero between calls          (nv)
  int*    touched;                // the columns the rows touch                      (nv)
  int*    next;                   // a touched column's next entry, or its place     (nv)
  int*    row;                    // an entry's place in the row list                (nnzB)
  mjtNum* val;                    // its value                                       (nnzB)
  mjtNum* dense;                  // the rows' entries in dense columns; acs_projectRange's
                                  //   A, A'A and A'y                                (ndense)
  int     ndense;                 // its size: nv (min(nefc, 256) + nv + 1), at most 16384
  int     ready;                  // count is zero (set 0 with the arrays)
} acsColumns;

// carve the workspace of acs_delassusColumns for problem p
void acs_columnsLayout(acsColumns* w, acsArena* arena, const acsProblem* p);

// the H of acs_delassusRows, by the columns of B where that takes less work (rows on few shared
// dofs and many of their own: a hand's joints): H = the sum over the columns c of b_c b_c' (b_c
// the rows' entries in column c), each entry's products summed in the order of the columns, as
// acs_delassusRows sums them: the same H to the bit. Where the rows fill most of the columns they
// touch (a gripper's contacts on one arm), the columns are written out dense (zeros included,
// which change no sum) and H is their product four columns at a time. rows: distinct (their
// entries fill at most nnzB). Return 2 if by dense columns, 1 if by sparse columns, 0 if by rows
// (no B, more than 256 rows, or less work)
int acs_delassusColumns(mjtNum* H, const acsProblem* p, const int* rows, int n, const mjtNum* d,
                        mjtNum* scratch, acsColumns* w);

// y (n) <- its orthogonal projection onto the range of the rows' Delassus matrix G_AA (rows
// scaled by d, NULL: none): y with its component along G_AA's null space (combinations of the
// rows no force changes) removed. With A the rows of J scaled by d, G_AA = A M^-1 A' has A's
// range (M positive definite), and the projection A (A'A)^+ A' y is formed on the nt dofs the
// rows touch (K = A'A and A'y dense in w's workspace, A too where that is less work), not on the
// rows. A dof whose pivot in the factor of K (acs_denseFactor) is at most pivot times its
// diagonal depends on those before it (u = K^+ g: the kept dofs' solution, the others 0, which
// gives the same A u): near-dependence is judged in J's metric, not G's (consistent stabilization keeps its
// projection on the rows of G: formed so on the dofs, with B's columns, pgs took 2.13 sweeps a
// step on the lying humanoid against 1.77, and 32 steps at the limit against 25, in 12 runs).
// Return 1 if projected, 0 if the rows are independent (rank n: y is in the range, and left as
// it is), -1 if the dofs do not fit ((nt + 1) nt above ndense: y left as it is)
int acs_projectRange(mjtNum* y, const acsProblem* p, const int* rows, int n, const mjtNum* d,
                     mjtNum pivot, acsColumns* w);

// whether acs_projectRange fits these rows, and any subset of them, in w's workspace
int acs_projectFits(const acsProblem* p, const int* rows, int n, acsColumns* w);

// tests: acs_projectRange forms A'A 1 entry by entry, 2 from A written out dense (0: as chosen)
extern int acs_testProjectRange;

// tests: acs_delassusColumns forms H by columns whenever it can (B, at most 256 rows): 1 by sparse
// columns, 2 by dense columns (where they fit)
extern int acs_testDelassusColumns;

// w = Y' f (nv; B' f when the problem has B: w then lives in factor space)
void acs_mulYT(mjtNum* w, const acsProblem* p, const mjtNum* f);

// do the rows of block k share one column pattern of B (the assembly's blocks do: a contact's
// rows act on its two bodies' chains): the block operations below may then read it once
int acs_sharedPattern(const acsProblem* p, int k);

// w += Y_r' df over the rows of block k (B_r' df); shared: acs_sharedPattern(p, k), read once
void acs_addYTBlock(mjtNum* w, const acsProblem* p, int k, const mjtNum* df, int shared);

// a = J w + b + R f over all rows (a: nefc; B w with B)
void acs_velocity(mjtNum* a, const acsProblem* p, const mjtNum* w, const mjtNum* f);

// a = J w + b + R f over the rows of block k (a: dim); shared: acs_sharedPattern(p, k), read
// once (the same sums, in the same order)
void acs_velocityBlock(mjtNum* a, const acsProblem* p, int k, const mjtNum* w, const mjtNum* f,
                       int shared);

#endif  // ACS_PLUGIN_OPERATOR_H_
