// Copyright 2026 The acs authors.
//
// Forces between acs's layout and MuJoCo's: a step's constraint forces read from efc_force (the
// native solver's, the warm start of the metrics) and written back after an acs solve. For a
// pyramidal contact MuJoCo's forces p on the rows J_n +- mu_k J_k decode as
//   f_n = sum p,   f_k = mu_k (p_{2k-2} - p_{2k-1}),
// and acs's forces are written back with the exact (unclamped) inverse of that decoding
// (mju_encodePyramid clamps the friction to the pyramid and is not used).

#include "forces.h"

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "cone.h"
#include "context.h"
#include "mjcompat.h"
#include "sparse.h"
#include "util_errmem.h"

void acs_readForces(mjtNum* force, const acsContext* ctx, const mjModel* m, const mjData* d) {
  const acsProblem* p = &ctx->problem;
  const int* efcadr = acsBUF(ctx, block_efcadr, int);
  int pyramid = mj_isPyramidal(m);
  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k];
    mjtNum* f = force + p->block_adr[k];
    const mjtNum* ef = d->efc_force + efcadr[k];
    if (p->block_type[k] == acsBLOCK_CONTACT && pyramid && dim > 1) {
      const mjtNum* mu = p->block_mu + 5*k;
      f[0] = 0;
      for (int j=0; j < 2*(dim-1); j++) {
        f[0] += ef[j];
      }
      for (int j=1; j < dim; j++) {
        f[j] = mu[j-1] * (ef[2*j-2] - ef[2*j-1]);
      }
    } else if (p->block_type[k] == acsBLOCK_CONTACT) {
      mju_copy(f, ef, dim);
    } else {
      const int* efc = acsBUF(ctx, row_efc, int) + p->block_adr[k];
      for (int j=0; j < dim; j++) {
        f[j] = d->efc_force[efc[j]];
      }
    }
  }
}


// constraint state for introspection, as MuJoCo's dual solvers classify forces
static int rowState(int type, mjtNum f, mjtNum floss) {
  switch (type) {
  case acsBLOCK_EQUALITY:
    return mjCNSTRSTATE_QUADRATIC;
  case acsBLOCK_FRICTION:
    return f <= -floss ? mjCNSTRSTATE_LINEARPOS :
           f >= floss ? mjCNSTRSTATE_LINEARNEG : mjCNSTRSTATE_QUADRATIC;
  default:
    return f > 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
  }
}


void acs_writeForces(const acsContext* ctx, const mjModel* m, mjData* d, const mjtNum* force) {
  const acsProblem* p = &ctx->problem;
  const int* efcadr = acsBUF(ctx, block_efcadr, int);
  int pyramid = mj_isPyramidal(m);
  int nv = m->nv, nefc = d->nefc;

  // rows left out of the problem (they act on no dof) have zero force
  mju_zero(d->efc_force, nefc);
  for (int i=0; i < nefc; i++) {
    d->efc_state[i] = mjCNSTRSTATE_SATISFIED;
  }

  for (int k=0; k < p->nblock; k++) {
    int dim = p->block_dim[k], type = p->block_type[k];
    const mjtNum* f = force + p->block_adr[k];
    mjtNum* ef = d->efc_force + efcadr[k];
    int* state = d->efc_state + efcadr[k];

    if (type == acsBLOCK_CONTACT && pyramid && dim > 1) {
      // exact inverse of f_n = sum p, f_k = mu_k (p_{2k-2} - p_{2k-1}): edges may be negative
      const mjtNum* mu = p->block_mu + 5*k;
      mjtNum an = f[0] / (dim-1);
      for (int j=1; j < dim; j++) {
        mjtNum bt = f[j] / mu[j-1];
        ef[2*j-2] = 0.5*(an + bt);
        ef[2*j-1] = 0.5*(an - bt);
        state[2*j-2] = ef[2*j-2] > 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
        state[2*j-1] = ef[2*j-1] > 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
      }
    } else if (type == acsBLOCK_CONTACT && dim > 1) {
      mju_copy(ef, f, dim);
      int cstate = f[0] <= 0 ? mjCNSTRSTATE_SATISFIED :
                   acsu_coneNorm(f, p->block_mu + 5*k, dim) >= f[0] ? mjCNSTRSTATE_CONE :
                   mjCNSTRSTATE_QUADRATIC;
      for (int j=0; j < dim; j++) {
        state[j] = cstate;
      }
    } else {
      const int* efc = acsBUF(ctx, row_efc, int) + p->block_adr[k];
      for (int j=0; j < dim; j++) {
        d->efc_force[efc[j]] = f[j];
        d->efc_state[efc[j]] = rowState(type, f[j], p->block_floss[k]);
      }
    }
  }

  // joint space, as mj_fwdConstraint leaves it
  mju_zero(d->qfrc_constraint, nv);
  if (nefc) {
    mj_mulJacTVec(m, d, d->qfrc_constraint, d->efc_force);
    mj_mulJacVec(m, d, d->efc_b, d->qacc_smooth);
    mju_subFrom(d->efc_b, d->efc_aref, nefc);
  }
  const mjtNum *qLD, *qLDiagInv;
  acs_mjStepFactor(&qLD, &qLDiagInv, m, d);
  if (qLD == d->qLD) {
    mj_solveM(m, d, d->qacc, d->qfrc_constraint, 1);
    mju_addTo(d->qacc, d->qacc_smooth, nv);
    return;
  }

  // discrete integrator: qacc = qacc_smooth + M^-1 qfrc_constraint with the step's matrix; a tree
  // that no constraint row touches keeps MuJoCo's qacc (which corrects the gyroscopic term of
  // standalone free bodies)
  const int* tree_rows = acsBUF(ctx, tree_rows, int);
  const mjtNum* qacc_mj = acsBUF(ctx, qacc_mj, mjtNum);
  mju_copy(d->qacc, d->qfrc_constraint, nv);
  for (int t=0; t < m->ntree; t++) {
    int adr = m->tree_dofadr[t], num = m->tree_dofnum[t];
    if (tree_rows[t]) {
      acs_solveLD(d->qacc, m->M_rownnz, m->M_rowadr, m->M_colind, qLD, qLDiagInv, adr, num);
      mju_addTo(d->qacc + adr, d->qacc_smooth + adr, num);
    } else {
      mju_copy(d->qacc + adr, qacc_mj + adr, num);
    }
  }
}
