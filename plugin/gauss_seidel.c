// Copyright 2026 The acs authors.
//
// The projected block Gauss-Seidel driver (pgs family, raisim) and its subspace minimization, run
// island by island: an island (blocks coupled through shared kinematic trees) is swept until it
// converges, and its neighbours' convergence does not wait on it.

#include "gauss_seidel.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "dense.h"
#include "operator.h"
#include "residual.h"
#include "solver_util.h"
#include "util_errmem.h"

// smallest pivot of the subspace step's factorization, relative to the row's own diagonal (the
// squared sine of the angle between the row and the span of the rows before it): a hyperstatic set
// (more sticking rows than the bodies have degrees of freedom) makes G_FF singular or nearly so; a
// row whose pivot falls below this depends on the rows before it and takes no step. A clamped
// pivot turns the velocity left in such a row into forces of 1e3 times the weight (seen on the
// lying humanoid); measured there (steps 300 to 1300), 1e-6 to 1e-8 converge alike
#define kSubspacePivot 1e-7

// the same for the elimination with sliding contacts (a pivot against its column's largest
// entry: the square root of kSubspacePivot, which compares squared quantities)
#define kSubspaceLU 3e-4

// ... but a sliding contact's friction angle keeps a pivot of at least this share of its equation's
// own term, the slip's speed along the friction (u' (mu o a_t), stepTerms), and above kAngleFloor
// times its column's largest entry (the complement's rounding: it is formed through the sticking
// rows' factor, whose pivots go down to kSubspacePivot, 1e-16 / 1e-7). Along the internal forces of
// a hyperstatic set (two contacts of one body pair pulling apart along the line between them) the
// rows' G terms cancel and that term is the whole pivot: a genuine quantity, however small against
// the column's G terms (the Shadow hand's block spinning on two close contacts: |mu o a_t| of
// 3.6e-4, below kSubspaceLU times its column's largest entry), which the relative test dropped,
// leaving the internal force where the sweeps put it and a friction on its slip's wrong side (pgs:
// residual 1.5e-5 after 10000 sweeps, where admm reaches 4e-7 in 64 iterations). Measured alone
// (perturbed runs by 1e-3, 300 steps after 100, kAngleFloor 1e-12): pgs's converged steps on the
// Shadow hand 92.0% -> 98.8% (32 runs), the dog 88.7% -> 89.7% (16), the squat 97.5% -> 97.1% (8),
// 22_humanoids 93.8% -> 93.1% (4); admm's dog 84.7% -> 88.9%, squat 97.8% -> 98.2%, the lying
// humanoid 1.38 -> 1.22 iterations a step. With kAngleSteps 6 and kAngleFloor 1e-9: the README's
// Results
#define kAngleOwn 0.25
#define kAngleFloor 1e-9

// a subspace step is kept if it divides the island's residual by at least this much: a step cut
// short by the cone (the active set is not the solution's) or one that moves the held rows gains
// little, and such gains, kept, cost a factorization each and steer the sweeps no better (the
// Shadow hand with its block: raisim converged on 0% of the steps, against 47% without the step)
#define kSubspaceGain 0.5

// subspace steps tried at most per island and solve: the steps that fail, on transients whose
// active set keeps changing, cost a factorization each (dm_control's dog: 9 per step, +30% of the
// step). Measured (300 steps, one run each): 22_humanoids 2.54x mj_step and 69% of the steps
// converged without a cap, 2.48x and 58% with 8, 2.68x and 51% with 4; the dog 3.92x and 19%,
// 3.46x and 18%, 3.34x and 15%
#define kSubspaceTries 8

// sweeps between the first two subspace steps on an unchanged active set; the gap doubles after
// each step that leaves the residual above the tolerance (a step costs a few sweeps: on a
// hyperstatic set whose stabilization asks more than the rows' span holds, steps and sweeps can
// take turns without converging)
#define kSubspaceGap 2

// Newton steps at most of a subspace step that solves sliding contacts' friction angles (the matrix
// formed once): a step from 15 degrees off leaves a second-order normal velocity. The steps go on
// while the residual falls: testSpinningPair's box from an internal friction pair takes 7 sweeps
// to 1e-11 with 6, 15 with 3; before stepTerms took the turning term's sign at the dissipation's
// root, its start from zero forces passed 0.037, 13, 0.34 and 0.012 on a first subspace step, and
// with 3 the pass ended at 0.012, a null vector's move (meant for a step that no longer gains) let
// a contact go, and pgs stopped at 100 sweeps at 1.1e-2. Measured with kAngleOwn (kAngleFloor
// 1e-12, the exact turning term; perturbed runs as there), 3 -> 6 steps: pgs's converged steps on
// the dog 89.7% -> 88.3%, 90.3% -> 90.0% and 85.1% -> 90.4% (1e-3, 1e-4, 1e-2), the Shadow hand
// 98.8% -> 99.8%, the squat 97.1% -> 97.9%; admm's dog 88.9% -> 90.5%, squat 98.2% -> 98.8%
#define kAngleSteps 6

// the largest turn (rad) of a friction's direction in one Newton step: a step that turns one more
// is scaled down as a whole to turn it this much (a damped Newton step). Where a friction lies
// across its slip the angle equation's turning term vanishes and the step grows as the slip
// shrinks: on the Shadow hand's grasp (seven condim-4 contacts, slips of 1e-4) the second Newton
// step of a pass took the residual from 1.3e-3 to 0.3 (and from 2.4e-4 to 0.9 on the next try), and
// pgs stopped at the limit on 208 of the 300 steps of acs-bench's third draw at --perturb 1e-4 (1
// of 300 with the cap). Measured (perturbed runs, 300 steps after 100; 1 rad against none): pgs's
// converged steps on the Shadow hand 99.97% -> 99.95% (32 runs), the dog 93.3% -> 91.9% (16;
// acs-bench's four draws at 1e-4: 92.7% -> 92.0%), 22_humanoids 94.3% -> 94.7% (4); 0.5 rad: the
// dog 91.5% (90.6%), 22_humanoids 95.1%
#define kAngleTurn 1.0

// pgs starts an island again from zero forces, once an island and solve, where its residual
// stayed above kRestartGain times its value kRestartWindow sweeps before (a multiple of 5: the
// sweeps measured) with no subspace step kept in between, stands above kRestartAbove times the
// tolerance, and kRestartWindow sweeps of the budget are left; on islands the subspace step takes
// (up to 128 rows), not after a sweep that moved no force. A warm start can hold the sweeps and
// the subspace steps in a basin they do not leave: dm_control's dog, whose toe capsules touch the
// floor at two contacts with the same tangent row, one contact sliding on its cone's far side or
// loaded where the solution lets it go: from the warm start pgs stood at 5e-3 after 10000 sweeps,
// from zero forces it converged in 10 (testRestartFromZero: another such step, 2.2e-2 after 100
// sweeps, converged in 55 with the restart). Measured (perturbed runs, 300 steps after 100,
// converged steps): the dog 91.4% -> 93.9% (64 runs at 1e-3), 90.8% -> 93.7% (48 at 1e-4), 88.1%
// -> 90.7% (48 at 1e-2), 15.7 -> 13.5 sweeps a step at 1e-3; 22_humanoids 94.7% -> 95.3%, the
// squat 98.1% -> 98.2%, the lying humanoid 99.8% -> 99.95%, the Shadow hand 99.95% and 99.88% ->
// 99.95% and 99.92% (1e-3, 1e-4); the 1000:1 stack (48 runs of 1000 steps) 65 -> 86 steps at the
// limit, the 1e6 stack (1000 steps) 100 -> 2 at the limit but its heavy box 2.0e-5 -> 2.7e-5 m
// (another trajectory: one step there ends at 8.6e4, with no restart in it). Most of the dog's
// gain is in the trajectories (each step's problem solved both ways from its warm start along
// runs without the restart: 93.8% -> 94.2%): a restarted step leaves the next step's warm start
// out of the basin. Without the condition on the subspace steps the hand lost (99.4% at both),
// with a gain of 0.5 the dog kept 91.9% (0.7: 94.1%, as 0.9 within the runs' spread), and a
// restart at a fixed sweep, whatever the progress, lost the steps converging slowly (at the 20th:
// 91.9% -> 85.7%). Keeping the stalled iterate where the restart ends above its residual lost
// the dog's gain (91.8%: the next step's warm start is the stalled one again). The floor
// kRestartAbove keeps a solve to a tolerance below its rounding floor from trading its iterate
// for a new start
#define kRestartWindow 30
#define kRestartGain 0.9
#define kRestartAbove 100

// active sets a subspace step passes through at most: a step cut short by a bound moves the
// blocks that stopped it to the other side and goes on. pgs's converged steps (perturbed runs)
// with 3, 8 and 16: 22_humanoids 78%, 84%, 84%; the lying humanoid 85%, 94%, 91% (32 runs)
#define kActivePasses 8

// a loaded contact left moving by a full subspace step (in a row that depends on the others') is
// answered by a move along a null vector, and a held contact left penetrating joins again, if its
// velocity exceeds this much of the island's largest unconstrained velocity (b): far above the
// step's rounding (1e-15 relative), far below the inconsistencies of hyperstatic sets'
// stabilization (the lying humanoid: 2.3e-7 m/s^2 against b of 10; a 1000:1 stack: 4.9e-6).
// With none and a move on every pass, a solve to a zero tolerance moved on rounding-level
// velocities: the 1000:1 stack's step from zero forces ended at 7e2 after 200 sweeps, where it
// reaches 2e-12 (testZeroTolerance)
#define kNullFloor 1e-10

// ... and if a null vector moves its force by at least this share of the vector's norm: one that
// barely touches it (0.008 and 0.0004 of the norm, seen in a falling humanoid's transient from
// zero forces) moves the other forces by thousands of times the contact's and left that solve at
// 2e-2 after 200 sweeps (with no floor either, 1.9: testZeroTolerance); the moves that let go in
// hyperstatic sets had 0.13 to 0.5
#define kNullMove 0.05

