// Copyright 2026 The acs authors.
//
// Projected Gauss-Seidel for three contact laws (Le Lidec et al., "Contact models in robotics"):
// pgs (NCP with De Saxce correction, Alg. 6; Pinocchio's PGSContactSolver), lcp-pgs (box-linearized
// cone, Alg. 1) and ccp-pgs (convex relaxation, Alg. 2, Anitescu-Tasora), extended to every row
// kind MuJoCo makes. One sweep visits the blocks in order; for block k with current velocity
// a_k = (G f + b)_k:
//
//   equality      exact block solve  f_k -= omega G_kk^-1 a_k  (bilateral, force free)
//   friction loss f <- clamp(f - omega a / G_kk, -fl, fl)
//   limit, condim-1 contact   f <- max(0, f - omega a / G_kk)
//   a limit and a friction loss on one row of J (up to its sign): solved together (gauss_seidel.c)
//   contact       1. stick test (all laws): the local solve f* = f_k - G_kk^-1 a_k makes a_k = 0;
//                    if f* is in the law's cone it is the exact local solution: take it.
//                 2. otherwise, by law:
//                    NCP (Alg. 6): normal step f_n <- max(0, f_n - omega a_n / G_nn), update a_t
//                      for the new f_n, tangential gradient step in the scaled coordinates
//                      f~_j = f_j / mu_j (where K is a round cone):
//                        f_j <- f_j - s mu_j^2 a_j,  s = omega / lambda_max(G~_tt)  (Gershgorin)
//                      then the horizontal projection onto the cone at fixed f_n. A fixed point
//                      has f_t on the cone with a_t opposite to f~_t (maximal dissipation) and
//                      f_n _|_ a_n: the NCP (15). The scalar tangential step matters: a matrix
//                      step (G_tt^-1) would converge to a non-dissipative point. A contact with
//                      torsional or rolling friction (condim 4, 6) moves half-way to the exact
//                      friction at fixed f_n instead (acs_updateContactBlock: the minimizer of
//                      the friction's energy on the cone's disc, whose optimality conditions are
//                      that same maximal dissipation): the scalar step, set by the sliding rows,
//                      turned its spin and rolling friction slowly.
//                    LCP (Alg. 1): the same normal step, then each tangential row in turn:
//                      f_j <- clamp(f_j - omega a_j / G_jj, -mu_j f_n, mu_j f_n) (box cone).
//                    CCP (Alg. 2): block projected gradient f <- P_K(f - h a), h = omega /
//                      lambda_max(G_kk) (Gershgorin bound): converges to the CCP, whose sliding
//                      contacts glide.
//
// w = M^-1 J' f is kept up to date after every block, so one block costs O(dim * nnz(row)).
// The solve stops on the NCP residual (metrics.c), on stalling, or after maxiter sweeps.

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "gauss_seidel.h"
#include "operator.h"
#include "residual.h"
#include "solvers.h"
#include "solver_util.h"

typedef struct pgsWork_ {
  acsSweep sweep;                 // the Gauss-Seidel driver's workspace
  mjtNum*  step;                  // tangential step of each contact block       (nblock)
  int      model;                 // the contact law
} pgsWork;


// carve the workspace (count only when arena->base is NULL)
static void pgsLayout(void* work, acsArena* arena, const acsProblem* p) {
  pgsWork* pw = (pgsWork*)work;
  acs_sweepLayout(&pw->sweep, arena, p);
  pw->step = acs_arenaAlloc(arena, p->nblock, sizeof(mjtNum));
}


size_t acs_pgsWorkspace(const acsProblem* p, const acsSettings* s) {
  (void)s;
  pgsWork pw;
  return acs_layoutBytes(pgsLayout, &pw, p);
}


// the driver's contact update
static void pgsContact(mjtNum* f, const mjtNum* a, const acsBlocks* b, const acsProblem* p, int k,
                       mjtNum relax, void* arg) {
  const pgsWork* pw = (const pgsWork*)arg;
  acs_updateContactBlock(f, a, b->G + b->adr[k], b->Ginv + b->adr[k], p->block_mu + 5*k,
                         p->block_dim[k], relax, pw->step[k], pw->model);
}


int acs_pgsSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                 const acsProblem* p, const acsSettings* s) {
  (void)state;
  pgsWork pw;
  acsArena arena = {work, 0};
  pgsLayout(&pw, &arena, p);
  pw.model = acs_solverModel(s->solver);

  // diagonal blocks, their inverses and the contacts' tangential steps
  acsBlocks* B = &pw.sweep.blocks;
  acs_blocksCompute(B, p);
  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k];
    pw.step[k] = (p->block_type[k] != acsBLOCK_CONTACT || dim == 1) ? 0 :
                 dim > 3 ? -1 :    // torsional or rolling friction: the exact friction
                 acs_contactTangentStep(B->G + B->adr[k], p->block_mu + 5*k, dim, s->omega);
  }
  return acs_gaussSeidel(force, stats, &pw.sweep, p, s, pw.model, s->omega, s->omega, 1,
                         pgsContact, &pw);
}
