// Copyright 2026 The acs authors.
//
// Pieces every problem solver shares (solver_util.c): workspace carving, the end of an
// iteration, the start of a dual solve, Gauss-Seidel blocks.

#ifndef ACS_PLUGIN_SOLVER_UTIL_H_
#define ACS_PLUGIN_SOLVER_UTIL_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "util_errmem.h"

//---------------------------------- workspace arena -----------------------------------------------

// a solver's workspace layout: carves its workspace struct work (counts when arena->base is NULL)
typedef void (*acsfLayout)(void* work, acsArena* arena, const acsProblem* p);

// bytes a layout carves for problem p (work: the solver's workspace struct, filled with NULLs)
size_t acs_layoutBytes(acsfLayout layout, void* work, const acsProblem* p);


//---------------------------------- islands -------------------------------------------------------

// islands of p (block_island NULL: one island holding every row, none without rows), the rows of
// island i, and the island of block k
int acs_islandCount(const acsProblem* p);
int acs_islandRows(const acsProblem* p, int i);
int acs_blockIsland(const acsProblem* p, int k);

// Does sweep iter (from 0) of the Gauss-Seidel driver measure its residual, the stopping test: each
// of the first 10 sweeps, then every 5th, and the last allowed. The residual costs a third of a
// sweep (the velocities of every row again, and each block's cone distances); most solves end
// within the first 10 (the lying humanoid: 2 sweeps on average), a longer one runs at most 4
// sweeps past its convergence. Measured (300 steps): dm_control's dog pgs 2.5x -> 2.1x mj_step,
// raisim 2.4x -> 1.9x, the Shadow hand pgs 3.7x -> 3.1x, the same shares of steps converged. A
// sweep that does not measure records NaN in the history. Not for ADMM: its penalty and its best
// iterate follow the measured residuals, and with this schedule ccp-admm's gliding box on the
// incline and the 1000:1 stack changed beyond their tests' bounds
static inline int acs_measuredIteration(int iter, int maxiter) {
  return iter < 10 || (iter + 1) % 5 == 0 || iter + 1 >= maxiter;
}

// the blocks grouped by island, in order: block[start[i] .. start[i+1]) (start: nisland + 1;
// cursor: scratch, nisland)
void acs_islandBlocks(int* block, int* start, int* cursor, const acsProblem* p);

// the history of a solve run island by island, each island to its own end: after iteration iter
// of an island with NCP residual ncp, history[iter] is the largest residual of the islands solved
// so far (done: the largest last residual of those before); acs_islandHistoryEnd carries an
// island's last residual to the entries after its niter iterations
void acs_islandHistory(acsStats* stats, int iter, mjtNum ncp, mjtNum done);
void acs_islandHistoryEnd(acsStats* stats, int niter, mjtNum last);

// the worse of two statuses of islands: diverged, then the iteration limit, stalled, converged
int acs_worseStatus(int a, int b);

// a = G f + b on the rows of the blocks (w = M^-1 J' f current on their dofs), and the largest
// NCP residual and residual of the law model over them (NaN wins); shared (Nullable): per block,
// its rows share one pattern (acs_sharedPattern)
void acs_blocksResidual(mjtNum* ncp, mjtNum* res, mjtNum* a, const acsProblem* p,
                        const int* blocks, int nblock, const unsigned char* shared,
                        const mjtNum* w, const mjtNum* f, int model);

// the same residuals at the velocities a already holds for f on the blocks' rows
void acs_blocksResidualAt(mjtNum* ncp, mjtNum* res, const mjtNum* a, const acsProblem* p,
                          const int* blocks, int nblock, const mjtNum* f, int model);


//---------------------------------- iterations ----------------------------------------------------

// project the force fk of block k onto its feasible set for a contact law (acstModel)
void acs_projectBlock(mjtNum* fk, const acsProblem* p, int k, int model);

// project each block of f onto its feasible set for a contact law (acstModel)
void acs_projectFeasible(mjtNum* f, const acsProblem* p, int model);

// the CCP's objective 1/2 f'(G + R) f + b'f for forces f with velocity a = (G + R) f + b
mjtNum acs_ccpObjective(const acsProblem* p, const mjtNum* f, const mjtNum* a);