// moves along a null vector at most per subspace step, and one more for each held contact that
// joined the set again: on the Shadow hand's grasp, where the rows of the fingers' condim-4
// contacts depend on each other on most steps, a move on every pass took pgs's steps from 104 to
// 141 us and its converged share from 88.5% to 86.1%, two moves 125 us and 86.1% (8 runs,
// against one); the 1000:1 stack's step from MuJoCo 3.12's resting state needs the second (one
// contact lets go, the other joins again and takes the load) to reach 1e-8
#define kNullMoves 1


int acs_blockActive(const mjtNum* f, const acsProblem* p, int k, int model) {
  int dim = p->block_dim[k];
  switch ((acstBlock) p->block_type[k]) {
  case acsBLOCK_EQUALITY:
    return 1;
  case acsBLOCK_FRICTION:
    return mju_abs(f[0]) < p->block_floss[k];
  case acsBLOCK_LIMIT:
    return f[0] > 0;
  case acsBLOCK_CONTACT: {
    if (!(f[0] > 0) || dim == 1) {
      return f[0] > 0;
    }
    const mjtNum* mu = p->block_mu + 5*k;
    if (model == acsMODEL_LCP) {
      for (int j=1; j < dim; j++) {
        if (!(mju_abs(f[j]) < mu[j-1] * f[0])) {
          return 0;
        }
      }
      return 1;
    }
    if (acsu_coneNorm(f, mu, dim) < f[0]) {
      return 1;
    }
    int friction = 0;
    for (int j=1; j < dim; j++) {
      friction |= f[j] != 0;
    }
    return model == acsMODEL_NCP && dim >= 3 && friction ? 2 : 0;
  }
  default:
    return 0;
  }
}


static void stateLayout(acsIslandState* st, acsArena* arena, const acsProblem* p) {
  st->f      = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  st->a      = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  st->w      = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  st->active = acs_arenaAlloc(arena, p->nblock, 1);
}


void acs_sweepLayout(acsSweep* gs, acsArena* arena, const acsProblem* p) {
  int nisland = acs_islandCount(p);
  size_t nH = 0;
  for (int i=0; i < nisland; i++) {
    size_t ni = acs_islandRows(p, i);
    nH = ni <= acsSUBSPACE_ROWS && ni*ni > nH ? ni*ni : nH;
  }
  gs->w            = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  gs->a            = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->fprev        = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  acs_blocksLayout(&gs->blocks, arena, p);
  gs->partner      = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  gs->pratio       = acs_arenaAlloc(arena, p->nblock, sizeof(mjtNum));
  gs->pscratch     = acs_arenaAlloc(arena, p->nv + p->nblock, sizeof(int));
  gs->island_block = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  gs->island_start = acs_arenaAlloc(arena, nisland + 1, sizeof(int));
  gs->active       = acs_arenaAlloc(arena, p->nblock, 1);
  gs->blocked      = acs_arenaAlloc(arena, p->nblock, 1);
  gs->rows         = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  gs->H            = acs_arenaAlloc(arena, 2*nH, sizeof(mjtNum));
  gs->dx           = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->rhs          = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->df           = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->slot_t       = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  gs->slot_n       = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  gs->slot_c       = acs_arenaAlloc(arena, p->nefc, sizeof(mjtNum));
  gs->slot_k       = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  gs->angles       = 0;
  gs->moved        = 0;
  gs->rejoined     = 0;
  gs->piv          = acs_arenaAlloc(arena, 4*p->nefc, sizeof(int));
  gs->sv           = acs_arenaAlloc(arena, 5*(size_t)p->nefc, sizeof(mjtNum));
  gs->Gi           = acs_arenaAlloc(arena, nH, sizeof(mjtNum));
  gs->gpos         = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  gs->grow         = acs_arenaAlloc(arena, p->nefc, sizeof(int));
  int nterm = mjMIN(p->nefc, acsSUBSPACE_ROWS);
  gs->tcol         = acs_arenaAlloc(arena, nterm, sizeof(acsStepTerm));
  gs->trow         = acs_arenaAlloc(arena, nterm, sizeof(acsStepTerm));
  gs->gn           = 0;
  stateLayout(&gs->before, arena, p);
  gs->scratch      = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  acs_columnsLayout(&gs->cols, arena, p);
}


//---------------------------------- limits with friction loss -------------------------------------

// is block k one row without compliance
static int stiffRow(const acsProblem* p, int k) {
  return p->block_dim[k] == 1 && (!p->R || p->R[p->block_adr[k]] == 0);
}


// the ratio rho = +-1 with row rl = rho row rf of the operator, entry for entry; 0 if none
static mjtNum rowRatio(const acsProblem* p, int rf, int rl) {
  const int *cf, *cl;
  const mjtNum *vf, *vl;
  int n = acs_rowL(&cf, &vf, p, rf);
  if (n == 0 || acs_rowL(&cl, &vl, p, rl) != n) {
    return 0;
  }
  mjtNum rho = vl[0] == vf[0] ? 1 : vl[0] == -vf[0] ? -1 : 0;
  for (int j=0; rho != 0 && j < n; j++) {
    if (cl[j] != cf[j] || vl[j] != rho * vf[j]) {
      return 0;
    }
  }
  return rho;
}


// pair each limit with a friction loss of its island on the same row of the operator (B, else J)
// up to its sign (a joint's limit and its dof's friction loss, a tendon's limit and its friction
// loss; both stiff): the two
// make G singular, and the sweeps, one row at a time, move force between them only by the
// limit's stabilization (its velocity's share that the friction row does not see) over their
// diagonal per sweep, until the friction reaches its bound; pgs's subspace step cannot end that
// (the two rows are one, and the move along their null vector waits for a force to fall to
// zero). On the Shadow hand (joint margins of 0.01 rad hold 15 limits on dofs with friction loss
// while the fingers rest) pgs stopped at the limit on its first 40 steps after 100, and at
// 20000 sweeps from zero forces on most of them. A pair is solved as one block (pairUpdate)
static void pairRows(acsSweep* gs, const acsProblem* p) {
  int* head = gs->pscratch;       // friction blocks by their first column, chained in next
  int* next = head + p->nv;
  for (int i=0; i < p->nv; i++) {
    head[i] = -1;
  }
  for (int k=0; k < p->nblock; k++) {
    const int* col;
    const mjtNum* val;
    gs->partner[k] = -1;
    if (p->block_type[k] == acsBLOCK_FRICTION && stiffRow(p, k) &&
        acs_rowL(&col, &val, p, p->block_adr[k]) > 0) {
      next[k] = head[col[0]];
      head[col[0]] = k;
    }
  }
  for (int k=0; k < p->nblock; k++) {
    const int* col;
    const mjtNum* val;
    if (p->block_type[k] != acsBLOCK_LIMIT || !stiffRow(p, k) ||
        acs_rowL(&col, &val, p, p->block_adr[k]) == 0) {
      continue;
    }
    for (int kf=head[col[0]]; kf >= 0; kf = next[kf]) {
      int free = gs->partner[kf] < 0 && acs_blockIsland(p, kf) == acs_blockIsland(p, k);
      mjtNum rho = free ? rowRatio(p, p->block_adr[kf], p->block_adr[k]) : 0;
      if (rho != 0) {
        gs->partner[k] = kf;
        gs->partner[kf] = k;
        gs->pratio[k] = rho;
        break;
      }
    }
  }
}


// the Gauss-Seidel update of limit kl and its friction loss together (pairRows), relaxed by
// omega; w updated. With g their friction row's diagonal and rho the ratio of their rows, the
// limit's velocity is rho times the friction's plus a constant: either the limit lets go (zero
// force) and the friction takes its own exact update, or the limit holds (zero velocity), which
// sets the friction row's velocity and so its force (at its bound against a velocity; with none,
// free, the force that leaves the limit none if the bound allows), and the limit's force
// follows. The pair's problem is a convex QP bounded below: one of the two solves it, the
// release where the hold would need a negative limit force (its test failed by rounding)
static void pairUpdate(mjtNum* force, acsSweep* gs, const acsProblem* p, int kl, mjtNum omega) {
  const acsBlocks* B = &gs->blocks;
  int kf = gs->partner[kl], rf = p->block_adr[kf], rl = p->block_adr[kl];
  mjtNum rho = gs->pratio[kl], g = B->G[B->adr[kf]], F = p->block_floss[kf];
  mjtNum af, al, ff = force[rf], fl = force[rl];
  gs->fprev[rf] = ff;
  gs->fprev[rl] = fl;
  acs_velocityBlock(&af, p, kf, gs->w, force, B->shared[kf]);
  acs_velocityBlock(&al, p, kl, gs->w, force, B->shared[kl]);

  // the limit let go
  mjtNum ffs = mju_clip(ff - (af - rho * g * fl) / (g + mjMINVAL), -F, F), fls = 0;
  if (al + rho * g * (ffs - ff - rho * fl) < 0) {
    // the limit holding: the friction row's velocity af - al / rho; where that is zero (the rows'
    // biases agree) the friction is free, and takes what leaves the limit no force if it can
    mjtNum v = af - rho * al, d = fl - al / (g + mjMINVAL);
    mjtNum ffb = v > 0 ? -F : v < 0 ? F : mju_clip(ff + rho * d, -F, F);
    mjtNum flb = d - rho * (ffb - ff);
    if (flb >= 0) {               // else the release failed its test by rounding only
      ffs = ffb;
      fls = flb;
    }
  }
  mjtNum df[2] = {mju_clip(ff + omega * (ffs - ff), -F, F) - ff,
                  mju_max(0, fl + omega * (fls - fl)) - fl};
  force[rf] += df[0];
  force[rl] += df[1];
  acs_addYTBlock(gs->w, p, kf, df, B->shared[kf]);
  acs_addYTBlock(gs->w, p, kl, df + 1, B->shared[kl]);
}


//---------------------------------- one island ----------------------------------------------------

typedef struct {                  // an island being solved
  const int* block;               // its blocks
  int        nblock;
  int        nrow;                // its rows
} island;


// velocity a = G f + b of the island's rows, and their NCP residual and the law model's
static void islandResidual(mjtNum* ncp, mjtNum* res, acsSweep* gs, const acsProblem* p,
                           const island* is, const mjtNum* force, int model) {
  acs_blocksResidual(ncp, res, gs->a, p, is->block, is->nblock, gs->blocks.shared, gs->w, force,
                     model);
}


