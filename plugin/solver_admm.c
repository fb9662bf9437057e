// Copyright 2026 The acs authors.
//
// ADMM on the NCP with the De Saxce fixed point (admm), and on the CCP (ccp-admm): the proximal
// ADMM of Carpentier et al. as in Pinocchio's ADMMContactSolver and Alg. 6 of the NCP benchmark
// (Le Lidec et al. use it as "NCP/ADMM"). With a = (G + R) f + b, penalty rho, proximal weight
// eta, over-relaxation omega and s = Gamma(z) the De Saxce shift (s = 0 for the CCP):
//
//   x+ = -F^-1 (b + s - eta x - rho y - z),     F = G + R + (eta + rho) I
//   x^ = omega x+ + (1 - omega) y
//   y+ = P_K(x^ - z / rho)                      (the forces: always feasible)
//   z+ = z + rho (y+ - x^)                      (tends to a + Gamma(a))
//
// A fixed point has (G + R) y + b + s = z with y = P_K(y - z / rho), i.e. K ∋ y _|_ z ∈ K*, and
// z_t = a_t so s = Gamma(a): the NCP. Every row kind has its set K: free (equality), a box
// (friction loss), the half-line (limits, condim 1) and the friction cone (contacts).
//
// F is block-diagonal over the problem's islands (bodies coupled through shared trees). An island
// of up to kDenseRows rows is assembled from the problem's sparse rows (B, or J and Y) and
// factorized densely (refactorized when rho changes), so independent bodies never form one
// nefc x nefc matrix; a larger island (a pile of stones) is never formed at all. With F =
// A M^-1 A' + Lambda (A = D J, Lambda = D R D + (eta + rho) I, diagonal), Woodbury's identity
// gives its x-update from the dofs' side, F^-1 = Lambda^-1 - Lambda^-1 A K^-1 A' Lambda^-1 with
// K = M + A' Lambda^-1 A over the dofs of the island's trees: K has the sparsity of bodies in
// contact and is factored by the supernodal Cholesky (hessian.c), so a wall of boxes costs about
// its number of contacts per iteration (without compliance, Lambda = (eta + rho) I: J' D^2 J is
// summed once per solve, and a penalty change forms K from M and J' D^2 J / (eta + rho) before
// factoring it). Without M (a hand-built problem), or when that factor
// needs more than its workspace, conjugate gradients on F applied through the rows,
// preconditioned by the inverses of F's diagonal blocks and warm-started from the previous x,
// solve it.
//
// The penalty follows the spectral rule on the scaled problem (below): rho0 = sqrt(L m) (L/m)^power
// with L = lambda_max(G~) by power iteration and m = eta (admm_rho > 0 fixes rho instead);
// rho *= (L/m)^factor when the primal residual max |x - y| exceeds ratio times the dual residual
// max |eta dx + rho dy|, rho /= (L/m)^factor in the reverse case, both measured on the scaled
// problem, whose unit diagonal makes forces and velocities comparable; rho stays in
// [m, max(L, m)]. The final rho starts the next solve (the solver state carries it).
//
// From its 10th iteration on (a hard solve: most end before, from their warm start), the iteration
// is Anderson-accelerated (type II, admm_anderson differences, as in Zhang, O'Donoghue and Boyd's
// and SCS's use on ADMM): with u = (x, y, z), T one iteration and g = T(u) - u, the next u is
// T(u) - dF gamma, gamma the least-squares fit of g by the last differences dG of g (dF of T). Its
// memory is cleared when rho changes (T changes), on a restart, when g grows 2-fold in one
// iteration, or when the residual reaches 10 times the lowest of the solve (the extrapolation
// speeds a drift up as much as a convergence); after kAAStall iterations without a new lowest
// residual it is off for the rest of the solve (near the rounding floor it stagnates: a 1e-9
// solve ran to its 20000-iteration limit where the plain one took 500). The forces are still
// those of the plain iterate (projected: feasible); only the next iteration starts from the
// extrapolated point. Measured (acs-bench, 300 steps, acs_admm_anderson 0 and 5 alternating,
// twice, metrics off): admm's share of steps converged 72% -> 92% on 22_humanoids, 45% -> 85% on
// the Shadow hand, 5% -> 18% on the dog; its step time 2.8x -> 2.1x mj_step on the lying humanoid,
// 2.8x -> 2.3x on 22_humanoids, 1.40x -> 1.26x on humanoid_CMU, but 10.6x -> 12.0x on the Shadow
// hand, 4.9x -> 5.3x on the dog; ccp-admm 71% -> 98% on 22_humanoids (2.6x -> 2.2x), 1.59x ->
// 1.72x on the lying humanoid.
//
// acs_admm_check k (default 2) measures the residual on every k-th iteration and the last only; the
// stopping test, the best iterate, the penalty update and the residual-based Anderson safeguards
// happen there, the iterations between run the plain update (or Anderson's) and keep the penalty.
// Fewer penalty changes mean fewer refactorizations and Anderson memories that last longer: with
// 2 against 1, 22_humanoids (from its keyframe) 239 -> 176 factorizations a step and 74% -> 78%
// of its steps converged, the squat 85% -> 90% (README); with 3 fewer still (3.46G -> 2.72G
// instructions on 22_humanoids, 1 -> 3), but on the 1000:1 stack ccp-admm's penalty then follows
// a contact switch too slowly, and a few resting steps in 2000 stop at the limit.
//
// The iteration runs on the problem scaled row by row, f = D f~, G~ = D G D: one penalty then suits
// light and heavy bodies alike. A block's rows come in two groups, its first three (forces: a
// contact's normal and tangents, a weld's or connect's position) and the rest (torques: a
// contact's spin and rolling, a weld's rotation), and each group takes d = 1/sqrt(mean of its
// diagonal of G + R): G~'s diagonal is near one, and rows of one unit keep their ratios. An
// elliptic cone stays one under such a scaling, with coefficients mu~_j = mu_j d_n / d_j (for the
// dual cone and the De Saxce term alike); box bounds scale by 1/d. One scale per block, as
// before, weighed a contact's forces by its torque rows, whose diagonal is 1/(I r^2)-like: on
// dm_control's dog (condim-6 paws) and the Shadow hand the force rows' diagonal fell to 1e-2 of
// the torque rows', which no penalty suits. Measured (acs-bench, 300 steps after 100, metrics
// cheap, one build with both scalings on a switch): admm's share of steps converged 18% -> 76% on
// the dog (5.2x -> 2.6x mj_step), 84% -> 100% on the Shadow hand (12.3x -> 3.2x), 64% -> 99% on
// Adroit's pen; ccp-admm 26% -> 52% (dog) and 90% -> 100% (hand); scenes of condim-3 contacts
// alone (the humanoids) unchanged to the bit.
//
// The solve stops on the residual of its law (NCP or CCP, residual.c) of the unscaled forces,
// like every acs solver. ADMM's iterates are not monotone: an interrupted solve returns its best
// iterate: the NCP's best has the lowest residual, the CCP's the lowest objective
// 1/2 f'(G + R) f + b'f (never worse than the warm start's). The iterates are feasible, and a
// feasible f exceeds the optimum by at least 1/2 (f - f*)'(G + R)(f - f*) (the M-norm of its
// error in qacc), whereas the residual mixes forces, velocities and their products: a warm start
// lacking the force of a new contact has a moderate residual (its dual violation), the iterates
// building that force up have larger ones (their complementarity f.a) until they nearly
// converge. Chosen by residual, the interrupted solve kept returning the warm start, and
// dm_control's dog sank through the floor; the NCP, which has no objective, leaves the warm start
// out of the choice for the same reason (Shadow hand's egg sank 3 cm into the palm).

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "dense.h"
#include "hessian.h"
#include "operator.h"
#include "residual.h"
#include "solvers.h"
#include "solver_util.h"
#include "gauss_seidel.h"

#define kPowerIterations 20       // power iteration for L = lambda_max(G~) (Pinocchio: 20)
#define kPowerTolerance 1e-3      // relative change that ends it: L enters rho as (L/m)^0.2
#define kDenseRows 200            // largest island factorized densely (200^3/3 flops)
#define kWoodburyRows 60          // an island of more rows than this and kWoodburyRatio times
#define kWoodburyRatio 2          //   the dofs of its trees takes Woodbury's identity (wall of 8
                                  //   boxes: 153 rows on 48 dofs, admm 4.1x -> 2.9x mj_step)

int acs_testAdmmDenseRows = 0;
int acs_testAdmmIterative = 0;
int acs_testAdmmBlockScale = 0;

// largest island factorized densely: kDenseRows, or the tests' choice
static int denseRows(void) {
  return acs_testAdmmDenseRows > 0 ? acs_testAdmmDenseRows : kDenseRows;
}
#define kCGTolerance 1e-12        // conjugate gradients: relative residual of the x-update
#define kCGMaxIter 1000           // conjugate gradients: iteration limit
#define kBlowup 1e4               // restart cold when the residual exceeds this times the start's
#define kAAMem 5                  // Anderson acceleration: differences kept at most (the
                                  //   largest admm_anderson)
