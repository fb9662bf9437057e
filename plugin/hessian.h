// Copyright 2026 The acs authors.
//
// Matrices M + J' X J over a set of dofs, factored by the supernodal Cholesky (supernodal.c):
// the Newton Hessian M + J' G J of the compliant solvers (G the blocks' potential Hessians) and
// ADMM's M + J' D (D R D + sigma)^-1 D J, whose factor gives its x-update on a large island by
// Woodbury's identity. The nodes are the ranges of dofs that no coupling block's pattern splits
// (a free body's six dofs, a piece of a limb), coupled along M's pattern and by the blocks.

#ifndef ACS_PLUGIN_HESSIAN_H_
#define ACS_PLUGIN_HESSIAN_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "supernodal.h"
#include "util_errmem.h"

typedef struct acsHessian_ {
  acsSupernodal sn;               // the factor
  int*    node;                   // dof -> its node, -1 outside the set        (nv)
  int*    nstart;                 // first dof of each node                     (nv)
  int*    nsize;                  // dofs of each node                          (nv)
  int*    mark;                   // stamps: the ancestors of a dof             (nv)
  int     stamp;                  // the last stamp
  int     ndof;                   // dofs in the nodes
} acsHessian;

// carve the workspace for problem p: a factor of at most nv nodes and nv^2 values up to
// kHessianDense dofs, kHessianDense^2 + 128 nv beyond
void acs_hessianLayout(acsHessian* h, acsArena* arena, const acsProblem* p);

// each block's rows over its shared column pattern, transposed: Jt at Jtadr[k] holds block k's
// np x dim values, a dof's entries together (Jt: p->nnzJ, Jtadr: nblock)
void acs_blockTransposes(mjtNum* Jt, int* Jtadr, const acsProblem* p);

// inset[i] = 1 for the dofs of the trees that the blocks k with couple[k] touch, 0 for the others
// (a tree's root dof is the first of its row in M's layout: the tree is the dofs with that root)
void acs_hessianTrees(int* inset, const acsProblem* p, const int* couple);

// the nodes over the dofs i with inset[i] (whole trees: a dof's ancestors are in the set with
// it), coupled along M's pattern and by the blocks k with couple[k] (their dofs in the set),
// and the factor's order and pattern. Return -1 if the factor needs more than its workspace
int acs_hessianAnalyze(acsHessian* h, const acsProblem* p, const int* inset, const int* couple);

// the matrix set to zero
void acs_hessianZero(acsHessian* h);

// add values in M's layout (M, or a matrix of its pattern) on the rows of the set's dofs
void acs_hessianAddM(acsHessian* h, const acsProblem* p, const mjtNum* val);

// add block k's J' X J from its transposed rows Jt and JtX = J' X (np x dim each, as
// acs_blockTransposes lays them out); inpattern 0: leave out the pairs of M's pattern (a dof and
// its ancestors), given with acs_hessianAddM. Block k must be coupled, or lie in one node
void acs_hessianAddBlock(acsHessian* h, const acsProblem* p, int k, const mjtNum* Jt,
                         const mjtNum* JtX, int inpattern);

// factor the matrix; return -1 if it is not numerically positive definite
int acs_hessianFactor(acsHessian* h);

// x <- H^-1 x on the set's dofs (x: nv; the other entries neither read nor written)
void acs_hessianSolve(const acsHessian* h, mjtNum* x);

#endif  // ACS_PLUGIN_HESSIAN_H_