// save the island's forces, velocities, w and active set in st
static void saveState(acsIslandState* st, const acsSweep* gs, const acsProblem* p,
                      const island* is, const mjtNum* force) {
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k], dim = p->block_dim[k];
    mju_copy(st->f + adr, force + adr, dim);
    mju_copy(st->a + adr, gs->a + adr, dim);
    st->active[k] = gs->active[k];
  }
  mju_copy(st->w, gs->w, p->nv);
}


// the island's forces, velocities, w and active set back from st, exactly
static void restoreState(mjtNum* force, acsSweep* gs, const acsIslandState* st,
                         const acsProblem* p, const island* is) {
  mju_copy(gs->w, st->w, p->nv);
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k], dim = p->block_dim[k];
    mju_copy(force + adr, st->f + adr, dim);
    mju_copy(gs->a + adr, st->a + adr, dim);
    gs->active[k] = st->active[k];
  }
}


// the active set of the island's forces in gs->active; return 1 if it is the one there before
static int activeSet(acsSweep* gs, const mjtNum* force, const acsProblem* p, const island* is,
                     int model) {
  int same = 1;
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j];
    unsigned char act = acs_blockActive(force + p->block_adr[k], p, k, model);
    same = same && act == gs->active[k];
    gs->active[k] = act;
  }
  return same;
}


// a sliding contact (condim 3, 4 or 6: m = 2, 3 or 5 friction rows, each of a positive
// coefficient) takes its friction's direction on the cone's edge as m - 1 unknowns, angles:
// f_t = f_n mu o u with u a unit vector (condim 3: u = (cos phi, sin phi)). Return their number,
// 0 if the contact keeps its direction
static int angleContact(const acsSweep* gs, const acsProblem* p, int k) {
  int dim = p->block_dim[k];
  if (!gs->angles || gs->active[k] != 2 || dim < 3) {
    return 0;
  }
  for (int r=0; r < dim-1; r++) {
    if (!(p->block_mu[5*k+r] > 0)) {
      return 0;
    }
  }
  return dim - 2;
}


// is active block k feasible at force + t df (df: the step, per row)
static int blockFeasibleAt(mjtNum t, const acsSweep* gs, const acsProblem* p, int k,
                           const mjtNum* force, int model) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  if (angleContact(gs, p, k)) {       // on the cone's edge at any angle: pushing is enough
    return force[adr] + t * gs->df[adr] > 0;
  }
  mjtNum f[6], fp[6];
  for (int r=0; r < dim; r++) {
    f[r] = fp[r] = force[adr+r] + t * gs->df[adr+r];
  }
  acs_projectBlock(fp, p, k, model);
  for (int r=0; r < dim; r++) {
    if (mju_abs(fp[r] - f[r]) > 1e-12 * (1 + mju_abs(f[0]))) {
      return 0;
    }
  }
  return 1;
}


// is every active block of the island feasible at force + t df
static int feasibleAt(mjtNum t, const acsSweep* gs, const acsProblem* p, const island* is,
                      const mjtNum* force, int model) {
  for (int b=0; b < is->nblock; b++) {
    int k = is->block[b];
    if (gs->active[k] && !blockFeasibleAt(t, gs, p, k, force, model)) {
      return 0;
    }
  }
  return 1;
}


