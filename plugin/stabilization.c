// Copyright 2026 The acs authors.
//
// Consistent stabilization. Baumgarte's bias asks each penetrating contact, and each violated
// limit, for its own recovery speed v* = baumgarte (depth - slop) / h. A body held by more rows
// than it has degrees of freedom cannot meet independent requests: a foot on the four ends of its
// two capsules has three normal motions (lift and two tilts) for four requests, and the depths
// are never exactly those of a rigid motion (the slop's clip at 0 alone breaks it). No force then
// meets every request: the NCP's solution separates contacts chosen by micrometre depth
// differences, its forces jump between contacts from step to step, and the iterative solvers
// crawl toward it (humanoid from qpos0, 300 steps: pgs converged on 45% and stalled at residuals
// of 1e-3 to 0.5 for 2000 sweeps; admm needed up to 84 000 iterations; with baumgarte 0, pgs
// converged on 97%).
//
// Before the solve, the requests of each body pair's contacts are made achievable, for a pair
// touching at two contacts or more (bodies welded together count as one). Let A be the rows of
// the pair's penetrating contacts (every row of each block), G_AA their Delassus matrix and y their
// requested velocity change (v*; zero on friction rows). Some force meets y on every row exactly
// when y lies in the range of G_AA, that is N'y = 0 for a basis N of its null space: the velocity
// combinations no force changes, one per row the pivot-dropping factor of G_AA drops. The least
// change that makes it so, y <- y - N (N'N)^-1 N'y, is the orthogonal projection onto the range
// (the least-squares projection of Cline and Pai's post-stabilization): the requests become those
// of one relative motion of the pair, as close to the per-contact ones as its freedom allows.
// Requests that a motion already meets do not change (a flat box sinking evenly). The friction
// rows get requests only through lever arms: MuJoCo places a contact at mid-penetration, so the
// corners of a tilted box lie at heights differing by their depths, and the tilt that meets their
// normal requests moves them sideways by that difference times its rate (micrometres a second).
// Demanding zero there instead forbids every tilt: only a lift would be left, and the box's pgs
// solve stalls.
//
// Two contacts already: with their friction rows, two points of one rigid body cannot change their
// distance (six rows, five motions), and two capsule ends at different depths lie at different
// heights, so per-contact requests (normal recovery, no slip) ask for exactly that. The squat
// humanoid's first 50 steps had 7 such steps on a foot's two contacts, where 20 000 pgs sweeps
// did not lower the residual (0.54 at step 30); counted from two contacts, every step of the 50
// that stops at the 100 sweeps converges with more (a mean of 209). Over 300 steps, six runs each
// (a joint started at 0 to 5e-6 rad/s; the dog's from 0 to 7e-6, eight runs, after 100): pgs 1160
// -> 1322 steps converged on the squat, 1562 -> 1715 from qpos0; admm 1467 -> 1537 and 1643 ->
// 1773; raisim 677 -> 534 on the squat, 1333 -> 1380 from qpos0. On dm_control's dog pgs 776 ->
// 717, admm 1666 -> 1688, raisim 117 -> 233: a single run there moves by a factor of two with the
// starting speed.
//
// Per pair, not per island: over a whole island (every penetrating contact and violated limit of
// a humanoid) the requests become those of one motion of the mechanism: it costs a dense factor of
// the island's rows each step, helped 22_humanoids no more, and on the lying humanoid tripled pgs's
// sweeps (2.0 -> 6.7 a step, 1.6x -> 2.7x mj_step; per pair: 3.8, 2.0x).
//
// Equality rows are left out (a weld pulling a body into a floor is infeasible, and the pipeline
// drops such an island's stabilization), and so are limits; a pair with more than kStabRows rows
// keeps its requests.

#include "stabilization.h"

#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "dense.h"
#include "operator.h"
#include "util_errmem.h"

// largest pair (rows of A) made consistent: the dense factor costs n^3 / 6
#define kStabRows 128

// a row whose pivot in the factor of G_AA is at most this times its diagonal (the squared sine of
// its angle to the rows before it) depends on them, as in the Gauss-Seidel subspace step
#define kStabPivot 1e-7

// the pair key of a block that takes no part (not a contact, or not penetrating)
#define kNoPair (-2)