#define kAAStart 10               // Anderson acceleration: from this iteration on
#define kAAStall 20               // Anderson acceleration: off after this many measured iterations
                                  //   without a new lowest residual
#define kMinNormPivot 1e-7        // subspace start's least change: a dof whose pivot in the
                                  //   factor of J~'J~ on its rows (a row, in that of G~_FF) is
                                  //   at most this times its diagonal depends on those before it
                                  //   (acs_projectRange, as in consistent stabilization)
#define kPolishMax 2              // acs_admm_polish: subspace steps a solve at most
#define kPolishBelow 1e3          // acs_admm_polish: tried below this many tolerances

typedef struct admmWork_ {
  int*    island_start;           // first entry of island i in island_rows   (nisland + 1)
  int*    island_rows;            // rows grouped by island                   (nefc)
  int*    island_Fadr;            // address of island i's dense matrices, -1: iterative (nisland)
  int*    island_bstart;          // first entry of island i in island_block  (nisland + 1)
  int*    island_block;           // blocks grouped by island                 (nblock)
  mjtNum* G;                      // dense island blocks of G + R, unscaled   (sum n_i^2, dense)
  acsColumns cols;                // their assembly by the columns of B
  mjtNum* F;                      // their Cholesky factors with (eta + rho) I (sum n_i^2, dense)
  mjtNum* Pinv;                   // iterative islands: inverse diagonal blocks of F (sum dim^2)
  mjtNum* Gkk;                    // iterative islands: diagonal blocks of D (G + R) D (sum dim^2)
  int*    Padr;                   // address of block k in Pinv and Gkk       (nblock)
  mjtNum *cr, *cp, *cq, *cz;      // conjugate gradient vectors (cp: scratch of dense islands too)
                                  //                                          (nefc)
  mjtNum sigma;                   // current diagonal shift eta + rho
  mjtNum *x, *xprev, *y, *yprev, *z, *s, *rhs, *a, *loc;   // (nefc)
  mjtNum *d;                      // row scaling f = d f~                     (nefc)
  mjtNum *mu;                     // contacts' cone coefficients for f~      (5 nblock)
  mjtNum *f;                      // unscaled forces                          (nefc)
  mjtNum *best;                   // unscaled forces of the best iterate      (nefc)
  mjtNum *w;                      // dof vector                               (nv)
  mjtNum *wz;                     // dof vector, zero between uses            (nv)
  int     n3;                     // 3 nefc
  int     wcleared;               // w was cleared on every dof since acs_startForces formed it
  mjtNum *zprev;                  // z before the iteration                   (nefc)
  mjtNum *aaF, *aaG;              // Anderson: differences of T(u) and of g = T(u) - u
                                  //   (kAAMem x 3 nefc; an island's packed: 3 n)
  mjtNum *aaTprev, *aaGprev, *aaGcur;   // T(u), g of the last iteration, g now (3 nefc,
                                  //   packed)
  mjtNum *aaNow;                  // T(u) now, then u+ (3 nefc, packed)
  mjtNum *aaM;                    // normal equations (kAAMem^2 + kAAMem)
  mjtNum *aaGram;                 // dG'dG of the slots (kAAMem^2)

  // large islands by Woodbury's identity (a workspace only when an island is large and M given)
  int     woodbury;               // the workspace is there
  acsHessian hs;                  // K = M + J' X J on the dofs of one island's trees
  int     hs_island;              // the island hs was analyzed for (-1: none), and whether that
  int     hs_ok, hs_factored;     //   worked, and K is factored for the present penalty
  int     hs_hard;                // 1: the island's rows have no R, and hsQ holds J' D^2 J
  mjtNum* hsQ;                    // J' D^2 J in the factor's layout (hs.sn.maxval)
  mjtNum *Jt, *JtX;               // each block's J' and J' X, X = D Lambda^-1 D (nnzJ)
  int*    Jtadr;                  // address of block k's in Jt and JtX       (nblock)
  int*    inset;                  // the island's dofs                        (nv)
  int*    island_ndof;            // dofs of each island's trees              (nisland)
  int*    couple;                 // the island's blocks                      (nblock)
  mjtNum* lambda;                 // Lambda's diagonal                        (nefc)
  mjtNum* t;                      // dof vector                               (nv)

  // the subspace step on the warm start and the iterate
  acsSweep sub;                   // its workspace
  mjtNum* fsub;                   // the island's forces after it             (nefc)
  int*    pos;                    // a row's place in its island              (nefc)
  int*    mnrows;                 // its least change: the rows at rest       (nefc)
  mjtNum* mndy;                   //   their change, scaled                    (nefc)
  int     nmn;                    //   most rows of a dense island it takes
  mjtNum* mnG;                    //   their G~_FF                             (nmn x nmn)
  mjtNum* mnwork;                 //   its projection's work          (2 nmn^2 + nmn)
} admmWork;


// number of islands and their row counts (one island if the problem has none)
static void admmLayout(void* work, acsArena* arena, const acsProblem* p) {
  admmWork* aw = (admmWork*)work;
  int nisland = acs_islandCount(p);
  size_t nG = 0, nP = 0;
  for (int i=0; i < nisland; i++) {
    int ni = acs_islandRows(p, i);
    nG += ni <= denseRows() ? (size_t)ni * ni : 0;
  }
  for (int k=0; k < p->nblock; k++) {
    nP += (size_t)p->block_dim[k] * p->block_dim[k];
  }
  int n = p->nefc;
  aw->island_start = acs_arenaAlloc(arena, nisland + 1, sizeof(int));
  aw->island_rows  = acs_arenaAlloc(arena, n, sizeof(int));
  aw->island_Fadr  = acs_arenaAlloc(arena, nisland, sizeof(int));
  aw->island_bstart = acs_arenaAlloc(arena, nisland + 1, sizeof(int));
  aw->island_block = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  aw->G     = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  aw->F     = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  acs_columnsLayout(&aw->cols, arena, p);
  aw->Pinv  = acs_arenaAlloc(arena, nP, sizeof(mjtNum));
  aw->Gkk   = acs_arenaAlloc(arena, nP, sizeof(mjtNum));
  aw->Padr  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  aw->cr    = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->cp    = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->cq    = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->cz    = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->x     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->xprev = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->y     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->yprev = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->z     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->s     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->rhs   = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->a     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->loc   = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->d     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->mu    = acs_arenaAlloc(arena, 5 * (size_t)p->nblock, sizeof(mjtNum));
  aw->f     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->best  = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->w     = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  aw->wz    = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
  aw->n3    = 3 * n;
  aw->zprev = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->aaF   = acs_arenaAlloc(arena, (size_t)kAAMem * 3 * n, sizeof(mjtNum));
  aw->aaG   = acs_arenaAlloc(arena, (size_t)kAAMem * 3 * n, sizeof(mjtNum));
  aw->aaTprev = acs_arenaAlloc(arena, 3 * n, sizeof(mjtNum));
  aw->aaGprev = acs_arenaAlloc(arena, 3 * n, sizeof(mjtNum));
  aw->aaGcur  = acs_arenaAlloc(arena, 3 * n, sizeof(mjtNum));
  aw->aaNow   = acs_arenaAlloc(arena, 3 * n, sizeof(mjtNum));
  aw->aaM   = acs_arenaAlloc(arena, kAAMem * kAAMem + kAAMem, sizeof(mjtNum));
  aw->aaGram = acs_arenaAlloc(arena, kAAMem * kAAMem, sizeof(mjtNum));
  acs_sweepLayout(&aw->sub, arena, p);
  aw->fsub  = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->pos   = acs_arenaAlloc(arena, n, sizeof(int));
  aw->mnrows = acs_arenaAlloc(arena, n, sizeof(int));
  aw->mndy  = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  aw->nmn = 0;
  for (int i=0; i < nisland; i++) {
    int ni = acs_islandRows(p, i);
    if (ni <= mjMIN(denseRows(), acsSUBSPACE_ROWS) && ni > aw->nmn) {
      aw->nmn = ni;
    }
  }
  aw->mnG   = acs_arenaAlloc(arena, (size_t)aw->nmn * aw->nmn, sizeof(mjtNum));
  aw->mnwork = acs_arenaAlloc(arena, 2 * (size_t)aw->nmn * aw->nmn + aw->nmn, sizeof(mjtNum));

  int large = 0;
  for (int i=0; i < nisland; i++) {
    large |= acs_islandRows(p, i) > mjMIN(denseRows(), kWoodburyRows);
  }
  aw->woodbury = large && p->M && !acs_testAdmmIterative;
  aw->hs_island = -1;
  aw->hs_ok = aw->hs_factored = 0;
  if (aw->woodbury) {
    acs_hessianLayout(&aw->hs, arena, p);
    aw->hsQ    = acs_arenaAlloc(arena, aw->hs.sn.maxval, sizeof(mjtNum));
    aw->Jt     = acs_arenaAlloc(arena, p->nnzJ, sizeof(mjtNum));
    aw->JtX    = acs_arenaAlloc(arena, p->nnzJ, sizeof(mjtNum));
    aw->Jtadr  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
    aw->inset  = acs_arenaAlloc(arena, p->nv, sizeof(int));
    aw->couple = acs_arenaAlloc(arena, p->nblock, sizeof(int));
    aw->lambda = acs_arenaAlloc(arena, n, sizeof(mjtNum));
    aw->t      = acs_arenaAlloc(arena, p->nv, sizeof(mjtNum));
    aw->island_ndof = acs_arenaAlloc(arena, nisland, sizeof(int));
  }
}