// the longest step t in (0, 1] along df that keeps the active blocks feasible (they are at t = 0:
// the feasible steps form an interval), by bisection to 1/1024
static mjtNum stepLength(const acsSweep* gs, const acsProblem* p, const island* is,
                         const mjtNum* force, int model) {
  if (feasibleAt(1, gs, p, is, force, model)) {
    return 1;
  }
  mjtNum lo = 0, hi = 1;
  for (int i=0; i < 10; i++) {
    mjtNum mid = (lo + hi) / 2;
    if (feasibleAt(mid, gs, p, is, force, model)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}


// x = A^-1 v for a square A (n x n, row-major; A and v overwritten) by Gaussian elimination with
// row pivoting: the non-symmetric counterpart of acs_denseFactor. An unknown whose column has no
// pivot above kSubspaceLU times its largest entry (or its scale, where A is a Schur complement
// whose columns the elimination before it reduced) depends on the columns before it and is 0,
// unless the pivot is at least kAngleOwn times its own term own[j] (a friction angle's; 0 for
// the others) and above kAngleFloor times that entry; the equations left without a pivot are
// dropped. piv: the pivot row of each column, -1 none (n); used: scratch (n)
static void luSolve(mjtNum* x, mjtNum* A, mjtNum* v, int n, int* piv, int* used,
                    const mjtNum* scale, const mjtNum* own) {
  memset(used, 0, n * sizeof(int));
  for (int j=0; j < n; j++) {
    mjtNum colmax = scale[j], best = 0;
    int ibest = -1;
    for (int i=0; i < n; i++) {
      mjtNum a = mju_abs(A[i*n+j]);
      colmax = mju_max(colmax, a);
      if (!used[i] && a > best) {
        best = a;
        ibest = i;
      }
    }
    int keep = best > kSubspaceLU * colmax + mjMINVAL ||
               (own[j] > 0 && best >= kAngleOwn * own[j] && best > kAngleFloor * colmax + mjMINVAL);
    piv[j] = ibest >= 0 && keep ? ibest : -1;
    if (piv[j] < 0) {
      continue;
    }
    used[ibest] = 1;
    for (int i=0; i < n; i++) {
      if (!used[i] && A[i*n+j] != 0) {
        mjtNum c = A[i*n+j] / A[ibest*n+j];
        for (int l=j; l < n; l++) {
          A[i*n+l] -= c * A[ibest*n+l];
        }
        v[i] -= c * v[ibest];
      }
    }
  }
  for (int j=n-1; j >= 0; j--) {
    if (piv[j] < 0) {
      x[j] = 0;
      continue;
    }
    const mjtNum* row = A + piv[j]*n;
    mjtNum s = v[piv[j]];
    for (int l=j+1; l < n; l++) {
      s -= row[l] * x[l];
    }
    x[j] = s / row[j];
  }
}


// G + R on n rows into H (n x n): read from the island's dense G + R when the caller gave one
// (admm's); in the Gauss-Seidel driver (gs->gn >= 0) from G on every row of the
// island (gs->Gi), formed from the rows of B (or J and Y) at the island's first subspace step: G
// does not change within a solve, and the steps' passes and sets need it on rows that overlap
// (pgs over the humanoid's first 600 steps: 3.4 matrices of 29 rows a step, formed again each
// time, 15% of its instructions; with B the entries are the same numbers, the trajectories
// bit-identical; with J and Y a pair's product may take its two rows the other way round, a
// rounding-level difference); else (acs_subspaceStep without a dense matrix: one step, on the
// rows it needs) formed on the n rows
static void stepMatrix(mjtNum* H, acsSweep* gs, const acsProblem* p, const island* is,
                       const int* rows, int n, const acsDenseG* dense) {
  acsDenseG own = {gs->Gi, gs->gpos, gs->gn};
  if (!dense && gs->gn < 0) {
    acs_delassusColumns(H, p, rows, n, NULL, gs->scratch, &gs->cols);
    return;
  }
  if (!dense) {
    if (!gs->gn) {
      for (int j=0; j < is->nblock; j++) {
        int adr = p->block_adr[is->block[j]];
        for (int r=0; r < p->block_dim[is->block[j]]; r++) {
          gs->gpos[adr+r] = own.n;
          gs->grow[own.n++] = adr + r;
        }
      }
      acs_delassusColumns(gs->Gi, p, gs->grow, own.n, NULL, gs->scratch, &gs->cols);
      gs->gn = own.n;
    }
    dense = &own;
  }
  // the rows' places in the dense matrix read once (n <= acsSUBSPACE_ROWS)
  acsASSERT(n <= acsSUBSPACE_ROWS);
  int pos[acsSUBSPACE_ROWS];
  for (int b=0; b < n; b++) {
    pos[b] = dense->pos[rows[b]];
  }
  for (int a=0; a < n; a++) {
    const mjtNum* ga = dense->g + (size_t)pos[a] * dense->n;
    mjtNum* Ha = H + (size_t)a*n;
    for (int b=0; b < n; b++) {
      Ha[b] = ga[pos[b]];
    }
  }
}


// the friction angle of the sliding condim-3 contact of block k whose rows start at adr, from its
// force per unit normal force (slot_c): cos phi, sin phi
static void frictionAngle(mjtNum* c, mjtNum* sn, const acsSweep* gs, const acsProblem* p, int k,
                          int adr) {
  const mjtNum* mu = p->block_mu + 5*k;
  *c = gs->slot_c[adr+1] / mu[0];
  *sn = gs->slot_c[adr+2] / mu[1];
}


// the friction direction u of the sliding contact of block k (m = its friction rows, from its
// force per unit normal force, slot_c) and the tangent space of the unit sphere at u: T (m x
// (m-1), row-major), orthonormal columns orthogonal to u, along which its angles move it.
// Condim 3: u = (cos phi, sin phi), T = (-sin phi, cos phi), d u / d phi. Condim 4 and 6: u
// normalized (the sweeps' projection leaves it on the cone's edge to rounding) and T the columns
// 2 to m of the Householder reflection that maps the first axis onto -sign(u_1) u (2 / v'v = 1 /
// (1 + |u_1|) >= 1/2: no cancellation)
static void slideBasis(mjtNum* u, mjtNum* T, const acsSweep* gs, const acsProblem* p, int k,
                       int adr) {
  int m = p->block_dim[k] - 1;
  if (m == 2) {
    frictionAngle(u, u + 1, gs, p, k, adr);
    T[0] = -u[1];
    T[1] = u[0];
    return;
  }
  const mjtNum* mu = p->block_mu + 5*k;
  for (int r=0; r < m; r++) {
    u[r] = gs->slot_c[adr+1+r] / mu[r];
  }
  mjtNum norm = mju_norm(u, m);
  mju_scl(u, u, 1 / norm, m);
  mjtNum v[5];
  mju_copy(v, u, m);
  v[0] += u[0] >= 0 ? 1 : -1;
  mjtNum h = 1 / (1 + mju_abs(u[0]));
  for (int r=0; r < m; r++) {
    for (int q=0; q < m-1; q++) {
      T[r*(m-1)+q] = (r == q+1) - h * v[r] * v[q+1];
    }
  }
}


// the sliding unknowns' friction per unit normal force (slot_c), as it is in force: the
// directions from which their angles are measured
static void slideDirections(acsSweep* gs, const mjtNum* force, int n) {
  for (int j=0; j < n; j++) {
    for (int r=1; gs->slot_t[j] >= 0 && r <= gs->slot_n[j]; r++) {
      gs->slot_c[gs->rows[j] + r] = force[gs->rows[j] + r] / force[gs->rows[j]];
    }
  }
}


// the place of angle unknown i among its contact's angles (they are consecutive in gs->piv)
static int angleIndex(const acsSweep* gs, int i) {
  int q = 0;
  while (q < i && gs->piv[i-q-1] == gs->piv[i]) {
    q++;
  }
  return q;
}


// the step's matrix in terms of G on its rows (H, m x m): unknown u's column (its force direction
// V_u: a sticking row's unit vector; a sliding contact's normal force with its friction along c,
// f_t = c f_n; from n on, an angle of a sliding contact, V = df/dtheta) and equation e's row
// (below n, the velocity of unknown e's row; from n on, the maximal dissipation's equation of
// that angle), each a few of H's columns or rows with their weights; entry (e, u) is then
// sum_i rw_i sum_j cw_j H[ri_i, cj_j], times the column's factor, plus the row's diagonal term
// where e = u. Formed once per Newton step (the friction directions change), where each entry
// worked them out again (the Schur complement's 300 entries a step on the lying humanoid: 70
// instructions each); the sums are the same, in the same order. Only the nl unknowns uL other
// than the sticking rows are written: a sticking row's column and row are H's own (schurStep
// reads them there)
static void stepTerms(acsSweep* gs, const acsProblem* p, const mjtNum* force, int n,
                      const int* uL, int nl) {
  for (int l=0; l < nl; l++) {
    int u = uL[l];
    acsStepTerm* col = gs->tcol + u;
    acsStepTerm* row = gs->trow + u;
    if (u < n) {
      int t = gs->slot_t[u];
      col->n = 1;
      col->idx[0] = u;
      col->w[0] = 1;
      col->scale = 1;
      for (int r=1; t >= 0 && r <= gs->slot_n[u]; r++, col->n++) {
        col->idx[col->n] = t + r - 1;
        col->w[col->n] = gs->slot_c[gs->rows[u] + r];
      }
      row->n = 1;
      row->idx[0] = u;
      row->w[0] = 1;
      row->scale = 0;
      continue;
    }
    // an angle q of a sliding contact: its column V = f_n mu o T_q on the friction rows; its
    // equation g_q = -T_q' (mu o a_t) = 0 (the friction opposite to the slip), whose derivative
    // along the angles adds (u' (mu o a_t)) I (the basis turns with u). That term is taken at
    // the sign it has at the maximal dissipation's root, -|u' (mu o a_t)|: the equation has a
    // second root, the friction along the slip (maximal power), and from the cone's far side the
    // exact term, positive there, steers the step to it, the friction then stuck doing work on
    // the slip; near the dissipation's root the step is Newton's. testSpinningPair's box from
    // zero forces: 40 -> 2 sweeps. Measured (perturbed runs, 300 steps after 100): pgs's
    // converged steps on the dog 88.3% -> 93.3%, 89.2% -> 92.3% and 90.3% -> 89.0% (1e-3, 1e-4,
    // 1e-2; 16, 24, 16 runs; 19.2 -> 13.7 sweeps a step at 1e-3), the Shadow hand 99.8% ->
    // 100.0% and 98.7% -> 99.9%, 22_humanoids 93.1% -> 94.3%, the squat 98.4% -> 98.5%; admm's
    // dog 90.6% -> 89.5% and 91.0% -> 92.1%, the lying humanoid's iterations a step 1.37 -> 1.18
    // and 1.42 -> 1.32 (1e-4, 1e-3; 24 runs)
    int j = gs->piv[u - n];                 // its normal force's unknown
    int k = gs->slot_k[j], t = gs->slot_t[j], adr = gs->rows[j], ms = gs->slot_n[j];
    int q = angleIndex(gs, u - n);
    const mjtNum* mu = p->block_mu + 5*k;
    mjtNum dir[5], T[20];
    slideBasis(dir, T, gs, p, k, adr);
    col->n = row->n = ms;
    col->scale = force[adr];
    row->scale = 0;
    for (int r=0; r < ms; r++) {
      mjtNum tr = T[r*(ms-1)+q];
      col->idx[r] = row->idx[r] = t + r;
      col->w[r] = mu[r] * tr;
      row->w[r] = -(mu[r] * tr);
      row->scale += mu[r] * gs->a[adr+1+r] * dir[r];
    }
    row->scale = -mju_abs(row->scale);
  }
}


// the Newton step's unknowns with sliding contacts: the nl unknowns uL (sliding normal forces,
// angles) and the ns sticking rows uS, whose matrix G_SS is factored in C (acs_denseFactor, once
// per active set: the angles leave it as it is). The sticking unknowns are eliminated: X = C^-1
// A_SL, the Schur complement A_LL - A_LS X (nl x nl, small) by luSolve, then the sticking rows'
// step. In place of the elimination of all N unknowns with row pivoting on every Newton step
// (pgs over the humanoid's first 600 steps: 4.3 eliminations of 28 unknowns a step, 23% of its
// instructions). A sliding contact whose normal row depends on the sticking rows keeps its force
// (its column of the complement vanishes), where the elimination in island order dropped
// whichever of the dependent rows came later: the heavy-on-light stack's step from zero forces
// takes pgs and raisim 2 sweeps at every mass ratio up to 1e6 (more than 20 000 at 1e4 before).
// The right side in gs->dx
// (by unknown), the step back there; the work area W holds X, A_LS and the complement after it
// (nl (2 ns + nl)); lpiv: the complement's pivots (luSolve), lused: scratch (nl)
static void schurStep(acsSweep* gs, const acsProblem* p, const mjtNum* force, int m, int n,
                      const int* uS, int ns, const int* uL, int nl, const mjtNum* C, mjtNum* W,
                      int* lpiv, int* lused) {
  mjtNum* X = W;                        // C^-1 A_SL, by column       (ns x nl)
  mjtNum* ALS = X + (size_t)ns*nl;      // A_LS, by row               (nl x ns)
  mjtNum* S = ALS + (size_t)nl*ns;      // A_LL - A_LS X              (nl x nl)
  mjtNum* y = gs->sv;                   // C^-1 b_S, then the sticking rows' step (ns)
  mjtNum* scale = y + ns;               // the columns' largest entries of A (nl)
  mjtNum* r = scale + nl;               // b_L - A_LS y               (nl)
  mjtNum* xl = r + nl;                  // the other unknowns' step   (nl)
  mjtNum* own = xl + nl;                // an angle's own term |u' (mu o a_t)|, else 0 (nl)
  mjtNum* hv = own + nl;                // an unknown's column of A on H's rows (m)
  stepTerms(gs, p, force, n, uL, nl);
  for (int a=0; a < ns; a++) {
    y[a] = gs->dx[uS[a]];
  }
  acs_denseSolve(y, C, ns);
  for (int l=0; l < nl; l++) {
    // unknown l's column on every row of H, its inner sums formed once (in place of once per
    // entry: a condim-6 contact's angle has 5 column terms and 5 row terms), from which its
    // entries in the sticking rows' equations (A_SL) and in the others' (A_LL) are read; the
    // same sums, in the same order
    const acsStepTerm* col = gs->tcol + uL[l];
    own[l] = uL[l] >= n ? mju_abs(gs->trow[uL[l]].scale) : 0;
    for (int q=0; q < m; q++) {
      const mjtNum* Hq = gs->H + (size_t)q*m;
      mjtNum v = 0;
      for (int j=0; j < col->n; j++) {
        v += col->w[j] * Hq[col->idx[j]];
      }
      hv[q] = v * col->scale;
    }
    mjtNum* xcol = X + (size_t)l*ns;
    for (int a=0; a < ns; a++) {          // a sticking row's equation: its row of H
      xcol[a] = hv[uS[a]];
    }
    acs_denseSolve(xcol, C, ns);
    scale[l] = 0;
    for (int e=0; e < nl; e++) {
      const acsStepTerm* row = gs->trow + uL[e];
      mjtNum all = 0;
      for (int i=0; i < row->n; i++) {
        all += row->w[i] * hv[row->idx[i]];
      }
      all = e == l ? all + row->scale : all;
      scale[l] = mju_max(scale[l], mju_abs(all));
      S[e*nl+l] = all;
    }
  }
  for (int e=0; e < nl; e++) {
    mjtNum* arow = ALS + (size_t)e*ns;
    const acsStepTerm* row = gs->trow + uL[e];
    mju_zero(arow, ns);
    for (int i=0; i < row->n; i++) {      // a sticking row's unknown: its column of H
      const mjtNum* Hq = gs->H + (size_t)row->idx[i]*m;
      for (int a=0; a < ns; a++) {
        arow[a] += row->w[i] * Hq[uS[a]];
      }
    }
    r[e] = gs->dx[uL[e]] - mju_dot(arow, y, ns);
    for (int l=0; l < nl; l++) {
      S[e*nl+l] -= mju_dot(arow, X + (size_t)l*ns, ns);
    }
  }
  luSolve(xl, S, r, nl, lpiv, lused, scale, own);
  for (int l=0; l < nl; l++) {
    mju_addToScl(y, X + (size_t)l*ns, -xl[l], ns);
    gs->dx[uL[l]] = xl[l];
  }
  for (int a=0; a < ns; a++) {
    gs->dx[uS[a]] = y[a];
  }
}


// the step per row from the unknowns' steps gs->dx (a sliding contact with angles: its normal
// force's, then its angles') into gs->df
static void stepRows(acsSweep* gs, const acsProblem* p, const island* is, int n, int nang) {
  for (int j=0; j < is->nblock; j++) {
    int adr = p->block_adr[is->block[j]];
    mju_zero(gs->df + adr, p->block_dim[is->block[j]]);
  }
  for (int j=0; j < n; j++) {
    gs->df[gs->rows[j]] = gs->dx[j];
    for (int r=1; gs->slot_t[j] >= 0 && r <= gs->slot_n[j]; r++) {
      gs->df[gs->rows[j] + r] = gs->slot_c[gs->rows[j] + r] * gs->dx[j];
    }
  }
  for (int i=0; i < nang; i++) {        // a contact's angles in its first m - 1 friction rows
    int j = gs->piv[i], q = angleIndex(gs, i);
    gs->df[gs->rows[j] + 1 + q] = gs->dx[n+i];
    gs->df[gs->rows[j] + gs->slot_n[j]] = 0;
  }
}


// move the active blocks' forces along gs->df as far as they stay feasible, at most by 1 (a step
// that leaves a cone, projected back, breaks the linear solution it was: the velocities it leaves
// can be 1e7 times larger); w updated. Return the number of blocks that cut the move short,
// flagged in gs->blocked; len: the move's length
static int moveForces(mjtNum* len, mjtNum* force, acsSweep* gs, const acsProblem* p,
                      const island* is, int model) {
  *len = stepLength(gs, p, is, force, model);
  int nblocked = 0;
  for (int j=0; *len < 1 && j < is->nblock; j++) {   // the blocks that stopped the step
    int k = is->block[j], adr = p->block_adr[k];
    mjtNum tb = mju_min(1, *len + 1.0/1024);
    gs->blocked[k] = 0;
    if (gs->active[k] && !blockFeasibleAt(tb, gs, p, k, force, model)) {
      int cone = p->block_type[k] == acsBLOCK_CONTACT && gs->active[k] == 1 &&
                 p->block_dim[k] >= 3 && force[adr] + tb * gs->df[adr] > 0 &&
                 acsu_coneNorm(force + adr, p->block_mu + 5*k, p->block_dim[k]) > 0;
      gs->blocked[k] = cone ? 1 : 2;
      nblocked++;
    }
  }
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k], dim = p->block_dim[k];
    if (gs->active[k]) {
      mjtNum fold[6], df[6];
      mju_copy(fold, force + adr, dim);
      if (angleContact(gs, p, k)) {
        const mjtNum* mu = p->block_mu + 5*k;
        mjtNum fn = force[adr] + *len * gs->df[adr];
        force[adr] = fn;
        if (dim == 3) {
          mjtNum c, sn;
          frictionAngle(&c, &sn, gs, p, k, adr);
          mjtNum phi = atan2(sn, c) + *len * gs->df[adr+1];
          force[adr+1] = fn * mu[0] * cos(phi);
          force[adr+2] = fn * mu[1] * sin(phi);
        } else {                        // along the great circle from u towards T (len dtheta)
          mjtNum dir[5], T[20], d[5];
          slideBasis(dir, T, gs, p, k, adr);
          for (int r=0; r < dim-1; r++) {
            d[r] = 0;
            for (int q=0; q < dim-2; q++) {
              d[r] += T[r*(dim-2)+q] * *len * gs->df[adr+1+q];
            }
          }
          mjtNum theta = mju_norm(d, dim-1);
          for (int r=0; r < dim-1; r++) {
            mjtNum ur = cos(theta) * dir[r] + (theta > 0 ? sin(theta) / theta * d[r] : 0);
            force[adr+1+r] = fn * mu[r] * ur;
          }
        }
      } else {
        for (int r=0; r < dim; r++) {
          force[adr+r] += *len * gs->df[adr+r];
        }
      }
      acs_projectBlock(force + adr, p, k, model);   // rounding only
      for (int r=0; r < dim; r++) {
        df[r] = force[adr+r] - fold[r];
      }
      acs_addYTBlock(gs->w, p, k, df, gs->blocks.shared[k]);
    }
  }
  return nblocked;
}