// the rigid body pair of contact block k (bodies welded together count as one), or -1 (a flex)
static long pairOf(const mjModel* m, const mjData* d, const acsProblem* p, int k) {
  const mjContact* con = d->contact + p->block_id[k];
  if (con->geom[0] < 0 || con->geom[1] < 0) {
    return -1;
  }
  long b1 = m->body_weldid[m->geom_bodyid[con->geom[0]]];
  long b2 = m->body_weldid[m->geom_bodyid[con->geom[1]]];
  return b1 < b2 ? b1*m->nbody + b2 : b2*m->nbody + b1;
}


// the rows A of the penetrating contacts between the pair of block k0 (key: each block's pair,
// kNoPair for a block left out, -1 for a flex's), from k0 on, in rows and marked done; return
// their number (n > kStabRows: only counted), *any: some row has a request
static int heldRows(int* rows, int* any, unsigned char* done, const long* key, const acsProblem* p,
                    const mjtNum* vstab, int k0) {
  int n = 0, ncon = 0;
  *any = 0;
  long pair = key[k0];
  for (int k=k0; k < p->nblock; k++) {
    if (done[k] || key[k] != pair || (pair < 0 && k != k0)) {
      continue;
    }
    int adr = p->block_adr[k];
    done[k] = 1;
    ncon++;
    for (int r=0; r < p->block_dim[k]; r++, n++) {
      if (n < kStabRows) {
        rows[n] = adr + r;
      }
    }
    *any |= vstab[adr] != 0;
  }
  *any &= ncon >= 2;
  return n;
}


int acs_consistentStabilization(acsContext* ctx, const mjModel* m, const mjData* d) {
  acsProblem* p = &ctx->problem;
  if (!ctx->settings.consistent_stabilization || !p->B || p->nefc == 0) {
    return 0;
  }
  mjtNum* b = acsBUF(ctx, b, mjtNum);
  mjtNum* vstab = acsBUF(ctx, vstab, mjtNum);
  mjtNum h = p->timestep;
  int nmax = p->nefc < kStabRows ? p->nefc : kStabRows;
  size_t nkey = p->nblock * sizeof(long), nrows = nmax * sizeof(int);
  if (acs_bufferReserve(&ctx->mem, &ctx->stab_rows, nkey + nrows + p->nblock, 1) ||
      acs_bufferReserve(&ctx->mem, &ctx->stab_work, 3*(size_t)nmax*nmax + 3*(size_t)nmax,
                        sizeof(mjtNum))) {
    return -1;
  }
  acsColumns cols;
  acsArena sizing = {NULL, 0};
  acs_columnsLayout(&cols, &sizing, p);
  if (acs_bufferReserve(&ctx->mem, &ctx->stab_cols, sizing.used, 1)) {
    return -1;
  }
  acsArena arena = {acsBUF(ctx, stab_cols, char), 0};
  acs_columnsLayout(&cols, &arena, p);
  long* key = acsBUF(ctx, stab_rows, long);
  int* rows = (int*)((char*)key + nkey);
  unsigned char* done = (unsigned char*)rows + nrows;
  memset(done, 0, p->nblock);
  for (int k=0; k < p->nblock; k++) {
    int penetrating = p->block_type[k] == acsBLOCK_CONTACT && p->pos[p->block_adr[k]] < 0;
    key[k] = penetrating ? pairOf(m, d, p, k) : kNoPair;
  }
  mjtNum* G = acsBUF(ctx, stab_work, mjtNum);
  mjtNum* y = G + (size_t)nmax*nmax;
  mjtNum* work = y + nmax;
  mjtNum* scratch = acsBUF(ctx, dofvec, mjtNum);

  for (int k=0; k < p->nblock; k++) {
    if (done[k] || key[k] == kNoPair) {
      continue;
    }
    int any;
    int n = heldRows(rows, &any, done, key, p, vstab, k);
    if (!any || n > kStabRows) {
      continue;
    }
    acs_delassusColumns(G, p, rows, n, NULL, scratch, &cols);
    for (int j=0; j < n; j++) {
      y[j] = vstab[rows[j]];
    }
    acs_denseProjectRange(y, G, n, work, kStabPivot);
    for (int j=0; j < n; j++) {
      int r = rows[j];
      b[r] += (vstab[r] - y[j]) / h;
      vstab[r] = y[j];
    }
  }
  return 0;
}