size_t acs_admmWorkspace(const acsProblem* p, const acsSettings* s) {
  (void)s;
  admmWork aw;
  return acs_layoutBytes(admmLayout, &aw, p);
}


// group the rows by island and assemble the dense island blocks of G + R
static void buildIslands(admmWork* aw, const acsProblem* p) {
  int nisland = acs_islandCount(p);

  // row lists: counting sort by island
  aw->island_start[0] = 0;
  for (int i=0; i < nisland; i++) {
    aw->island_start[i+1] = aw->island_start[i] + acs_islandRows(p, i);
  }
  int* fill = aw->island_Fadr;   // temporary cursor, overwritten below
  for (int i=0; i < nisland; i++) {
    fill[i] = aw->island_start[i];
  }
  for (int k=0; k < p->nblock; k++) {
    int i = acs_blockIsland(p, k);
    for (int r=0; r < p->block_dim[k]; r++) {
      aw->island_rows[fill[i]++] = p->block_adr[k] + r;
    }
    aw->sub.blocks.shared[k] = (unsigned char) acs_sharedPattern(p, k);
  }
  acs_islandBlocks(aw->island_block, aw->island_bstart, fill, p);

  // row scaling: d = 1/sqrt(mean diagonal of G + R) over each group of a block's rows (a
  // block's first three rows, then the rest: forces, then torques); a contact's cone coefficients
  // for the scaled forces
  for (int k=0; k < p->nblock; k++) {
    int adr = p->block_adr[k], dim = p->block_dim[k];
    int group = acs_testAdmmBlockScale ? dim : 3;
    for (int g0=0; g0 < dim; g0 += group) {
      int g1 = mjMIN(dim, g0 + group);
      mjtNum trace = 0;
      for (int r=g0; r < g1; r++) {
        trace += acs_delassus(p, adr+r, adr+r) + (p->R ? p->R[adr+r] : 0);
      }
      mjtNum dg = trace > mjMINVAL ? 1 / mju_sqrt(trace / (g1 - g0)) : 1;
      for (int r=g0; r < g1; r++) {
        aw->d[adr+r] = dg;
      }
    }
    for (int j=0; j < 5; j++) {
      aw->mu[5*k+j] = p->block_mu[5*k+j];
      if (p->block_type[k] == acsBLOCK_CONTACT && j < dim - 1) {
        aw->mu[5*k+j] *= aw->d[adr] / aw->d[adr+1+j];
      }
    }
  }

  // the dofs of each island's trees (inset: the island of each tree's root dof, then counted)
  if (aw->woodbury) {
    for (int i=0; i < p->nv; i++) {
      aw->inset[i] = -1;
    }
    for (int k=0; k < p->nblock; k++) {
      int row = p->block_adr[k];
      for (int c=0; c < p->J_rownnz[row]; c++) {
        int dof = p->J_colind[p->J_rowadr[row] + c];
        aw->inset[p->M_colind[p->M_rowadr[dof]]] = acs_blockIsland(p, k);
      }
    }
    for (int i=0; i < nisland; i++) {
      aw->island_ndof[i] = 0;
    }
    for (int i=0; i < p->nv; i++) {
      int island = aw->inset[p->M_colind[p->M_rowadr[i]]];
      if (island >= 0) {
        aw->island_ndof[island]++;
      }
    }
  }

  // dense blocks G + R of the small islands, unscaled: D (G + R) D is formed where it is
  // factored, and the subspace step reads G + R itself (before, it divided each entry of the
  // scaled block by its rows' scales: 4% of the Shadow hand's admm step) (wz: the dof scratch,
  // zero here and left zero, as islandMatvec expects it); the large ones, and those with many
  // more rows than dofs (a pile of free bodies: K is the smaller matrix), by Woodbury's identity
  mju_zero(aw->wz, p->nv);
  size_t adr = 0;
  for (int i=0; i < nisland; i++) {
    int n = acs_islandRows(p, i);
    if (n > denseRows() || (aw->woodbury && !acs_testAdmmDenseRows && n > kWoodburyRows &&
                            n > kWoodburyRatio * aw->island_ndof[i])) {
      aw->island_Fadr[i] = -1;
      continue;
    }
    const int* rows = aw->island_rows + aw->island_start[i];
    mjtNum* G = aw->G + adr;
    aw->island_Fadr[i] = (int)adr;
    acs_delassusColumns(G, p, rows, n, NULL, aw->wz, &aw->cols);
    adr += (size_t)n*n;
  }
  if (aw->woodbury) {
    acs_blockTransposes(aw->Jt, aw->Jtadr, p);
  }

  // diagonal blocks D (G + R) D of the blocks of the islands not factored densely (the
  // preconditioner of the iterative ones, read by factorIsland only there)
  int padr = 0;
  for (int k=0; k < p->nblock; k++) {
    int radr = p->block_adr[k], dim = p->block_dim[k];
    aw->Padr[k] = padr;
    if (aw->island_Fadr[acs_blockIsland(p, k)] < 0) {
      acs_blockDelassus(aw->Gkk + padr, p, k);
      for (int i=0; i < dim; i++) {
        for (int j=0; j < dim; j++) {
          aw->Gkk[padr + i*dim + j] *= aw->d[radr+i] * aw->d[radr+j];
        }
      }
    }
    padr += dim*dim;
  }
}


// out = (D (G + R) D + shift I) v on the rows of island i (other entries untouched)
static void islandMatvec(mjtNum* out, admmWork* aw, const acsProblem* p, int i, const mjtNum* v,
                         mjtNum shift) {
  int n = acs_islandRows(p, i);
  const int* rows = aw->island_rows + aw->island_start[i];
  mjtNum* w = aw->wz;
  for (int r=0; r < n; r++) {
    int row = rows[r];
    const int* col;
    const mjtNum* y;
    int ny = acs_rowR(&col, &y, p, row);
    mjtNum u = aw->d[row] * v[row];
    for (int j=0; j < ny; j++) {
      w[col[j]] += y[j] * u;
    }
  }
  for (int r=0; r < n; r++) {
    int row = rows[r];
    const int* col;
    const mjtNum* J;
    int nj = acs_rowL(&col, &J, p, row);
    mjtNum sum = 0;
    for (int j=0; j < nj; j++) {
      sum += J[j] * w[col[j]];
    }
    mjtNum dr = aw->d[row];
    out[row] = dr * sum + (dr * (p->R ? p->R[row] : 0) * dr + shift) * v[row];
  }
  // clear the dof vector where the island's rows wrote
  for (int r=0; r < n; r++) {
    int row = rows[r];
    const int* col;
    const mjtNum* y;
    int ny = acs_rowR(&col, &y, p, row);
    for (int j=0; j < ny; j++) {
      w[col[j]] = 0;
    }
  }
}


// an island being solved: its rows and its blocks
typedef struct {
  int        id;                  // island index
  const int* rows;                // its rows                                 (n)
  int        n;
  const int* blocks;              // its blocks                               (nb)
  int        nb;
  int        nnzY;                // nonzeros of its rows of Y (or B)
} admmIsland;


// add the island's blocks' J' X J to aw->hs, X = D Lambda^-1 D with Lambda = D R D + diag I
// (Lambda's diagonal into aw->lambda); diag 0: X = D^2, R left out (for islands without R only)
static void addBlocks(admmWork* aw, const acsProblem* p, const admmIsland* is, mjtNum diag) {
  for (int j=0; j < is->nb; j++) {
    int k = is->blocks[j], adr = p->block_adr[k], dim = p->block_dim[k];
    int np = p->J_rownnz[adr];
    const mjtNum* Jt = aw->Jt + aw->Jtadr[k];
    mjtNum* JtX = aw->JtX + aw->Jtadr[k];
    for (int r=0; r < dim; r++) {
      mjtNum dr = aw->d[adr+r];
      aw->lambda[adr+r] = diag ? dr * (p->R ? p->R[adr+r] : 0) * dr + diag : 1;
    }
    for (int c=0; c < np; c++) {
      for (int r=0; r < dim; r++) {
        mjtNum dr = aw->d[adr+r];
        JtX[c*dim + r] = Jt[c*dim + r] * dr * dr / aw->lambda[adr+r];
      }
    }
    acs_hessianAddBlock(&aw->hs, p, k, Jt, JtX, 1);
  }
}


