// Copyright 2026 The acs authors.
//
// The projected block Gauss-Seidel driver of the pgs family and raisim (gauss_seidel.c), with its
// subspace minimization: a Newton step on the rows whose constraints hold with equality.

#ifndef ACS_PLUGIN_GAUSS_SEIDEL_H_
#define ACS_PLUGIN_GAUSS_SEIDEL_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "operator.h"
#include "solver_util.h"

// the update of a contact block with friction in a Gauss-Seidel sweep: the force f of block k
// (dim rows) from its velocity a (dim, the block's own force included), relaxed by relax; arg:
// the solver's own data
typedef void (*acsfContactUpdate)(mjtNum* f, const mjtNum* a, const acsBlocks* b,
                                  const acsProblem* p, int k, mjtNum relax, void* arg);

typedef struct acsIslandState_ { // an island's forces, velocities, w and active set, saved
  mjtNum*  f;                     //                                             (nefc)
  mjtNum*  a;                     //                                             (nefc)
  mjtNum*  w;                     //                                             (nv)
  unsigned char* active;          //                                             (nblock)
} acsIslandState;

typedef struct acsStepTerm_ {     // a column or row of the subspace step's matrix in G's
  int    n;                       //   terms
  int    idx[6];                  //   G's columns (rows) on the step's rows
  mjtNum w[6];                    //   their weights
  mjtNum scale;                   //   column: the sum's factor; row: the diagonal's term
} acsStepTerm;

typedef struct acsSweep_ {        // workspace of the Gauss-Seidel driver
  mjtNum* w;                      // Y' f, or B' f (factor space)                (nv)
  mjtNum* a;                      // G f + b                                     (nefc)
  mjtNum* fprev;                  // force before the sweep                      (nefc)
  acsBlocks blocks;               // diagonal blocks and their inverses

  int*     partner;               // a limit and a friction loss on one row of J  (nblock)
                                  //   (a joint's dof, a tendon): each other's block,
                                  //   -1 none
  mjtNum*  pratio;                // a paired limit: its row over its friction   (nblock)
                                  //   loss's (+-1)
  int*     pscratch;              // pairing scratch                    (nv + nblock)

  int*     island_block;          // blocks by island                            (nblock)
  int*     island_start;          // first entry of island i in island_block     (nisland + 1)

  // subspace minimization (one island at a time)
  unsigned char* active;          // 0 held, 1 sticking, 2 sliding contact       (nblock)
  unsigned char* blocked;         // the blocks that cut a step short: 1 a       (nblock)
                                  //   contact at its cone's edge, 2 another bound
  int*     rows;                  // the unknowns' rows, then the sliding
                                  //   contacts' tangential rows                  (nefc)
  mjtNum*  H;                     // G on those rows; the step's matrix  (2 x largest n_i^2)
  mjtNum*  dx;                    // the step per unknown                        (nefc)
  mjtNum*  rhs;                   // its right side (sliding contacts)           (nefc)
  mjtNum*  df;                    // the step per row (a sliding contact with
                                  //   angles: normal force, its angles)          (nefc)
  int*     slot_t;                // sliding unknown: its tangential rows' place
                                  //   in rows; -1 otherwise                      (nefc)
  int*     slot_n;                // sliding unknown: its tangential rows        (nefc)
  mjtNum*  slot_c;                // sliding contact's rows: f_j = c_j f_n, by row (nefc)
  int*     slot_k;                // sliding unknown: its block                  (nefc)
  int      angles;                // the step in progress solves the sliding
                                  //   contacts' friction angles (directions)
  int      moved;                 // the step in progress's moves along null vectors
  int      rejoined;              // its held contacts that joined the set again
  int*     piv;                   // the angles' contacts, the unknowns' order
                                  //   (sticking, then the others), elimination
                                  //   scratch                                    (4 nefc)
  mjtNum*  sv;                    // the Schur complement's vectors              (5 nefc)
  mjtNum*  Gi;                    // G on every row of the island, formed at its
                                  //   first subspace step       (largest n_i^2)
  int*     gpos;                  // a row's place in Gi                         (nefc)
  int*     grow;                  // Gi's rows                                   (nefc)
  int      gn;                    // Gi's order (the island's rows), 0: not formed,
                                  //   -1: not kept (acs_subspaceStep)
  acsStepTerm* tcol;              // the step's unknowns as columns of G, by
                                  //   unknown (the non-sticking ones)  (up to 128)
  acsStepTerm* trow;              // their equations as rows of G       (up to 128)
  acsIslandState before;          // the island before the step
  mjtNum*  scratch;               //                                             (nv)
  acsColumns cols;                // G's assembly by the columns of B
} acsSweep;

// an island's G + R, dense (ADMM's), from which the subspace step reads its matrix in place of
// forming it from J and Y: rows r, s give g[pos[r]*n + pos[s]]
typedef struct acsDenseG_ {
  const mjtNum* g;
  const int*    pos;              // a row's place in g                          (nefc)
  int           n;                // g's order
} acsDenseG;