// The start of a dual solver (pgs, admm, raisim and their relaxations): the warm start in force
// projected onto the law's feasible set, or zero forces if its CCP objective is above theirs (zero;
// every law's solution has one at most zero). A warm start carried across
// a change of contact set can hold internal forces that no longer balance (ccp-admm's residual
// 7e8 on the 1000:1 stack after a change of its contact count), and a solve must never start
// worse than a cold one. Output: force, w = M^-1 J' f (nv), a = G f + b (nefc), the NCP residual
// and the law's of the start; stats start the solve (the residual of the start, no iteration,
// history or factorization). Return 1 if the warm start was replaced by zero forces.
int acs_startForces(mjtNum* force, mjtNum* w, mjtNum* a, mjtNum* resncp, mjtNum* res,
                    acsStats* stats, const acsProblem* p, int model);


//---------------------------------- block Gauss-Seidel --------------------------------------------

// diagonal blocks G_kk (+R) of every block and their regularized inverses, for the
// Gauss-Seidel solvers (pgs family, raisim)
typedef struct acsBlocks_ {
  mjtNum* G;                      // diagonal blocks, row-major                  (sum dim^2)
  mjtNum* Ginv;                   // their inverses                              (sum dim^2)
  int*    adr;                    // address of block k in G and Ginv            (nblock)
  unsigned char* shared;          // its rows share one pattern of B             (nblock)
                                  //   (acs_sharedPattern)
} acsBlocks;

// inverse of a symmetric positive semi-definite dim x dim block (dim <= 6); pivots below 1e-12
// times the largest diagonal are clamped (singular blocks)
void acs_invertBlock(mjtNum* Ginv, const mjtNum* G, int dim);

// carve (arena->base NULL: count) and compute the blocks of p
void acs_blocksLayout(acsBlocks* b, acsArena* arena, const acsProblem* p);
void acs_blocksCompute(acsBlocks* b, const acsProblem* p);

// Gauss-Seidel update of block k with velocity a when the block is an equality (exact block
// solve), a friction-loss row, a limit or a condim-1 contact (projected steps), relaxed by
// omega. Return 0 for a contact with friction (left to the solver).
int acs_updateSimpleBlock(mjtNum* f, const mjtNum* a, const acsBlocks* b, const acsProblem* p,
                          int k, mjtNum omega);

// Gauss-Seidel update of a contact block with friction (dim > 1) by the law model, the pgs
// family's (solver_pgs.c): the exact local solve where it lies in the law's cone, otherwise NCP:
// a normal step, then a tangential gradient step of length tstep in the coordinates scaled by
// mu (tstep < 0: a share 0.5 omega of the way to the exact friction at the new normal force, the
// minimizer of the friction's energy on the cone's disc) and the horizontal projection onto the
// cone; LCP:
// projected steps row by row in the box;
// CCP: a projected gradient step on the block. f, a: the block's force and velocity (its own
// force included), G, Ginv: its diagonal block and inverse, mu: its friction (5), relaxed by
// omega
void acs_updateContactBlock(mjtNum* f, const mjtNum* a, const mjtNum* G, const mjtNum* Ginv,
                            const mjtNum* mu, int dim, mjtNum omega, mjtNum tstep, int model);

// the NCP update's tangential step for a contact block: omega / lambda_max of the scaled
// tangential block G~_ij = mu_i mu_j G_ij (Gershgorin bound); 0 for a degenerate block
mjtNum acs_contactTangentStep(const mjtNum* G, const mjtNum* mu, int dim, mjtNum omega);


//---------------------------------- conjugate gradients -------------------------------------------

// out = A in (or P in) on the entries of a conjugate-gradient solve; arg: the solver's data
typedef void (*acsfOperator)(mjtNum* out, const mjtNum* in, void* arg);

// Preconditioned conjugate gradients for A x = v (A symmetric positive definite, P its
// preconditioner) from the x given, over the entries rows[0..n) of full-length vectors (an
// island's rows; rows NULL: the entries 0..n-1, with MuJoCo's vector operations). r, p, q, z:
// scratch, as long as x. Stops when |r| <= tol |v|, after maxiter iterations, or when a curvature
// is not positive. Return the iterations taken.
int acs_pcg(mjtNum* x, const mjtNum* v, const int* rows, int n, acsfOperator mul,
            acsfOperator precond, void* arg, mjtNum* r, mjtNum* p, mjtNum* q, mjtNum* z,
            mjtNum tol, int maxiter);

#endif  // ACS_PLUGIN_SOLVER_UTIL_H_