// a large island's K = M + J' X J, X = D Lambda^-1 D, Lambda = D R D + diag I, on the dofs of its
// trees, factored (the nodes analyzed once per solve and island); return 0 if it cannot be (no
// workspace, more than the workspace, not numerically positive definite). Without R on the
// island's rows (hard constraints), X = D^2 / diag: J' D^2 J is summed once per solve and each
// penalty change only adds M and it scaled (Fetch push's gripper, 52 rows on its arm's dofs:
// 40k instructions a factorization summing the blocks, against a factor of 15 dofs)
static int factorWoodbury(admmWork* aw, const acsProblem* p, const admmIsland* is, mjtNum diag) {
  aw->hs_factored = 0;
  if (!aw->woodbury) {
    return 0;
  }
  if (aw->hs_island != is->id) {
    // the island's dofs: the trees of its blocks
    aw->hs_island = is->id;
    for (int k=0; k < p->nblock; k++) {
      aw->couple[k] = 0;
    }
    for (int j=0; j < is->nb; j++) {
      aw->couple[is->blocks[j]] = 1;
    }
    acs_hessianTrees(aw->inset, p, aw->couple);
    aw->hs_ok = !acs_hessianAnalyze(&aw->hs, p, aw->inset, aw->couple);
    aw->hs_hard = 0;
    if (aw->hs_ok) {
      int hard = 1;
      for (int j=0; j < is->n && hard; j++) {
        hard = !p->R || p->R[is->rows[j]] == 0;
      }
      if (hard) {   // J' D^2 J, kept in hsQ
        acs_hessianZero(&aw->hs);
        addBlocks(aw, p, is, 0);
        mju_copy(aw->hsQ, aw->hs.sn.val, acs_snValues(&aw->hs.sn));
        aw->hs_hard = 1;
      }
    }
  }
  if (!aw->hs_ok) {
    return 0;
  }
  acs_hessianZero(&aw->hs);
  acs_hessianAddM(&aw->hs, p, p->M);
  if (aw->hs_hard) {
    for (int j=0; j < is->n; j++) {
      aw->lambda[is->rows[j]] = diag;
    }
    mju_addToScl(aw->hs.sn.val, aw->hsQ, 1 / diag, acs_snValues(&aw->hs.sn));
  } else {
    addBlocks(aw, p, is, diag);
  }
  aw->hs_factored = acs_hessianFactor(&aw->hs) == 0;
  return aw->hs_factored;
}


// x = F^-1 v on a large island by Woodbury's identity with K factored (factorWoodbury):
// t = A' Lambda^-1 v, K w = t, x = Lambda^-1 (v - A w), A = D J
static void solveWoodbury(mjtNum* x, admmWork* aw, const acsProblem* p, const admmIsland* is,
                          const mjtNum* v) {
  const acsHessian* hs = &aw->hs;
  for (int a=0; a < hs->sn.nnode; a++) {
    mju_zero(aw->t + hs->nstart[a], hs->nsize[a]);
  }
  for (int j=0; j < is->n; j++) {
    int r = is->rows[j], adr = p->J_rowadr[r];
    mjtNum u = aw->d[r] * v[r] / aw->lambda[r];
    for (int c=0; c < p->J_rownnz[r]; c++) {
      aw->t[p->J_colind[adr+c]] += p->J[adr+c] * u;
    }
  }
  acs_hessianSolve(hs, aw->t);
  for (int j=0; j < is->n; j++) {
    int r = is->rows[j], adr = p->J_rowadr[r];
    mjtNum Aw = 0;
    for (int c=0; c < p->J_rownnz[r]; c++) {
      Aw += p->J[adr+c] * aw->t[p->J_colind[adr+c]];
    }
    x[r] = (v[r] - aw->d[r] * Aw) / aw->lambda[r];
  }
}


// factorize F = D (G + R) D + diag I on a dense island; on a large one K (factorWoodbury), or
// else invert the diagonal blocks of F (conjugate gradients' preconditioner)
static void factorIsland(admmWork* aw, const acsProblem* p, const admmIsland* is, mjtNum diag) {
  aw->sigma = diag;
  int n = is->n;
  if (aw->island_Fadr[is->id] >= 0) {
    mjtNum* F = aw->F + aw->island_Fadr[is->id];
    const mjtNum* G = aw->G + aw->island_Fadr[is->id];
    mjtNum* dl = aw->cp;            // the rows' scales, island-local (cp: scratch here)
    for (int r=0; r < n; r++) {
      dl[r] = aw->d[is->rows[r]];
    }
    for (int r=0; r < n; r++) {     // D (G + R) D + diag I, the lower triangle (the factor's)
      for (int c=0; c <= r; c++) {
        F[r*n+c] = dl[r] * G[r*n+c] * dl[c];
      }
      F[r*n+r] += diag;
    }
    mju_cholFactor(F, n, mjMINVAL);
    return;
  }
  if (factorWoodbury(aw, p, is, diag)) {
    return;
  }
  for (int j=0; j < is->nb; j++) {
    int k = is->blocks[j], dim = p->block_dim[k];
    mjtNum Fk[36];
    mju_copy(Fk, aw->Gkk + aw->Padr[k], dim*dim);
    for (int r=0; r < dim; r++) {   // Gkk holds D (G + R) D: R is in it already
      Fk[r*dim+r] += diag;
    }
    acs_invertBlock(aw->Pinv + aw->Padr[k], Fk, dim);
  }
}


// an island's x-update for acs_pcg: F applied through the rows, the inverses of F's diagonal
// blocks as the preconditioner
typedef struct {
  admmWork*         aw;
  const acsProblem* p;
  const admmIsland* is;
} islandSolve;

static void islandMul(mjtNum* out, const mjtNum* in, void* arg) {
  islandSolve* sv = (islandSolve*)arg;
  islandMatvec(out, sv->aw, sv->p, sv->is->id, in, sv->aw->sigma);
}

static void islandPrecond(mjtNum* out, const mjtNum* in, void* arg) {
  islandSolve* sv = (islandSolve*)arg;
  for (int j=0; j < sv->is->nb; j++) {     // block by block
    int k = sv->is->blocks[j], adr = sv->p->block_adr[k], dim = sv->p->block_dim[k];
    mju_mulMatVec(out + adr, sv->aw->Pinv + sv->aw->Padr[k], in + adr, dim, dim);
  }
}


// x = F^-1 v on the island (x and v: nefc; x holds the initial guess of an iterative island)
static void solveIsland(mjtNum* x, admmWork* aw, const acsProblem* p, const admmIsland* is,
                        const mjtNum* v) {
  int n = is->n;
  if (aw->island_Fadr[is->id] < 0 && aw->hs_factored && aw->hs_island == is->id) {
    solveWoodbury(x, aw, p, is, v);
    return;
  }
  if (aw->island_Fadr[is->id] < 0) {
    islandSolve sv = {aw, p, is};
    acs_pcg(x, v, is->rows, n, islandMul, islandPrecond, &sv, aw->cr, aw->cp, aw->cq, aw->cz,
            kCGTolerance, kCGMaxIter);
    return;
  }
  for (int r=0; r < n; r++) {
    aw->loc[r] = v[is->rows[r]];
  }
  mju_cholSolve(aw->loc, aw->F + aw->island_Fadr[is->id], aw->loc, n);
  for (int r=0; r < n; r++) {
    x[is->rows[r]] = aw->loc[r];
  }
}


// the spectral rule's ratio L / m (above 1)
static mjtNum spectralRatio(mjtNum L, mjtNum m) {
  return L > m ? L / m : 1 + 1e-12;
}


// largest diagonal entry of a dense island's scaled G~ = D (G + R) D (a lower bound of its
// largest eigenvalue); -inf for an island without its dense G + R
static mjtNum islandMaxDiag(const admmWork* aw, const admmIsland* is) {
  int adr = aw->island_Fadr[is->id], n = is->n;
  mjtNum gmax = -INFINITY;
  if (adr >= 0) {
    for (int r=0; r < n; r++) {
      mjtNum dr = aw->d[is->rows[r]];
      gmax = mju_max(gmax, dr * aw->G[adr + r*n + r] * dr);
    }
  }
  return gmax;
}