// does force f of block k hold its constraint with equality (its rows free in the subspace step):
// 1 an equality, a limit or condim-1 contact pushing, friction loss inside its bound, a contact
// sticking strictly inside the law's cone; 2 a contact sliding on the NCP's cone's edge (with
// friction, condim 3 or more); 0 otherwise
int acs_blockActive(const mjtNum* f, const acsProblem* p, int k, int model);

// islands of more rows than this take no subspace step (its dense factorization costs n^3 / 6)
#define acsSUBSPACE_ROWS 128

// carve the driver's workspace (count only when arena->base is NULL)
void acs_sweepLayout(acsSweep* gs, acsArena* arena, const acsProblem* p);

// the subspace step (a Newton step on the rows whose constraints hold with equality, taken as far
// as they stay feasible) on one island under the NCP law, from its forces force (w = Y' f on its
// dofs, B' f in factor space): kept if it halves the island's NCP residual. Its residuals before,
// or after when kept, in ncp (NCP) and res (the same under this law); return 1 if kept, 0 if not,
// -1 if not tried (an island above acsSUBSPACE_ROWS rows). Sliding contacts' friction angles
// (condim 3: one; 4 and 6: the direction's coordinates on the unit sphere, 2 and 4) are unknowns
// too (maximal dissipation). dense (Nullable): the island's matrix to read; tol: the
// solver's tolerance (a full step above it on dependent rows moves the forces along their null
// vector)
int acs_subspaceStep(mjtNum* force, mjtNum* ncp, mjtNum* res, acsSweep* gs, const mjtNum* w,
                     const acsProblem* p, const int* blocks, int nblock, int nrow,
                     const acsDenseG* dense, mjtNum tol);

// Projected block Gauss-Seidel (pgs family, raisim): from the start of a dual solve
// (acs_startForces), island by island (blocks coupled through shared kinematic trees; G is
// block-diagonal over islands), sweeps over the island's blocks in order, each block solved
// against the others' current forces: equalities, friction loss, limits and frictionless contacts
// by acs_updateSimpleBlock, contacts with friction by update; a limit and a friction loss on the
// same row of the operator (B, else J; up to its sign) as one block, exactly (their rows make G
// singular, and one at a time they converge only by the limit's stabilization a sweep). After
// each sweep the island's NCP residual and the residual of the law model end its iterations:
// converged at the tolerance, stalled when its largest force change is at most rel_tolerance
// times its largest force, diverged when not finite, or at maxiter sweeps. An island that
// converges stops; the others do not sweep it again. The relaxation starts at relax and moves each sweep as
// relax <- gamma relax + (1 - gamma) relax_min (gamma = 1: fixed). The step's status is the worst
// of the islands' (diverged, maxiter, stalled, converged), its iterations the most sweeps an island
// took, its history the largest residual over the islands after each sweep.
//
// With s->subspace (1: pgs, 2: pgs and raisim; the relaxed laws' own iterations are left as the
// paper has them), a sweep that leaves an island's active set as the previous one did is followed
// by a subspace minimization step (Silcowitz, Niebe and Erleben, "Projected Gauss-Seidel subspace
// minimization", 2009): the rows whose constraint holds with equality (equalities, limits and
// condim-1 contacts pushing, friction loss inside its bound, contacts sticking strictly inside
// the law's cone; sliding contacts with their normal force as the unknown, the friction along its
// present direction, and zero normal velocity as the equation; with the NCP's angles (pgs, admm's
// polishing, raisim with acs_raisim_desaxce) their friction's direction too, its angles as unknowns
// and the maximal dissipation as their equations) take the Newton step that makes their velocity
// zero, the other rows held (islands of at most 128 rows), as far as the active blocks stay
// feasible; the blocks that cut it short change sides and it goes on (up to 8 active sets). Rows
// that depend on the rows before them (a hyperstatic set) are dropped from the step; where one
// leaves a loaded contact moving apart, the forces move along a null vector until a contact lets go
// (pgs). The step is kept if it halves the island's residual. Gauss-Seidel converges linearly,
// slowly on hyperstatic sets (a body resting on more contacts than it has degrees of freedom); the
// step ends such a solve once the sweeps have found which contacts stick. stats->nfactor counts the
// steps tried. pgs starts an island again from zero forces (once) where its residual stalls over
// 30 sweeps with no subspace step kept: a warm start can hold it in a basin it does not leave.
//
// The blocks of gs must be computed (acs_blocksCompute). Return an acstStatus.
int acs_gaussSeidel(mjtNum* force, acsStats* stats, acsSweep* gs, const acsProblem* p,
                    const acsSettings* s, int model, mjtNum relax, mjtNum relax_min,
                    mjtNum gamma, acsfContactUpdate update, void* arg);

// tests: 0 turns pgs's restart from zero forces off (default 1)
extern int acs_testGaussSeidelRestart;

#endif  // ACS_PLUGIN_GAUSS_SEIDEL_H_