// z (N): the null vector of the square matrix that luSolve eliminated into A (pivots piv) which
// its dropped column j0 gives: z_j0 = 1, the other dropped columns 0, A z = 0 on the pivot rows
static void luNullVector(mjtNum* z, const mjtNum* A, const int* piv, int N, int j0) {
  mju_zero(z, N);
  z[j0] = 1;
  for (int j=N-1; j >= 0; j--) {
    if (piv[j] < 0 || j == j0) {
      continue;
    }
    const mjtNum* row = A + (size_t)piv[j]*N;
    mjtNum s = 0;
    for (int l=0; l < N; l++) {
      s += l != j ? row[l] * z[l] : 0;
    }
    z[j] = -s / row[j];
  }
}


// z (N, by unknown): with sliding contacts, the null vector of the step's matrix that the j0-th
// dropped unknown of schurStep's elimination gives (j0 below ns: a sticking row C dropped, the
// others' step zero: G_SS z_S = 0 makes J_S' z_S = 0, so every row's velocity is unchanged;
// from ns: an unknown the complement dropped, z_S = -X z_L); return 0 if that unknown was kept
static int nullVector(mjtNum* z, acsSweep* gs, int ns, const int* uS, int nl, const int* uL,
                      const mjtNum* C, const int* lpiv, int j0) {
  mjtNum* zs = gs->sv;
  mjtNum* zl = zs + ns;
  if (j0 < ns) {
    if (C[j0*ns+j0] != 0) {
      return 0;
    }
    acs_denseNullVector(zs, C, ns, j0);
    mju_zero(zl, nl);
  } else {
    if (lpiv[j0 - ns] >= 0) {
      return 0;
    }
    const mjtNum* X = C + (size_t)ns*ns;
    luNullVector(zl, X + 2*(size_t)ns*nl, lpiv, nl, j0 - ns);
    mju_zero(zs, ns);
    for (int l=0; l < nl; l++) {
      mju_addToScl(zs, X + (size_t)l*ns, -zl[l], ns);
    }
  }
  for (int a=0; a < ns; a++) {
    z[uS[a]] = zs[a];
  }
  for (int l=0; l < nl; l++) {
    z[uL[l]] = zl[l];
  }
  return 1;
}


// the island's largest unconstrained velocity (b)
static mjtNum islandFreeVelocity(const acsProblem* p, const island* is) {
  mjtNum bmax = 0;
  for (int j=0; j < is->nblock; j++) {
    int adr = p->block_adr[is->block[j]];
    for (int r=0; r < p->block_dim[is->block[j]]; r++) {
      bmax = mju_max(bmax, mju_abs(p->b[adr+r]));
    }
  }
  return bmax;
}


// the unknown of the step's n whose row is row; -1 if none
static int rowUnknown(const acsSweep* gs, int n, int row) {
  for (int u=0; u < n; u++) {
    if (gs->rows[u] == row) {
      return u;
    }
  }
  return -1;
}