// largest eigenvalue of the island's scaled G~ by power iteration (v, Gv: scratch, n), at least
// the largest diagonal entry of a dense island's G~ (a lower bound that the iteration, stopped at a
// relative change of kPowerTolerance, can end below: 0.984646 against 1 on a finger's limits with
// friction loss; and a lazy L, below, relies on it), from the
// uniform vector, or from the first row's unit vector where G~ maps that to zero (rows that cancel
// each other: a joint's upper limit, row -e_i, with the dof's friction loss, row e_i; L = 0 there
// set the penalty to its floor, and admm stopped at a residual of 1 after 200000 iterations)
static mjtNum powerIteration(admmWork* aw, const acsProblem* p, const admmIsland* is,
                             mjtNum* v, mjtNum* Gv) {
  int n = is->n;
  const mjtNum* G = aw->island_Fadr[is->id] >= 0 ? aw->G + aw->island_Fadr[is->id] : NULL;
  for (int r=0; r < n; r++) {
    v[r] = 1 / mju_sqrt(n);
  }
  mjtNum est = 0;
  int restarted = 0;
  for (int it=0; it < kPowerIterations; it++) {
    if (G) {                      // D (G + R) D v (cp: scratch, as below)
      for (int r=0; r < n; r++) {
        aw->cp[r] = aw->d[is->rows[r]] * v[r];
      }
      mju_mulMatVec(Gv, G, aw->cp, n, n);
      for (int r=0; r < n; r++) {
        Gv[r] *= aw->d[is->rows[r]];
      }
    } else {
      // the operator through the rows: scatter the island-local vector to rows and back
      for (int r=0; r < n; r++) {
        aw->cp[is->rows[r]] = v[r];
      }
      islandMatvec(aw->cq, aw, p, is->id, aw->cp, 0);
      for (int r=0; r < n; r++) {
        Gv[r] = aw->cq[is->rows[r]];
      }
    }
    mjtNum norm = mju_norm(Gv, n);
    if (norm < mjMINVAL && it == 0 && !restarted && n > 1) {
      mju_zero(v, n);
      v[0] = 1;
      restarted = 1;
      it--;
      continue;
    }
    if (norm < mjMINVAL) {
      break;
    }
    mju_scl(v, Gv, 1/norm, n);
    int done = mju_abs(norm - est) <= kPowerTolerance * norm;
    est = norm;
    if (done) {
      break;
    }
  }
  return mju_max(est, islandMaxDiag(aw, is));
}


// per block of the island: y = P_K(v) (dual = 0) or P_K*(v) (dual = 1) for scaled forces
// f~ = f / d; y may alias v
static void projectBlocks(mjtNum* y, const mjtNum* v, const acsProblem* p, const mjtNum* d,
                          const mjtNum* mu, const admmIsland* is, int dual) {
  for (int j=0; j < is->nb; j++) {
    int k = is->blocks[j], adr = p->block_adr[k], dim = p->block_dim[k];
    const mjtNum* vk = v + adr;
    mjtNum* yk = y + adr;
    switch ((acstBlock) p->block_type[k]) {
    case acsBLOCK_EQUALITY:             // K = R^dim, K* = {0}
      for (int r=0; r < dim; r++) {
        yk[r] = dual ? 0 : vk[r];
      }
      break;
    case acsBLOCK_FRICTION:             // K = box, its multiplier is free
      yk[0] = dual ? vk[0] : mju_clip(vk[0], -p->block_floss[k] / d[adr],
                                      p->block_floss[k] / d[adr]);
      break;
    case acsBLOCK_LIMIT:
      yk[0] = vk[0] > 0 ? vk[0] : 0;
      break;
    case acsBLOCK_CONTACT:
      acsu_projectCone(yk, vk, mu + 5*k, dim, dual);
      break;
    default:
      break;
    }
  }
}


// De Saxce shift Gamma(v) on the normal row of each contact of the island (zero elsewhere)
static void desaxceShift(mjtNum* s, const mjtNum* v, const acsProblem* p, const mjtNum* mu,
                         const admmIsland* is) {
  for (int r=0; r < is->n; r++) {
    s[is->rows[r]] = 0;
  }
  for (int j=0; j < is->nb; j++) {
    int k = is->blocks[j];
    if (p->block_type[k] == acsBLOCK_CONTACT && p->block_dim[k] > 1) {
      int adr = p->block_adr[k];
      s[adr] = acsu_desaxce(v + adr, mu + 5*k, p->block_dim[k]);
    }
  }
}


// scaled iterates of the island from forces f with velocity aw->a = G f + b: x = y = f / d,
// z = P_K*(a~ + Gamma(a~)) with a~ = d a (aw->a is overwritten on the island's rows)
static void startIterates(admmWork* aw, const acsProblem* p, const admmIsland* is,
                          const mjtNum* f, int ncp) {
  for (int j=0; j < is->n; j++) {
    int r = is->rows[j];
    aw->y[r] = aw->x[r] = f[r] / aw->d[r];
    aw->a[r] *= aw->d[r];
  }
  if (ncp) {
    desaxceShift(aw->s, aw->a, p, aw->mu, is);
    for (int j=0; j < is->n; j++) {
      aw->a[is->rows[j]] += aw->s[is->rows[j]];
    }
  }
  projectBlocks(aw->z, aw->a, p, aw->d, aw->mu, is, 1);
}


// the island's forces f: w = M^-1 J' f (B' f) on the island's dofs (computed afresh: updates summed
// over the iterations would carry their rounding, and on the 1000:1 stack that rounding is above
// the tolerance), a = G f + b on its rows, their NCP residual and the law model's
static void islandVelocity(mjtNum* ncp, mjtNum* res, admmWork* aw, const acsProblem* p,
                           const admmIsland* is, const mjtNum* f, int model) {
  if (is->nnzY >= p->nv) {
    mju_zero(aw->w, p->nv);      // the other islands' dofs formed again at their start
    aw->wcleared = 1;
  } else {
    // the columns of the blocks' rows (a block whose rows share their pattern: its first row's)
    for (int j=0; j < is->nb; j++) {
      int k = is->blocks[j], adr = p->block_adr[k];
      int nr = aw->sub.blocks.shared[k] ? 1 : p->block_dim[k];
      for (int r=adr; r < adr + nr; r++) {
        const int* col;
        const mjtNum* y;
        int ny = acs_rowR(&col, &y, p, r);
        for (int c=0; c < ny; c++) {
          aw->w[col[c]] = 0;
        }
      }
    }
  }
  for (int j=0; j < is->nb; j++) {
    int k = is->blocks[j];
    acs_addYTBlock(aw->w, p, k, f + p->block_adr[k], aw->sub.blocks.shared[k]);
  }
  acs_blocksResidual(ncp, res, aw->a, p, is->blocks, is->nb, aw->sub.blocks.shared, aw->w, f,
                     model);
}


// the CCP's objective 1/2 f'(G + R) f + b'f = 1/2 f'(a + b) on the island's rows
static mjtNum islandObjective(const acsProblem* p, const admmIsland* is, const mjtNum* f,
                              const mjtNum* a) {
  mjtNum obj = 0;
  for (int j=0; j < is->n; j++) {
    int r = is->rows[j];
    obj += f[r] * (a[r] + p->b[r]);
  }
  return obj / 2;
}


// ADMM on one island, from its forces in force (w, a current for them); the result in force.
// Anderson acceleration (type II) of the ADMM map T: u = (x, y, z) -> (x+, y+, z+) on the
// island's rows, with the differences of T(u) and of g = T(u) - u over the last mem iterations
// (circular slots): gamma = argmin |g - dG gamma| and u+ = T(u) - dF gamma. Called after T
// (aw->x, y, z hold T(u); xprev, yprev, zprev hold u). The Gram matrix dG'dG is kept and updated
// by the new slot's row; a g that grew by more than kAAGrowth since the last iteration, or a
// singular Gram matrix, clears the memory (the plain iterate goes on)
#define kAAGrowth 2
typedef struct {
  int    mem;                     // differences kept at most (0: off)
  int    nmem, head;              // differences kept, next slot
  int    first;                   // no previous iterate to difference against
  mjtNum gnorm;                   // |g| of the last iteration
  mjtNum bestres;                 // lowest residual of the solve so far
  int    stall;                   // iterations since it was reached
} andersonState;

// the island's part of u = (x, y, z) packed: out[c n + j] = u_c[rows[j]]
static void aaGather(mjtNum* out, mjtNum* const u[3], const int* rows, int n) {
  for (int c=0; c < 3; c++) {
    const mjtNum* uc = u[c];
    for (int j=0; j < n; j++) {
      out[c*n + j] = uc[rows[j]];
    }
  }
}

// a b over n contiguous entries, summed in order
static mjtNum aaDot(const mjtNum* a, const mjtNum* b, int n) {
  mjtNum v = 0;
  for (int i=0; i < n; i++) {
    v += a[i] * b[i];
  }
  return v;
}

