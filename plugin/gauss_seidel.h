// Copyright 2026 The acs authors.
//
// The projected block Gauss-Seidel driver of the pgs family and raisim (gauss_seidel.c), with its
// subspace minimization: a Newton step on the rows whose constraints hold with equality.

#ifndef ACS_PLUGIN_GAUSS_SEIDEL_H_
#define ACS_PLUGIN_GAUSS_SEIDEL_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "solver_util.h"

// the update of a contact block with friction in a Gauss-Seidel sweep: the force f of block k
// (dim rows) from its velocity a (dim, the block's own force included), relaxed by relax; arg:
// the solver's own data
typedef void (*acsfContactUpdate)(mjtNum* f, const mjtNum* a, const acsBlocks* b,
                                  const acsProblem* p, int k, mjtNum relax, void* arg);

typedef struct acsSweep_ {        // workspace of the Gauss-Seidel driver
  mjtNum* w;                      // M^-1 J' f                                   (nv)
  mjtNum* a;                      // G f + b                                     (nefc)
  mjtNum* fprev;                  // force before the sweep                      (nefc)
  acsBlocks blocks;               // diagonal blocks and their inverses

  // subspace minimization
  unsigned char* active;          // block's rows free in the subspace step     (nblock)
  unsigned char* active_prev;     // the same after the previous sweep           (nblock)
  int*     rows;                  // free rows, island by island                 (nefc)
  int*     island_start;          // first entry of island i in rows             (nisland + 1)
  int*     island_Hadr;           // island's address in H; -1: too large        (nisland)
  mjtNum*  H;                     // dense G_FF of each island (factorized)      (sum n_i^2)
  mjtNum*  dx;                    // the step                                    (nefc)
  unsigned char* dropped;         // row dropped by the factorization (dependent) (nefc)
  mjtNum*  fsave;                 // force, w and a before the step              (nefc)
  mjtNum*  wsave;                 //                                             (nv)
  mjtNum*  asave;                 //                                             (nefc)
} acsSweep;

// carve the driver's workspace (count only when arena->base is NULL)
void acs_sweepLayout(acsSweep* gs, acsArena* arena, const acsProblem* p);

// Projected block Gauss-Seidel (pgs family, raisim): from the start of a dual solve
// (acs_startForces), sweeps over the blocks in order, each block solved against the others'
// current forces: equalities, friction loss, limits and frictionless contacts by
// acs_updateSimpleBlock, contacts with friction by update; after each sweep the NCP residual and
// the residual of the law model end the iterations (acs_iterationEnd). The relaxation starts at
// relax and moves each sweep as relax <- gamma relax + (1 - gamma) relax_min (gamma = 1: fixed).
//
// With s->subspace and the NCP (pgs, raisim; the relaxed laws' own iterations are left as the
// paper has them), a sweep that leaves the active set as the previous one did is followed by a
// subspace minimization step (Silcowitz, Niebe and Erleben, "Projected Gauss-Seidel subspace
// minimization", 2009): the rows whose constraint holds with equality (equalities, limits and
// condim-1 contacts pushing, friction loss inside its bound, contacts sticking strictly inside
// the law's cone) take the Newton step that makes their velocity zero, the other rows held, island
// by island (islands of at most 128 rows); the step is kept if it lowers the law's residual.
// Gauss-Seidel converges linearly, slowly on hyperstatic sets (a body resting on more contacts
// than it has degrees of freedom); the step ends such a solve once the sweeps have found which
// contacts stick. stats->nfactor counts the steps taken.
//
// The blocks of gs must be computed (acs_blocksCompute). Return an acstStatus.
int acs_gaussSeidel(mjtNum* force, acsStats* stats, acsSweep* gs, const acsProblem* p,
                    const acsSettings* s, int model, mjtNum relax, mjtNum relax_min,
                    mjtNum gamma, acsfContactUpdate update, void* arg);

#endif  // ACS_PLUGIN_GAUSS_SEIDEL_H_