// the Newton step of the subspace minimization on the island's active set (gs->active), from
// force, as far as the active blocks stay feasible (see subspaceStep); w, a, ncp and res updated.
// Return the number of active blocks that cut the step short (flagged in gs->blocked: 1 a sticking
// contact whose friction reached its cone's edge, 2 another bound), -1 if the set has no unknowns;
// len: the step length taken
static int activeSetStep(mjtNum* len, mjtNum* force, mjtNum* ncp, mjtNum* res, acsSweep* gs,
                         const acsProblem* p, const island* is, int model,
                         const acsDenseG* dense, mjtNum tol) {
  // unknowns, one per row of a sticking block and one per sliding contact (its normal force, the
  // friction along its present direction: f_t = c f_n), in the island's order; cols: their rows,
  // then the sliding contacts' tangential rows (the columns G is needed on)
  int n = 0, nslide = 0;
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k];
    for (int r=0; gs->active[k] == 1 && r < p->block_dim[k]; r++) {
      gs->slot_t[n] = -1;
      gs->rows[n++] = adr + r;
    }
    if (gs->active[k] == 2) {
      gs->slot_t[n] = nslide++;
      gs->slot_n[n] = p->block_dim[k] - 1;
      gs->slot_k[n] = k;
      gs->rows[n++] = adr;
    }
  }
  if (n == 0) {
    return -1;
  }
  int m = n, nang = 0;
  for (int j=0; j < n; j++) {
    if (gs->slot_t[j] >= 0) {
      for (int q=angleContact(gs, p, gs->slot_k[j]); q > 0; q--) {
        gs->piv[nang++] = j;      // the angles' unknowns n + i: their contacts' unknowns
      }
      gs->slot_t[j] = m;
      for (int r=1; r <= gs->slot_n[j]; r++) {
        gs->rows[m++] = gs->rows[j] + r;
      }
    }
  }
  int N = n + nang;

  // with sliding contacts: the sticking unknowns uS, the others uL (their order kept), and the
  // sticking rows' matrix C (factored); the work area after it (schurStep)
  int* uS = gs->piv + nang, ns = 0, nl = 0;
  for (int j=0; j < n; j++) {
    ns += gs->slot_t[j] < 0;
  }
  int* uL = uS + ns;
  int* lpiv = uL + (N - ns);
  int* lused = lpiv + (N - ns);
  for (int j=0; nslide && j < N; j++) {
    if (j < n && gs->slot_t[j] < 0) {
      uS[j - nl] = j;
    } else {
      uL[nl++] = j;
    }
  }
  mjtNum* C = gs->H + (size_t)m*m;

  int nblocked = 0;
  *len = 0;
  for (int step=0; step < (nang ? kAngleSteps : 1); step++) {
    slideDirections(gs, force, n);

    // Newton step: velocity zero on the sticking rows and the sliding contacts' normal rows, the
    // sliding contacts' friction opposite to their slip (with angles)
    for (int j=0; j < n; j++) {
      gs->dx[j] = -gs->a[gs->rows[j]];
    }
    if (!nslide) {
      stepMatrix(gs->H, gs, p, is, gs->rows, n, dense);
      acs_denseFactor(gs->H, n, kSubspacePivot);
      acs_denseSolve(gs->dx, gs->H, n);
    } else {
      if (step == 0) {
        stepMatrix(gs->H, gs, p, is, gs->rows, m, dense);
        for (int a=0; a < ns; a++) {
          for (int b=0; b < ns; b++) {
            C[a*ns+b] = gs->H[uS[a]*m + uS[b]];
          }
        }
        acs_denseFactor(C, ns, kSubspacePivot);
      }
      for (int i=0; i < nang; ) {         // -g_q = T_q' (mu o a_t) (stepTerms)
        int j = gs->piv[i], k = gs->slot_k[j], adr = gs->rows[j], ms = gs->slot_n[j];
        const mjtNum* mu = p->block_mu + 5*k;
        mjtNum dir[5], T[20];
        slideBasis(dir, T, gs, p, k, adr);
        for (int q=0; q < ms-1; q++, i++) {
          mjtNum g = mu[0] * gs->a[adr+1] * T[q];
          for (int r=1; r < ms; r++) {
            g += mu[r] * gs->a[adr+1+r] * T[r*(ms-1)+q];
          }
          gs->dx[n+i] = g;
        }
      }
      schurStep(gs, p, force, m, n, uS, ns, uL, nl, C, C + (size_t)ns*ns, lpiv, lused);
    }

    stepRows(gs, p, is, n, nang);
    mjtNum turn = 0;
    for (int i=0; i < nang; i++) {
      turn = mju_max(turn, mju_abs(gs->dx[n+i]));
    }
    for (int j=0; turn > kAngleTurn && j < is->nblock; j++) {
      int adr = p->block_adr[is->block[j]];
      mju_scl(gs->df + adr, gs->df + adr, kAngleTurn / turn, p->block_dim[is->block[j]]);
    }
    nblocked = moveForces(len, force, gs, p, is, model);
    if (nblocked > 0 && *len >= 0 && *len < 1) {
      return nblocked;              // subspaceStep changes sides, then measures the island
    }
    mjtNum resprev = *res;
    islandResidual(ncp, res, gs, p, is, force, model);

    // another step after the first, and then while the residual falls, until it meets the
    // tolerance: the first step from a turned friction may gain little or lose (its normal
    // velocity is off by the rotation's second order: testSubspaceAngles' condim-4 contact 15
    // degrees off, 0.17 -> 0.21, then 9e-4 and 4e-8). Measured against stopping after a first
    // step that loses (perturbed runs, every joint, README): pgs's converged steps on the squat
    // 92.3% -> 97.5%, 22_humanoids 86.3% -> 95.7%, the dog 69.5% -> 77.4%, the Shadow hand 92.5%
    // -> 93.9%, the lying humanoid 99.6%. A second step after a first that met the tolerance
    // left pgs on the lying humanoid 1.93 sweeps a step against 0.75 (testLyingSweeps)
    if (!(*len > 0) || *len < 1 || *res <= tol || (step > 0 && !(*res < resprev))) {
      break;
    }
  }

  // a full step that leaves the island above the tolerance, a loaded contact moving in a row that
  // depends on the others' (a hyperstatic set whose stabilization no rigid motion meets: no force
  // on the set removes that velocity; one of the set must let go or slide): the forces move along
  // a null vector of the step's matrix (internal forces: the set's velocities do not change) that
  // unloads that contact if it moves apart, loads it if it penetrates, until a normal force
  // reaches zero or a friction its cone; that block changes sides on the next pass (kNullMoves
  // a subspace step). Where no loaded normal row moves, a sticking contact slipping in a friction
  // row that depends on the others' is answered alike: the move loads its friction against the
  // slip, until it slides or another block reaches a bound (the NCP's solution of a hyperstatic
  // set whose requests no rigid motion meets has a contact sliding; the sweeps and the step on
  // the rows held did not find it: testConsistentStabilizationTwoContacts). Measured (pgs,
  // perturbed runs of dm_control's dog, 300 steps after 100): converged 86.0% -> 89.0%, 87.4% ->
  // 89.4% and 76.3% -> 84.9% at 1e-3, 1e-4 and 1e-2 (24, 24 and 16 runs), 22 -> 20, 21 -> 19 and
  // 33 -> 25 sweeps a step; the Shadow hand level (92.0% -> 92.0%, 89.4% -> 89.3%, 32 runs);
  // admm's subspace start on the dog a draw (87.4% -> 84.7%, 87.1% -> 89.5%, 81.3% -> 82.0%, 16
  // runs). These two moves are not for raisim (angles 0): the normal rows' left raisim's
  // ensembles as they were and took its sliding cube to the NCP's deceleration (3.913 m/s^2 where
  // raisim's own answer is 3.882 and mu g 3.924); the third (jheld, below) is
  if (*len >= 1 && *res > tol && gs->moved < kNullMoves + gs->rejoined) {
    int jsep = -1;                // the unknown of the loaded normal row moving the most
    mjtNum worst = 0, bmax = islandFreeVelocity(p, is);
    for (int j=0; gs->angles && j < is->nblock; j++) {
      int k = is->block[j], adr = p->block_adr[k];
      mjtNum fa = mju_abs(force[adr] * gs->a[adr]);
      if (!gs->active[k] || mju_abs(gs->a[adr]) <= kNullFloor * (1 + bmax) || !(fa > worst) ||
          (p->block_type[k] != acsBLOCK_CONTACT && p->block_type[k] != acsBLOCK_LIMIT)) {
        continue;
      }
      int u = rowUnknown(gs, n, adr);
      if (u >= 0) {
        worst = fa;
        jsep = u;
      }
    }

    // none: the friction row of a sticking contact that slips the most (by mu f_n |a|): its
    // friction changes against the slip until it, or another block, reaches a bound (jslip: that
    // unknown, kslip its block)
    int jslip = -1, kslip = -1;
    for (int j=0; gs->angles && jsep < 0 && j < is->nblock; j++) {
      int k = is->block[j], adr = p->block_adr[k];
      if (gs->active[k] != 1 || p->block_type[k] != acsBLOCK_CONTACT || p->block_dim[k] < 3) {
        continue;
      }
      for (int r=1; r < p->block_dim[k]; r++) {
        mjtNum fa = mju_abs(force[adr] * p->block_mu[5*k+r-1] * gs->a[adr+r]);
        int u = mju_abs(gs->a[adr+r]) <= kNullFloor * (1 + bmax) || !(fa > worst) ? -1 :
                rowUnknown(gs, n, adr + r);
        if (u >= 0) {
          worst = fa;
          jslip = u;
          kslip = k;
        }
      }
    }
    jsep = jsep >= 0 ? jsep : jslip;

    // none either: a held equality or friction-loss row left moving, the others' held (the
    // island's stabilization asks for a motion that its held friction losses forbid: one of them
    // must slide). The move lowers the dual objective along the null vector, as the others do,
    // until a friction loss reaches its bound or a limit's or contact's force zero (jheld: that
    // unknown). The Franka kitchen's microwave door, an equality coupling two hinges with
    // friction loss and limits: the step on the three rows held (they depend on each other)
    // zeroes the equality's velocity and leaves the second friction loss moving (0.011 m/s^2);
    // pgs stopped at 0.15 on every step after its 27th (with sweeps alone it took 6000), raisim
    // on 17% of the steps. Every step converges now, in 1.1 sweeps a step, and no other robot's
    // trajectory moved (ensembles of 8 to 16 runs: the same sweeps). The move may let a contact
    // go (gmin below), for raisim too; admm's subspace steps take it as well
    int jheld = -1;
    for (int j=0; jsep < 0 && j < is->nblock; j++) {
      int k = is->block[j], adr = p->block_adr[k], type = p->block_type[k];
      if (gs->active[k] != 1 || (type != acsBLOCK_EQUALITY && type != acsBLOCK_FRICTION)) {
        continue;
      }
      for (int r=0; r < p->block_dim[k]; r++) {
        mjtNum fa = mju_abs(gs->a[adr+r]);
        int u = fa <= kNullFloor * (1 + bmax) || !(fa > worst) ? -1 : rowUnknown(gs, n, adr + r);
        if (u >= 0) {
          worst = fa;
          jheld = u;
        }
      }
    }
    jsep = jsep >= 0 ? jsep : jheld;

    // of the null vectors the dropped unknowns give, the one that moves it most
    mjtNum best = 0;
    for (int j0=0; jsep >= 0 && j0 < (nslide ? N : n); j0++) {
      if (!nslide ? gs->H[(size_t)j0*n+j0] != 0 :
          !nullVector(gs->dx, gs, ns, uS, nl, uL, C, lpiv, j0)) {
        continue;
      }
      if (!nslide) {
        acs_denseNullVector(gs->dx, gs->H, n, j0);
      }
      mjtNum norm = mju_norm(gs->dx, nslide ? N : n), move = mju_abs(gs->dx[jsep]) / norm;
      if (move > best) {
        best = move;
        mju_copy(gs->rhs, gs->dx, nslide ? N : n);
      }
    }
    if (best > kNullMove) {
      mju_copy(gs->dx, gs->rhs, nslide ? N : n);
      stepRows(gs, p, is, n, nang);
      slideDirections(gs, force, n);      // the angles move from the last Newton step's forces

      // scaled so that the first normal force to fall reaches zero just past 1
      mjtNum sign = gs->dx[jsep] * gs->a[gs->rows[jsep]] > 0 ? -1 : 1, gmin = INFINITY;
      for (int j=0; j < is->nblock; j++) {
        int k = is->block[j], adr = p->block_adr[k];
        mjtNum d = sign * gs->df[adr];
        if (gs->active[k] && d < 0 && (p->block_type[k] == acsBLOCK_CONTACT ||
                                       p->block_type[k] == acsBLOCK_LIMIT)) {
          gmin = mju_min(gmin, force[adr] / -d);
        } else if (jheld >= 0 && gs->active[k] && d != 0 &&
                   p->block_type[k] == acsBLOCK_FRICTION) {
          // (one already on its bound, clipped there by the step, stops nothing)
          mjtNum room = p->block_floss[k] + (d > 0 ? -force[adr] : force[adr]);
          gmin = room > 0 ? mju_min(gmin, room / mju_abs(d)) : gmin;
        }
      }

      // a slipping friction row: at least twice the way to that row's edge (unless its normal
      // force grows as fast), so that the move stops at the first bound, its own or another's
      if (kslip >= 0) {
        int row = gs->rows[jslip], adr = p->block_adr[kslip];
        mjtNum d = mju_abs(gs->df[row]);
        mjtNum reach = 2 * (p->block_mu[5*kslip + row-adr-1] * force[adr] + mju_abs(force[row]));
        gmin = d > 0 ? mju_min(gmin, reach / d) : gmin;
      }
      for (int j=0; gmin < INFINITY && j < is->nblock; j++) {
        int adr = p->block_adr[is->block[j]];
        mju_scl(gs->df + adr, gs->df + adr, sign * gmin * (1 + 1e-3), p->block_dim[is->block[j]]);
      }
      if (gmin < INFINITY) {
        gs->moved++;
        nblocked = moveForces(len, force, gs, p, is, model);
        islandResidual(ncp, res, gs, p, is, force, model);
      }
    }
  }
  return nblocked;
}