// out[b] = base_b v for the m vectors base_b = base + b stride (n entries each), each sum in the
// order of aaDot (the same values); with a full memory, the five in one pass, their sums
// independent of each other (aaDot one after another waits on each addition)
static void aaDots(mjtNum* out, const mjtNum* v, const mjtNum* base, int m, size_t stride,
                   int n) {
  _Static_assert(kAAMem == 5, "aaDots unrolls a full memory's five sums");
  if (m != kAAMem) {
    for (int b=0; b < m; b++) {
      out[b] = aaDot(base + b*stride, v, n);
    }
    return;
  }
  const mjtNum *b0 = base, *b1 = b0 + stride, *b2 = b1 + stride, *b3 = b2 + stride,
               *b4 = b3 + stride;
  mjtNum s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  for (int i=0; i < n; i++) {
    mjtNum vi = v[i];
    s0 += b0[i] * vi;
    s1 += b1[i] * vi;
    s2 += b2[i] * vi;
    s3 += b3[i] * vi;
    s4 += b4[i] * vi;
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
  out[4] = s4;
}

// The vectors of the differences are packed by the island's rows (3 n entries: x, y, z, each in
// the order of the rows), so that the products run over contiguous memory; the sums are in the
// order they had when every product went through the island's row list (identical iterates),
// and andersonStep took 12% of 22_humanoids' instructions then (4%: instructions a step -7.6%)
static void andersonStep(admmWork* aw, const admmIsland* is, andersonState* st) {
  int n = is->n, n3 = 3 * n, mem = st->mem;
  const int* rows = is->rows;
  mjtNum *g = aw->aaGcur, *T = aw->aaTprev, *gp = aw->aaGprev, *now = aw->aaNow;
  mjtNum* unow[3] = {aw->x, aw->y, aw->z};
  mjtNum* ubefore[3] = {aw->xprev, aw->yprev, aw->zprev};
  aaGather(now, unow, rows, n);
  aaGather(g, ubefore, rows, n);
  mju_sub(g, now, g, n3);
  mjtNum gnorm = mju_sqrt(aaDot(g, g, n3));
  if (!st->first && gnorm > kAAGrowth * st->gnorm) {
    st->nmem = 0;
    st->first = 1;
  }
  if (!st->first) {
    // the new differences in slot head, its row of the Gram matrix (slots 0 .. nmem-1 in use)
    st->head = st->nmem == 0 ? 0 : st->head;
    int h = st->head;
    mjtNum* dF = aw->aaF + (size_t)h * aw->n3;
    mjtNum* dG = aw->aaG + (size_t)h * aw->n3;
    mju_sub(dF, now, T, n3);
    mju_sub(dG, g, gp, n3);
    st->nmem = st->nmem < mem ? st->nmem + 1 : mem;
    st->head = (h + 1) % mem;
    mjtNum row[kAAMem];
    aaDots(row, dG, aw->aaG, st->nmem, aw->n3, n3);
    for (int b=0; b < st->nmem; b++) {
      aw->aaGram[h*kAAMem + b] = aw->aaGram[b*kAAMem + h] = row[b];
    }
  }
  mju_copy(T, now, n3);
  mju_copy(gp, g, n3);
  st->first = 0;
  st->gnorm = gnorm;
  int m = st->nmem;
  if (m == 0) {
    return;
  }

  // (dG'dG + lambda I) gamma = dG'g, lambda relative to the trace
  mjtNum* A = aw->aaM;
  mjtNum* gamma = aw->aaM + kAAMem*kAAMem;
  mjtNum trace = 0;
  for (int a=0; a < m; a++) {
    for (int b=0; b < m; b++) {
      A[a*m+b] = aw->aaGram[a*kAAMem + b];
    }
    trace += A[a*m+a];
  }
  aaDots(gamma, g, aw->aaG, m, aw->n3, n3);
  for (int a=0; a < m; a++) {
    A[a*m+a] += 1e-10 * trace + mjMINVAL;
  }
  if (mju_cholFactor(A, m, 0) < m) {
    st->nmem = 0;
    return;
  }
  mju_cholSolve(gamma, A, gamma, m);

  // u+ = T(u) - dF gamma
  for (int a=0; a < m; a++) {
    mju_addToScl(now, aw->aaF + (size_t)a * aw->n3, -gamma[a], n3);
  }
  for (int c=0; c < 3; c++) {
    mjtNum* uc = unow[c];
    for (int j=0; j < n; j++) {
      uc[rows[j]] = now[c*n + j];
    }
  }
}

// the next iterate: Anderson's extrapolation of this one from the iteration kAAStart on (while it
// is on and has a previous iterate to difference against), else the plain one
static void andersonNext(admmWork* aw, const admmIsland* is, andersonState* aa, int iter,
                         int status) {
  if (status < 0 && aa->mem > 0 && aa->first >= 0 && iter + 1 >= kAAStart) {
    andersonStep(aw, is, aa);
  } else {
    aa->first = 1;
  }
}

// the least change: the subspace step's change of the forces (aw->fsub - force) on the rows at
// rest (F: the blocks it holds with equality, acs_blockActive 1, and the contacts and limits left
// with no velocity on any row, closed and not slipping), scaled (D^-1: ADMM's variables),
// projected onto the range of G~_FF (acs_projectRange on the dofs the rows touch, or where they do
// not fit, acs_denseProjectRange on G~_FF formed from the island's dense G + R). The step solves
// G_FF df = -a_F for them with the rows that depend on others dropped (df = 0 there): on a
// hyperstatic set (more rows at rest than the bodies' freedom: a box's four corners) that is one
// of the many solutions, with internal forces, the corners pushing against each other (a force
// sensor reads them). Its component along the null space of G~_FF (which changes no velocity)
// removed, df is the least change that solves those rows, as ADMM's own iterations find (Le Lidec
// et al.'s Fig. 12): the warm start's distribution carried on. Return 2 if projected, 1 if the
// rows are independent (the step is the only change that solves them: kept as it is; one
// factorization each), 0 if nothing to project (fewer than two rows, or compliance: G + R has no
// null space), -1 if it cannot (too many dofs for the workspace, and no dense G + R). a: the
// velocities at aw->fsub (the subspace step's)
static int minimumNormStep(admmWork* aw, const acsProblem* p, const admmIsland* is,
                           const mjtNum* force, const mjtNum* a, mjtNum tolerance) {
  if (p->R) {
    return 0;
  }
  int nF = 0;
  for (int j=0; j < is->nb; j++) {
    int k = is->blocks[j], adr = p->block_adr[k], dim = p->block_dim[k];
    int held = acs_blockActive(aw->fsub + adr, p, k, acsMODEL_NCP) == 1;
    if (!held && (p->block_type[k] == acsBLOCK_CONTACT || p->block_type[k] == acsBLOCK_LIMIT)) {
      held = 1;
      for (int r=0; r < dim; r++) {
        held &= mju_abs(a[adr+r]) <= tolerance;
      }
    }
    for (int r=0; held && r < dim; r++) {
      aw->mnrows[nF] = adr + r;
      aw->mndy[nF++] = (aw->fsub[adr+r] - force[adr+r]) / aw->d[adr+r];
    }
  }
  if (nF < 2) {
    return 0;
  }

  // on the dofs the rows touch; where those do not fit its workspace, on the rows, from the
  // island's dense G + R (aw->pos: the rows' places there; a chain of 150 hinges held at its tip:
  // 3 rows on 150 dofs). On the rows it takes a factor of nF^3 / 6 and the dropped rows' null
  // vectors: more than on the dofs where the rows outnumber the dofs they touch (the lying
  // humanoid, 34 rows on 27 dofs: 4.0 against 3.5 us a try; the Shadow hand, 53 rows: 8.5
  // against 2.5 us)
  int projected = acs_projectRange(aw->mndy, p, aw->mnrows, nF, aw->d, kMinNormPivot, &aw->cols);
  int adr = aw->island_Fadr[is->id];
  if (projected < 0 && adr >= 0 && nF <= aw->nmn) {
    const mjtNum* G = aw->G + adr;
    for (int a=0; a < nF; a++) {   // scaled: D (G + R) D
      const mjtNum* Ga = G + (size_t)aw->pos[aw->mnrows[a]] * is->n;
      mjtNum da = aw->d[aw->mnrows[a]];
      for (int b=0; b < nF; b++) {
        aw->mnG[a*nF+b] = da * Ga[aw->pos[aw->mnrows[b]]] * aw->d[aw->mnrows[b]];
      }
    }
    projected = acs_denseProjectRange(aw->mndy, aw->mnG, nF, aw->mnwork, kMinNormPivot) > 0;
  }
  for (int a=0; projected > 0 && a < nF; a++) {
    int r = aw->mnrows[a];
    aw->fsub[r] = force[r] + aw->d[r] * aw->mndy[a];
  }
  return projected < 0 ? -1 : 1 + projected;
}


// acs_admm_subspace: the subspace step of the Gauss-Seidel driver on the warm start (w current),
// a Newton step on the rows its active set holds with equality. When the contact set rests, the
// warm start has the right active set and the step solves the island in place of the power
// iteration, the factorization and the first iterations (lying humanoid: 1 iteration per step in
// place of 3; dog: 1.7x mj_step in place of 2.1x). Kept only when it converges, the residual
// computed afresh (into force, its NCP residual in ncp; return 1): restarting the iterations from
// a step that only halved the residual lowered the falling humanoid's converged steps from 86% to
// 82% on the same states, and trying the step on every iteration made the dog's steps 55% slower
// or more (acs_admm_polish tries it on the iterate twice, once the residual is small, and on the
// last iteration). A try that fails leaves force, w and a as they were. least (the try on the
// warm start): its change of the forces is made the least one (minimumNormStep), so that a
// hyperstatic resting set keeps the warm start's distribution of forces, with no internal forces
// added (the dragged cube at stiction: 0.8 N across its corners with the step as it is, 7e-13 N
// so; ADMM's own answer: 2e-13 N); where the least change cannot be formed or misses the
// tolerance, the try fails. The polishing tries (on ADMM's nearly converged iterate) keep the
// step as it is. Measured (README, acs_admm_subspace): with the least change, on by default,
// instructions a step -10% (Shadow hand) to -16% (Fetch push), the lying humanoid's iterations
// 5.7 -> 1.2 a step. An earlier least change (the null vectors of the step's dropped rows
// projected out, the step refused when that left a cone) made the lying humanoid's tries fail
// (52.7 us a step against 46.2 us off). This one takes in the contacts and limits at rest
// without load (a corner the step unloaded takes its share back: without them the dragged cube
// kept 0.3 N across its corners)
static int subspaceStart(mjtNum* force, mjtNum* ncp, acsStats* stats, admmWork* aw,
                         const acsProblem* p, const admmIsland* is, mjtNum tolerance, int least) {
  // not tried on a warm start where a contact with torsional or rolling friction slides: the step
  // would solve its 2 to 4 friction angles (dm_control's dog, its paws rolling: the tries, most of
  // them failing, took 34% of its instructions; 5 runs, 300 steps after 100: 4.87M instructions a
  // step without the start, 5.61M with it on every warm start, 4.76M so)
  for (int j=0; least && j < is->nb; j++) {
    int k = is->blocks[j];
    if (p->block_dim[k] > 3 && acs_blockActive(force + p->block_adr[k], p, k, acsMODEL_NCP) == 2) {
      return 0;
    }
  }
  // nor, on an island without its dense G + R (the least change then formed on the dofs the rows
  // touch), where the least change might not fit its workspace: the step would be computed and
  // then refused (a chain of 200 hinges held at its tip: 2.01 factorizations a step, against 1.01
  // without the start; testAdmmSubspaceTooLarge)
  int adr = aw->island_Fadr[is->id];
  if (least && adr < 0 && !acs_projectFits(p, is->rows, is->n, &aw->cols)) {
    return 0;
  }
  for (int j=0; j < is->n; j++) {
    aw->fsub[is->rows[j]] = force[is->rows[j]];
  }

  // the step's matrix from the island's dense G + R where there is one (on the Shadow hand
  // forming it from J and Y took 40% of the step's instructions, reading it takes 25%)
  acsDenseG dense = {adr >= 0 ? aw->G + adr : NULL, aw->pos, is->n};
  for (int j=0; adr >= 0 && j < is->n; j++) {
    aw->pos[is->rows[j]] = j;
  }
  mjtNum ncpsub, ressub;
  int kept = acs_subspaceStep(aw->fsub, &ncpsub, &ressub, &aw->sub, aw->w, p, is->blocks, is->nb,
                              is->n, adr >= 0 ? &dense : NULL, tolerance);
  stats->nfactor += kept >= 0;
  if (kept <= 0 || !(ressub <= tolerance)) {
    return 0;                     // aw->w and aw->a are still those of force
  }

  // the least change, the rows at rest told by the step's own velocities (w updated in place);
  // then the residual as the iterations compute it, from w afresh, once (before, also between
  // the step and the least change: Shadow hand and Fetch push -2% instructions a step, the lying
  // humanoid -1.5%, the same trajectories)
  if (least) {
    int mn = minimumNormStep(aw, p, is, force, aw->sub.a, tolerance);
    stats->nfactor += mn > 0;
    if (mn < 0) {
      return 0;
    }
  }
  islandVelocity(&ncpsub, &ressub, aw, p, is, aw->fsub, acsMODEL_NCP);
  if (!(ressub <= tolerance)) {
    islandVelocity(&ncpsub, &ressub, aw, p, is, force, acsMODEL_NCP);
    return 0;
  }
  for (int j=0; j < is->n; j++) {
    force[is->rows[j]] = aw->fsub[is->rows[j]];
  }
  *ncp = ncpsub;
  return 1;
}


// acs_admm_polish k: whether this measured iteration tries the subspace step on the iterate: the
// first from the k-th iteration on, the second from the 2k-th on, once the residual is within
// kPolishBelow tolerances (at most kPolishMax such tries), and the last iteration whatever its
// residual. ADMM finds a contact set's active set (which contacts stick, slide or separate) long
// before it reaches 1e-6: its tail converges linearly, a few percent an iteration
// (22_humanoids: 1e-4 after 6 iterations, 1e-5 after 100), where one Newton step on that
// active set ends the solve. As OSQP's solution polishing, the step is kept only when it
// converges, and the iterations go on otherwise
static int polishTurn(int iter, int npolish, mjtNum res, const acsSettings* s, int maxiter) {
  if (s->admm_polish <= 0 || !(res > s->tolerance)) {
    return 0;
  }
  return iter + 1 >= maxiter ||
         (npolish < kPolishMax && iter + 1 >= s->admm_polish * (npolish + 1) &&
          res < kPolishBelow * s->tolerance);
}


// Return an acstStatus; *niter: iterations, *last: NCP residual of the result, *rho: final penalty
static int solveIslandAdmm(mjtNum* force, int* niter, mjtNum* last, mjtNum* rho_out,
                           acsStats* stats, admmWork* aw, const acsProblem* p,
                           const admmIsland* is, const acsSettings* s, mjtNum rho_carried,
                           int cold, mjtNum done) {
  int model = acs_solverModel(s->solver);
  int ncp = (model == acsMODEL_NCP), maxiter = acs_maxiter(s);
  mjtNum eta = s->admm_prox, omega = s->omega;
  const int* rows = is->rows;
  int n = is->n;

  // the island's residual at the velocities acs_startForces left in aw->a (and its dofs' w in
  // aw->w): the islands' rows and trees are disjoint, so the solves before left them as they
  // were, unless one cleared all of w (then both are formed again). Before, islandVelocity
  // formed them here for every island (instructions a step: Fetch push and the Shadow hand
  // -1.6%, the lying humanoid -1.2%, 22_humanoids -0.7%; the same trajectories)
  mjtNum resncp = 0, res = 0;
  if (aw->wcleared) {
    islandVelocity(&resncp, &res, aw, p, is, force, model);
  } else {
    acs_blocksResidualAt(&resncp, &res, aw->a, p, is->blocks, is->nb, force, model);
  }
  *niter = 0;
  *last = resncp;
  *rho_out = NAN;
  if (res <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }
  if (ncp && s->admm_subspace && subspaceStart(force, &resncp, stats, aw, p, is, s->tolerance, 1)) {
    acs_islandHistory(stats, 0, resncp, done);
    *niter = 1;
    *last = resncp;
    return acsSTATUS_CONVERGED;
  }

  // the best iterate so far: the CCP's starts with the warm start (the objective measures a
  // force's error); the NCP's with the first iterate (by residual, a warm start lacking the force
  // of a new contact would beat every iterate building that force up, and be returned again)
  for (int j=0; j < n; j++) {
    aw->best[rows[j]] = force[rows[j]];
  }
  mjtNum bestmerit = ncp ? INFINITY : islandObjective(p, is, force, aw->a), bestncp = resncp;
  startIterates(aw, p, is, force, ncp);

  // penalty: the previous solve's, or the spectral rule (also when the warm start was dropped:
  // the penalty that went with it is no better, and a small one makes the x-update of a
  // hyperstatic contact set nearly singular); kept in [m, L]. A carried penalty in [m, the
  // largest diagonal entry of a dense island's G~] (powerIteration's L is at least that) needs no
  // clip, and L waits for the first penalty update that moves the penalty: a solve that converges
  // before one, or whose updates would lower a penalty at its floor m, skips the power iteration
  // (instructions a step: Shadow hand -6%, Fetch push -5%, the lying humanoid -2%)
  mjtNum m = eta, L = NAN, step = NAN;
  int carried = s->admm_rho <= 0 && isfinite(rho_carried) && !cold;
  if (!carried || rho_carried < m || rho_carried > islandMaxDiag(aw, is)) {
    L = powerIteration(aw, p, is, aw->rhs, aw->loc);
    step = pow(spectralRatio(L, m), s->admm_factor);
  }
  mjtNum rho;
  if (s->admm_rho > 0) {
    rho = s->admm_rho;
  } else if (carried) {
    rho = isnan(L) ? rho_carried : mju_clip(rho_carried, m, mju_max(L, m));
  } else {
    rho = mju_sqrt(mju_max(L, m) * m) * pow(spectralRatio(L, m), s->admm_power);
  }
  factorIsland(aw, p, is, eta + rho);
  stats->nfactor++;

  mjtNum resstart = res, resblow = kBlowup * mju_max(res, s->tolerance);
  int restarted = 0, npolish = 0;
  int status = -1;
  andersonState aa = {mjMIN(s->admm_anderson, kAAMem), 0, 0, 1, 0, res, 0};
  for (int iter=0; status < 0; iter++) {
    for (int j=0; j < n; j++) {
      aw->xprev[rows[j]] = aw->x[rows[j]];
      aw->yprev[rows[j]] = aw->y[rows[j]];
      aw->zprev[rows[j]] = aw->z[rows[j]];
    }

    // x+ = -F^-1 (b~ + s - eta x - rho y - z)
    if (ncp) {
      desaxceShift(aw->s, aw->z, p, aw->mu, is);
    }
    for (int j=0; j < n; j++) {
      int r = rows[j];
      aw->rhs[r] = -(aw->d[r]*p->b[r] + (ncp ? aw->s[r] : 0) - eta*aw->x[r] - rho*aw->y[r] -
                     aw->z[r]);
    }
    solveIsland(aw->x, aw, p, is, aw->rhs);

    // over-relaxation, projection, multiplier update: x^ in rhs, y+ = P_K(x^ - z / rho)
    for (int j=0; j < n; j++) {
      int r = rows[j];
      aw->rhs[r] = omega*aw->x[r] + (1 - omega)*aw->yprev[r];
      aw->y[r] = aw->rhs[r] - aw->z[r]/rho;
    }
    projectBlocks(aw->y, aw->y, p, aw->d, aw->mu, is, 0);
    mjtNum rp = 0, rd = 0;
    for (int j=0; j < n; j++) {
      int r = rows[j];
      aw->z[r] += rho * (aw->y[r] - aw->rhs[r]);
      mjtNum ep = mju_abs(aw->x[r] - aw->y[r]);
      mjtNum ed = mju_abs(eta*(aw->x[r] - aw->xprev[r]) + rho*(aw->y[r] - aw->yprev[r]));
      rp = rp >= ep ? rp : ep;     // mju_max's comparison, without its call
      rd = rd >= ed ? rd : ed;
      aw->f[r] = aw->d[r] * aw->y[r];
    }

    // residual of the unscaled forces, the stopping test of every acs solver: measured (and the
    // penalty updated) on every admm_check-th iteration and on the last
    *niter = iter + 1;
    if ((iter + 1) % mjMAX(s->admm_check, 1) != 0 && iter + 1 < maxiter) {
      acs_islandHistory(stats, iter, NAN, done);   // not measured
      andersonNext(aw, is, &aa, iter, status);
      continue;
    }
    islandVelocity(&resncp, &res, aw, p, is, aw->f, model);
    if (ncp && polishTurn(iter, npolish, res, s, maxiter)) {
      npolish++;
      if (subspaceStart(aw->f, &resncp, stats, aw, p, is, s->tolerance, 0)) {
        res = resncp;
      }
    }
    acs_islandHistory(stats, iter, resncp, done);
    if (!isfinite(res) || !isfinite(resncp)) {
      status = acsSTATUS_DIVERGED;
    } else if (res <= s->tolerance) {
      status = acsSTATUS_CONVERGED;
    } else if (iter + 1 >= maxiter) {
      status = acsSTATUS_MAXITER;
    }
    mjtNum merit = ncp ? res : islandObjective(p, is, aw->f, aw->a);

    // Anderson's extrapolation also speeds up a drift (a problem without a solution): a residual
    // 10 times the lowest so far clears its memory, and the plain iteration goes on; 20
    // iterations without a new lowest residual (stagnation near the rounding floor) end it for
    // the solve
    if (aa.nmem > 0 && res > 10 * aa.bestres) {
      aa.nmem = 0;
      aa.first = -1;
    }
    aa.stall = res < aa.bestres ? 0 : aa.stall + 1;
    aa.bestres = mju_min(aa.bestres, res);
    if (aa.stall >= kAAStall && iter + 1 >= kAAStart) {
      aa.mem = 0;
    }
    if (merit < bestmerit || status == acsSTATUS_CONVERGED) {
      bestmerit = merit;
      bestncp = resncp;
      for (int j=0; j < n; j++) {
        aw->best[rows[j]] = aw->f[rows[j]];
      }
    }

    // a warm start can be worse than zero forces when the contact set changes under a
    // hyperstatic load (the carried internal forces no longer balance); with a small carried
    // penalty the nearly singular x-update then blows up. Then restart once from zero forces,
    // keeping the penalty
    if (status < 0 && !restarted && res > resblow) {
      restarted = 1;
      mjtNum res0 = 0;
      for (int j=0; j < n; j++) {
        aw->f[rows[j]] = 0;
      }
      for (int j=0; j < is->nb; j++) {
        int k = is->blocks[j], adr = p->block_adr[k];
        res0 = mju_max(res0, acs_blockResidual(p, k, aw->f + adr, p->b + adr, model));
      }
      if (res0 <= resstart) {
        mjtNum r0, rm0;
        islandVelocity(&r0, &rm0, aw, p, is, aw->f, model);
        startIterates(aw, p, is, aw->f, ncp);
        aa.nmem = 0;
        aa.first = -1;
      }
    }

    // spectral penalty update. A vanishing primal residual (x = y: the x-update is already
    // feasible) drives the penalty down, which lengthens the x-update toward the unconstrained
    // solution; skipping the update then (rp or rd zero) cut 22_humanoids' factorizations from
    // 594 to 237 per step but lowered the humanoid's converged steps from 81% to 70% (300 steps
    // from the keyframe)
    if (status < 0 && s->admm_factor > 0) {
      mjtNum old = rho;
      int up = rp > s->admm_ratio * rd, down = !up && rd > s->admm_ratio * rp;
      if (isnan(L) && (up || (down && rho != m))) {   // a carried rho in [m, L]: L now
        L = powerIteration(aw, p, is, aw->rhs, aw->loc);
        step = pow(spectralRatio(L, m), s->admm_factor);
      }
      if (up) {
        rho = mju_min(rho * step, mju_max(L, m));
      } else if (down && rho != m) {
        rho = mju_max(rho / step, m);
      }
      if (rho != old) {
        factorIsland(aw, p, is, eta + rho);
        stats->nfactor++;
        aa.nmem = 0;
        aa.first = -1;
      }
    }
    andersonNext(aw, is, &aa, iter, status);
  }

  // the best iterate (the last one when converged; NCP: lowest residual, CCP: lowest objective,
  // the warm start included), with a brought to it (when it is not the last)
  for (int j=0; j < n; j++) {
    force[rows[j]] = aw->best[rows[j]];
  }
  if (status != acsSTATUS_CONVERGED) {
    mjtNum r1, rm1;
    islandVelocity(&r1, &rm1, aw, p, is, force, model);
  }
  *last = bestncp;
  *rho_out = rho;
  return status;
}


int acs_admmSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                  const acsProblem* p, const acsSettings* s) {
  admmWork aw;
  acsArena arena = {work, 0};
  admmLayout(&aw, &arena, p);
  int model = acs_solverModel(s->solver);

  // the warm start (or zero forces if better): done if it already solves the problem
  mjtNum resncp, res;
  int cold = acs_startForces(force, aw.w, aw.a, &resncp, &res, stats, p, model);
  aw.wcleared = 0;
  if (res <= s->tolerance) {
    return acsSTATUS_CONVERGED;
  }
  buildIslands(&aw, p);

  // island by island: an island that converges stops; its penalty is its own
  int status = acsSTATUS_CONVERGED;
  mjtNum done = 0, rhomax = NAN;
  for (int i=0; i < acs_islandCount(p); i++) {
    admmIsland is = {i, aw.island_rows + aw.island_start[i], acs_islandRows(p, i),
                     aw.island_block + aw.island_bstart[i],
                     aw.island_bstart[i+1] - aw.island_bstart[i], 0};
    for (int j=0; j < is.n; j++) {
      const int* col;
      const mjtNum* y;
      is.nnzY += acs_rowR(&col, &y, p, is.rows[j]);
    }
    int niter;
    mjtNum last, rho;
    int st = solveIslandAdmm(force, &niter, &last, &rho, stats, &aw, p, &is, s, state->admm_rho,
                             cold, done);
    status = acs_worseStatus(status, st);
    stats->niter = mjMAX(stats->niter, niter);
    acs_islandHistoryEnd(stats, niter, last);
    done = mju_max(done, last);
    rhomax = isnan(rhomax) || rho > rhomax ? rho : rhomax;
  }

  // the NCP residual of the forces returned: the largest of the islands'; the penalty carried to
  // the next solve: the largest of the islands' (NaN if none iterated)
  stats->residual = done;
  if (!isnan(rhomax)) {
    stats->rho = rhomax;
    state->admm_rho = rhomax;
  }
  return status;
}
