// Copyright 2026 The acs authors.
//
// A supernodal sparse Cholesky factor L L' of a symmetric positive definite matrix whose dofs
// come in nodes (supernodes), contiguous ranges of dofs (a body's dofs, a piece of a tree's
// chain) stored dense, sparse between the nodes: the Hessian M + J' G J of a pile of bodies. The
// blocks of a node and of each pair of coupled nodes are stored dense, in a fill-reducing order
// of the nodes (minimum degree weighted by the nodes' dofs), so a wall of boxes costs about its
// number of boxes where a dense factor costs its cube.
//
// Use: acs_snLayout (workspace), acs_snBegin with the nodes, acs_snCouple for each coupled pair,
// acs_snAnalyze (the order and the blocks' pattern); then for each matrix of that pattern
// acs_snZero, acs_snBlock to add its entries, acs_snFactor, and acs_snSolve for each right-hand
// side.

#ifndef ACS_PLUGIN_SUPERNODAL_H_
#define ACS_PLUGIN_SUPERNODAL_H_

#include <stddef.h>
#include <stdint.h>

#include <mujoco/mujoco.h>
#include "util_errmem.h"

typedef struct acsSupernodal_ {
  int      maxnode;               // capacity: nodes
  size_t   maxval;                // capacity: values of the blocks (and blocks)
  int      nnode;                 // nodes of the present pattern
  int      words;                 // 64-bit words of an adjacency row
  int*     start;                 // first dof of node                          (maxnode)
  int*     size;                  // dofs of node                               (maxnode)
  int*     pos;                   // place of node in the order                 (maxnode)
  int*     order;                 // node at each place                         (maxnode)
  int*     colstart;              // column q's blocks: [colstart[q], colstart[q+1]) (maxnode+1)
  int*     blkrow;                // the block's row node (the column's own node first) (maxval)
  size_t*  blkadr;                // address of the block's values in val       (maxval)
  mjtNum*  val;                   // column q: its node's block (square, row-major: its lower
                                  //   triangle is read), then a block of size[row] x size[node]
                                  //   per row node                              (maxval)
  uint64_t* adj;                  // analysis: adjacency bit rows               (maxnode x words)
  int*     deg;                   // analysis: dofs of the uneliminated neighbours (maxnode)
  int*     map;                   // factor: a column's blocks by row node      (maxnode)
  int*     index;                 // up to 64 nodes: the block of (column node, row node), -1
                                  //   for none                                  (64 x 64)
  int      cache[3];              // above: acs_snBlock's last pair of nodes and its block
} acsSupernodal;

// carve the workspace of a factor of at most maxnode nodes and maxval values (and blocks)
void acs_snLayout(acsSupernodal* sn, acsArena* arena, int maxnode, size_t maxval);

// start a pattern of nnode nodes: node a holds the dofs [start[a], start[a] + size[a]) of the
// vectors given to acs_snSolve; no pair coupled yet. Return -1 if nnode > maxnode
int acs_snBegin(acsSupernodal* sn, int nnode, const int* start, const int* size);

// nodes a and b are coupled (a != b; a pair may be given more than once)
void acs_snCouple(acsSupernodal* sn, int a, int b);

// the order and the blocks, fill included. Return -1 if they need more than maxval values
int acs_snAnalyze(acsSupernodal* sn);

// number of values of the present pattern (the first entries of val)
size_t acs_snValues(const acsSupernodal* sn);

// values of the pattern set to zero
void acs_snZero(acsSupernodal* sn);

// the stored block of nodes a and b (coupled, or a == b): entry (i, j) for local dof i of a and
// local dof j of b is blk[i*si + j*sj]; within a node, the factor reads its lower triangle
// (i >= j), between two coupled nodes one entry stands for both (i, j) and (j, i). NULL if a and
// b were not coupled
mjtNum* acs_snBlock(int* si, int* sj, acsSupernodal* sn, int a, int b);

// factor in place, L L' (a node's diagonal entries of L stored as their inverses). Return -1 if
// the matrix is not numerically positive definite (a pivot at or below mindiag times the largest
// diagonal entry of its node's block)
int acs_snFactor(acsSupernodal* sn, mjtNum mindiag);

// x <- (L L')^-1 x on the nodes' dofs (the other entries of x are neither read nor written)
void acs_snSolve(const acsSupernodal* sn, mjtNum* x);

#endif  // ACS_PLUGIN_SUPERNODAL_H_