// the blocks that cut a step short change sides: a sticking contact whose friction reached its
// cone's edge slides on it (its friction scaled onto the edge), one whose normal force reached
// zero, a limit at zero or a friction loss at its bound is held (a contact or limit let go); w
// updated
static void changeSides(mjtNum* force, acsSweep* gs, const acsProblem* p, const island* is) {
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k], dim = p->block_dim[k];
    if (!gs->blocked[k]) {
      continue;
    }
    mjtNum df[6] = {0};
    if (gs->blocked[k] == 1) {          // friction on the cone's edge: sliding
      mjtNum norm = acsu_coneNorm(force + adr, p->block_mu + 5*k, dim);
      for (int r=1; r < dim; r++) {
        df[r] = force[adr+r] * (force[adr] / norm - 1);
      }
      gs->active[k] = 2;
    } else {                            // another bound: held, a contact or limit let go
      if (p->block_type[k] == acsBLOCK_CONTACT || p->block_type[k] == acsBLOCK_LIMIT) {
        for (int r=0; r < dim; r++) {
          df[r] = -force[adr+r];
        }
      }
      gs->active[k] = 0;
    }
    for (int r=0; r < dim; r++) {
      force[adr+r] += df[r];
    }
    gs->blocked[k] = 0;
    acs_addYTBlock(gs->w, p, k, df, gs->blocks.shared[k]);
  }
}


// after a full step: the held contact or limit that penetrates the most (its normal velocity
// below -kNullFloor times the island's largest free velocity) joins the sticking set at zero
// force; return 1 if one did
static int rejoin(acsSweep* gs, const acsProblem* p, const island* is) {
  mjtNum lowest = -kNullFloor * (1 + islandFreeVelocity(p, is));
  int kr = -1;
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k];
    if (!gs->active[k] && gs->a[adr] < lowest &&
        (p->block_type[k] == acsBLOCK_CONTACT || p->block_type[k] == acsBLOCK_LIMIT)) {
      lowest = gs->a[adr];
      kr = k;
    }
  }
  if (kr >= 0) {
    gs->active[kr] = 1;
    gs->rejoined++;
  }
  return kr >= 0;
}


// one subspace minimization step on the island (its w, a, ncp and res current): the Newton step
// on the rows of its active set, the other rows held, as far as the active blocks stay feasible;
// kept, with the new w, a and residuals, if it divides the law's residual res by kSubspaceGain at
// least. Sticking rows: velocity zero, dx_F = -(G_FF + R_F)^-1 a_F. A sliding contact: its normal
// velocity zero, its friction on the cone's edge, along its present direction (f_t = c f_n, one
// unknown). With angles (the NCP solvers; RaiSim keeps its own friction direction, which is not
// the NCP's), a sliding condim-3 contact's friction angle phi on the cone is a second unknown, and
// up to kAngleSteps Newton steps (G formed once) solve the maximal dissipation's direction too:
// f_t opposite to the slip, g = mu_1 a_1 sin phi - mu_2 a_2 cos phi = 0, linearized in phi and a,
// the forces then turned on the cone exactly (the normal velocity the turn leaves is second
// order, 0.06 m/s^2 after 15 degrees on a box's corner, which the next step removes). A sliding
// condim-4 or condim-6 contact (m = 3 or 5 friction rows: slip, spin, rolling) takes m - 1
// angles, coordinates of its direction u on the unit sphere's tangent space (slideBasis), and as
// many equations, the slip's part across u, -T' (mu o a_t) = 0; its forces are turned along the
// great circle. Before, such a contact kept its direction, and the sweeps turned it slowly: pgs's
// converged steps on dm_control's dog, whose paws are condim 6, 42.9% -> 69.5%, on the Shadow
// hand (condim-4 fingertips) 89.2% -> 92.5% (8 runs each, every joint perturbed; README), the
// condim-3 scenes bit-identical (the second Newton step of activeSetStep changes them). With a
// condim-3 contact's direction held, the steps shrank a humanoid's residual by a third each where
// its feet slid (the sweeps turn the friction slowly).
// Measured (perturbed runs, mean step time; README): pgs's steps converged on the squat 70% -> 77%
// (16 runs), the lying humanoid 94% -> 97% (16), 22_humanoids 59% -> 64% (8), the dog 35% -> 37%
// (8), each step 7% to 13% slower (more and larger factorizations); admm's polishing on
// 22_humanoids 89% -> 91%, the squat 95% -> 96%, the dog a draw (24 runs: 73% -> 66% with every
// joint perturbed, 69% -> 72% with one). Trying the held direction first and the angles after it
// left the squat at 72%; the held direction again after an angle step that failed gained nothing.
// A step cut short by a bound goes on from there on a new active set (an active-set method): the
// blocks that stopped it change sides (changeSides), up to kActivePasses sets. Before, a step from
// a warm start whose set was not the solution's stopped at the first bound and was seldom kept:
// the 1000:1 stack's resting step from zero forces took 125510 sweeps to 1e-4, now 2. Measured
// (perturbed runs as above, MuJoCo 4.0.0): pgs's steps converged on the squat 77% -> 89%,
// 22_humanoids 64% -> 84% (1040 -> 966 us a step), the lying humanoid 80% -> 88% (64 runs),
// the dog 37% -> 44%, the Shadow hand 87% -> 88%; admm's squat 96% -> 96%, 22_humanoids 91% ->
// 95%, the dog (24 runs) 66% -> 67%; raisim's squat 30% -> 41%, 22_humanoids 21% -> 31%, but the
// lying humanoid 41% -> 28% (64 runs): its sweeps stall more often from the sets the passes reach
// (with only the normal forces' bounds passed, 39%, but the 1000:1 stack lost again). Also tried:
// a full step that left a sticking contact slipping or separating in a row that depends on the
// others' (a hyperstatic set whose stabilization no rigid motion meets) turned that contact to
// sliding (the lying humanoid 82% -> 80%, 3 passes) or let it go (above the tolerance:
// 22_humanoids 84% -> 80%, the squat 89% -> 87%); keeping the best of the passes in place of the
// last: a draw. What ended those solves instead: a full step that leaves a loaded contact moving
// in a dropped row moves the forces along a null vector until a contact lets go, and a held
// contact left penetrating joins again (activeSetStep, rejoin). Measured against the passes
// alone (as above): pgs's lying humanoid 87.8% -> 90.8% (64 runs), the squat 88.7% -> 89.8%,
// 22_humanoids 83.8% -> 84.8%, the dog 38.3% -> 37.2% (24), the Shadow hand 88.2% -> 88.6%;
// admm's lying humanoid 97.3% -> 99.2% (32), the dog 67.2% -> 76.6% (24), the squat and
// 22_humanoids unchanged; the 1000:1 stack's step from MuJoCo 3.12's resting state 29290 -> 2
// sweeps to 1e-4. A block already at its bound where the step starts (a normal force of 1.6e-5 N
// that the step would take below zero: a step of length 0) changes sides too; before, such a step
// ended the passes and was not kept, and the sweeps took 30 more to let that contact go: pgs on
// acs-bench's lying humanoid 24.6 -> 3.8 sweeps a step. Measured against stopping there:
// pgs's squat 89.8% -> 92.6%, 22_humanoids 84.8% -> 89.5%, the dog 37.2% -> 45.0% (24 runs),
// the lying humanoid 90.8% -> 88.4% (64), the Shadow hand 88.7% -> 86.2% (24); admm's squat
// 96.0% -> 98.8%, 22_humanoids 94.7% -> 97.9%, the dog 76.6% -> 83.9%, the lying humanoid 99.2%
// -> 99.6%; raisim's squat 40.8% -> 51.7%, 22_humanoids 30.8% -> 43.2%, the lying humanoid
// 28.1% -> 35.8% (64). Return 1 if kept. dense (Nullable): the matrix to read; tol: the
// solver's tolerance
static int subspaceStep(mjtNum* force, mjtNum* ncp, mjtNum* res, acsSweep* gs,
                        const acsProblem* p, const island* is, int model,
                        const acsDenseG* dense, int angles, mjtNum tol) {
  // the island's forces, velocities, w and active set before the step
  saveState(&gs->before, gs, p, is, force);
  gs->moved = gs->rejoined = 0;
  mjtNum ncpnew = *ncp, resnew = *res;
  gs->angles = angles;

  // a step cut short by a bound: the blocks that stopped it change sides, and the step on the new
  // active set goes on from there; after a full step above the tolerance, a held contact left
  // penetrating joins the set (rejoin); kActivePasses sets at most
  for (int pass=0; pass < kActivePasses; pass++) {
    mjtNum t;
    int nblocked = activeSetStep(&t, force, &ncpnew, &resnew, gs, p, is, model, dense, tol);
    if (nblocked == 0 && t >= 1 && resnew > tol && angles && rejoin(gs, p, is)) {
      continue;
    }
    if (nblocked <= 0 || !(t >= 0) || t >= 1 || !(resnew < 1e300)) {
      break;
    }
    changeSides(force, gs, p, is);
    islandResidual(&ncpnew, &resnew, gs, p, is, force, model);
    if (!(resnew < 1e300)) {      // a blocked pass returns unmeasured (activeSetStep)
      break;
    }
  }

  if (resnew < kSubspaceGain * *res) {
    *ncp = ncpnew;
    *res = resnew;
    return 1;
  }

  // not kept: the forces, w, velocities and active set back, exactly
  restoreState(force, gs, &gs->before, p, is);
  return 0;
}


// the largest force change of the sweep over the island's rows, at most rel_tolerance times the
// largest force
static int islandStalled(const mjtNum* force, const acsSweep* gs, const acsProblem* p,
                         const island* is, mjtNum rel_tolerance) {
  mjtNum change = 0, fmax = 0;
  for (int j=0; j < is->nblock; j++) {
    int adr = p->block_adr[is->block[j]], dim = p->block_dim[is->block[j]];
    for (int r=adr; r < adr + dim; r++) {
      change = mju_max(change, mju_abs(force[r] - gs->fprev[r]));
      fmax = mju_max(fmax, mju_abs(force[r]));
    }
  }
  return change <= rel_tolerance * fmax;
}


int acs_testGaussSeidelRestart = 1;


// the island's forces set to zero, w formed again (the other islands' forces kept); return 0 if
// they were zero already
static int zeroIsland(mjtNum* force, acsSweep* gs, const acsProblem* p, const island* is) {
  int nonzero = 0;
  for (int j=0; j < is->nblock; j++) {
    int k = is->block[j], adr = p->block_adr[k];
    for (int r=adr; r < adr + p->block_dim[k]; r++) {
      nonzero |= force[r] != 0;
      force[r] = 0;
    }
  }
  if (nonzero) {
    acs_mulYT(gs->w, p, force);
  }
  return nonzero;
}


// projected block Gauss-Seidel on one island, from its current forces (w and a current);
// return an acstStatus, the number of sweeps in *niter and the last NCP residual in *last
static int solveIsland(mjtNum* force, int* niter, mjtNum* last, acsStats* stats, acsSweep* gs,
                       const acsProblem* p, const island* is, const acsSettings* s, int model,
                       mjtNum relax, mjtNum relax_min, mjtNum gamma, acsfContactUpdate update,
                       void* arg, mjtNum done) {
  int maxiter = acs_maxiter(s);
  mjtNum ncp, res;
  islandResidual(&ncp, &res, gs, p, is, force, model);
  *niter = 0;
  *last = ncp;
  if (res <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }
  gs->gn = 0;                     // G of this island not formed yet
  int subspace = model == acsMODEL_NCP && is->nrow <= acsSUBSPACE_ROWS &&
                 (s->subspace == 2 || (s->subspace == 1 && s->solver != acsSOL_RAISIM));
  activeSet(gs, force, p, is, model);

  const acsBlocks* B = &gs->blocks;
  // the first sweep that may take a subspace step: where the step solves sliding contacts'
  // directions (pgs; raisim with acs_raisim_desaxce), the first, if it leaves the warm start's
  // active set as it was (the last step's solution: a contact sliding there is on its cone's
  // edge, which the second sweep often leaves for the inside, and the step then needs a pass for
  // each such contact to find it sliding again: 2.4 passes a step on the lying humanoid, now 1).
  // Measured (acs-bench, lying humanoid, MuJoCo 4.0): pgs 2.45x -> 1.53x mj_step, 100% of the
  // steps converged both; perturbed runs (every joint, 8 each): the dog 76.9% -> 78.8%
  // converged, the squat 97.3% -> 97.8%, 22_humanoids 95.7% -> 97.0%, the Shadow hand 93.5% ->
  // 92.4% (a draw: 92.2% -> 92.1% and 96.3% -> 96.2% at other amplitudes). RaiSim's step keeps
  // its directions and waits for the second sweep: with the first, its lying humanoid took 5%
  // more instructions a step
  int angles = s->solver != acsSOL_RAISIM || s->raisim_desaxce;
  int next = angles ? 0 : 1;
  int gap = kSubspaceGap;         // sweeps to the next one after a step kept
  int tried = 0;                  // steps tried
  int restart = subspace && s->solver == acsSOL_PGS && acs_testGaussSeidelRestart;   // once
  int keptAt = -1;                // the sweep of the last subspace step kept
  mjtNum measured[kRestartWindow];   // the residual of the measured sweeps, by iter mod the window
  for (int iter=0; ; iter++) {
    // sweep, w = Y' f (B' f) kept current
    for (int j=0; j < is->nblock; j++) {
      int k = is->block[j], dim = p->block_dim[k], adr = p->block_adr[k];
      acsASSERT(dim >= 1 && dim <= 6);   // acs_checkProblem and the assembly guarantee it
      if (gs->partner[k] >= 0) {         // a limit with its friction loss, at the limit
        if (p->block_type[k] == acsBLOCK_LIMIT) {
          pairUpdate(force, gs, p, k, relax);
        }
        continue;
      }
      mjtNum* f = force + adr;
      mjtNum a[6], df[6];
      mju_copy(gs->fprev + adr, f, dim);
      acs_velocityBlock(a, p, k, gs->w, force, gs->blocks.shared[k]);
      if (!acs_updateSimpleBlock(f, a, B, p, k, relax)) {
        update(f, a, B, p, k, relax, arg);
      }
      for (int r=0; r < dim; r++) {
        df[r] = f[r] - gs->fprev[adr+r];
      }
      acs_addYTBlock(gs->w, p, k, df, gs->blocks.shared[k]);
    }
    *niter = iter + 1;
    int stalled = islandStalled(force, gs, p, is, s->rel_tolerance);
    if (!stalled && !acs_measuredIteration(iter, maxiter)) {
      acs_islandHistory(stats, iter, NAN, done);   // not measured
      relax = gamma * relax + (1 - gamma) * relax_min;
      continue;
    }
    islandResidual(&ncp, &res, gs, p, is, force, model);

    // subspace minimization once the sweeps keep the active set (from the first sweep on: next),
    // the gap between steps doubling; after a step that was not kept, only on a new active set
    if (subspace && !(res <= s->tolerance) && isfinite(res)) {
      if (!activeSet(gs, force, p, is, model)) {
        next = next == INT_MAX && tried < kSubspaceTries ? iter + 1 : next;
      } else if (iter >= next || (stalled && next != INT_MAX)) {   // or before a stall ends it
        tried++;
        stats->nfactor++;
        int kept = subspaceStep(force, &ncp, &res, gs, p, is, model, NULL, angles, s->tolerance);
        keptAt = kept ? iter : keptAt;
        next = kept && tried < kSubspaceTries ? iter + gap : INT_MAX;
        gap = gap < maxiter ? 2 * gap : gap;
        if (kept) {
          stalled = islandStalled(force, gs, p, is, s->rel_tolerance);   // the forces moved
        }
      }
    }

    // a residual stalled over the window, no subspace step kept in it: the island starts again
    // from zero forces (not after a sweep that moved no force: that ends the solve as stalled,
    // with its forces)
    int back = iter - kRestartWindow;
    if (restart && !stalled && back >= 0 && keptAt <= back &&
        acs_measuredIteration(back, maxiter) && iter + kRestartWindow < maxiter &&
        res > kRestartGain * measured[back % kRestartWindow] &&
        res > kRestartAbove * s->tolerance) {
      restart = 0;
      if (zeroIsland(force, gs, p, is)) {
        islandResidual(&ncp, &res, gs, p, is, force, model);
        activeSet(gs, force, p, is, model);
        next = iter + 1;
        gap = kSubspaceGap;
        tried = 0;
      }
    }
    measured[iter % kRestartWindow] = res;

    // end of the iteration
    acs_islandHistory(stats, iter, ncp, done);
    *last = ncp;
    if (!isfinite(res) || !isfinite(ncp)) {
      return acsSTATUS_DIVERGED;
    }
    if (res <= s->tolerance) {
      return acsSTATUS_CONVERGED;
    }
    if (stalled) {
      return acsSTATUS_STALLED;
    }
    if (iter + 1 >= maxiter) {
      return acsSTATUS_MAXITER;
    }
    relax = gamma * relax + (1 - gamma) * relax_min;
  }
}


//---------------------------------- the step for other solvers -----------------------------------

int acs_subspaceStep(mjtNum* force, mjtNum* ncp, mjtNum* res, acsSweep* gs, const mjtNum* w,
                     const acsProblem* p, const int* blocks, int nblock, int nrow,
                     const acsDenseG* dense, mjtNum tol) {
  island is = {blocks, nblock, nrow};
  if (nrow > acsSUBSPACE_ROWS) {
    return -1;
  }
  mju_copy(gs->w, w, p->nv);
  gs->gn = -1;                    // no island matrix kept: the rows the step needs are formed
  for (int j=0; j < nblock; j++) {   // activeSet compares with the set before: none here
    gs->active[blocks[j]] = 0;
    gs->blocks.shared[blocks[j]] = (unsigned char) acs_sharedPattern(p, blocks[j]);
  }
  activeSet(gs, force, p, &is, acsMODEL_NCP);
  islandResidual(ncp, res, gs, p, &is, force, acsMODEL_NCP);
  return subspaceStep(force, ncp, res, gs, p, &is, acsMODEL_NCP, dense, 1, tol);
}


//---------------------------------- Gauss-Seidel driver -------------------------------------------

int acs_gaussSeidel(mjtNum* force, acsStats* stats, acsSweep* gs, const acsProblem* p,
                    const acsSettings* s, int model, mjtNum relax, mjtNum relax_min,
                    mjtNum gamma, acsfContactUpdate update, void* arg) {
  // the warm start (or zero forces if better), w = Y' f (B' f), a = G f + b and their residuals:
  // done if it already solves the problem
  mjtNum ncp, res;
  acs_startForces(force, gs->w, gs->a, &ncp, &res, stats, p, model);
  if (res <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }

  // each island to convergence (a, w current for every row at the end)
  acs_islandBlocks(gs->island_block, gs->island_start, gs->rows, p);
  pairRows(gs, p);
  memset(gs->active, 0, p->nblock);
  int status = acsSTATUS_CONVERGED;
  mjtNum done = 0;                // largest last residual of the islands solved
  for (int i=0; i < acs_islandCount(p); i++) {
    island is = {gs->island_block + gs->island_start[i],
                 gs->island_start[i+1] - gs->island_start[i], acs_islandRows(p, i)};
    int niter;
    mjtNum last;
    int st = solveIsland(force, &niter, &last, stats, gs, p, &is, s, model, relax, relax_min,
                         gamma, update, arg, done);
    status = acs_worseStatus(status, st);
    stats->niter = mjMAX(stats->niter, niter);
    acs_islandHistoryEnd(stats, niter, last);
    done = mju_max(done, last);
  }
  stats->residual = acs_residual(p, force, gs->a, acsMODEL_NCP);
  return status;
}
