// Copyright 2026 The acs authors.
//
// The Irrotational Contact Fields solvers lagged and similar (Castro, Han, Masterjohn): one
// strongly convex problem per step in the velocity change u = v - v* (v* = qvel + h qacc_smooth),
//   min_u  1/2 u' M u + sum_k l_k(vfree_k + J_k u),
// with l_k the block potentials of icf.c (Hunt & Crossley contact with regularized friction,
// near-rigid SAP-style potentials for equality, limit and friction-loss rows). Its gradient is
// the momentum residual r = M u - J' gamma, its Hessian H = M + J' G J (SPD). Newton's method
// with an exact line search (Newton-Raphson on l'(alpha) = 0 safeguarded by bisection, O(n)
// per evaluation) converges to the relative tolerance of the paper, stopping when
//   |D r| <= eps_r max(|D M u|, |D J' gamma|),   D = diag(M)^-1/2   (Drake's criterion).
// The bisection falls on the line's stiction crossings first (where a contact's slip along the
// line is least: l' turns steeply there), and the line search's last evaluation serves the
// next iteration's gradient and Hessian.
// The cost is a sum over islands (blocks coupled through shared trees; M couples no trees), so
// each island has its own warm start, line search and stopping test: the iterations factor the
// Hessian of the islands still iterating at once, and an island stops when its own residual
// meets the tolerance (one step length for all islands would stop at each island's contact
// changes in turn).
//
// H is factorized in MuJoCo's sparse mass-matrix pattern (each dof coupled to its ancestors:
// no fill), with MuJoCo's LDL' elimination: J' G J stays in that pattern when a block's dofs lie
// on one chain of one tree (a robot touching the ground; such a block's J' G J is added to H's
// rows directly, the others' entry by entry through a lookup). Couplings outside the pattern (two
// trees or two branches in contact: a hand holding an object, a humanoid's arm on its thigh, a
// pile of boxes; in MuJoCo 4.0 also a free body's own dofs, its M diagonal) make H denser. The
// trees such blocks touch are factored by a supernodal Cholesky (supernodal.c: nodes the dof
// ranges no block splits, a free body's dofs, pieces of limbs; dense within a node, sparse
// between nodes in a minimum-degree order), the other trees keep the pattern's factor (their H
// lies in it), and the Newton step stays exact, so a wall of boxes
// costs about its number of boxes. When that factor needs more than its workspace (hessian.c),
// the pattern's factor preconditions conjugate gradients on the full H.
//
// The impulses are returned as forces gamma / h in acs's layout, so acs's write-back gives
// v+ = v* + M^-1 J' gamma = v* + u.

#include <limits.h>
#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "icf.h"
#include "operator.h"
#include "residual.h"
#include "solvers.h"
#include "solver_util.h"
#include "sparse.h"
#include "hessian.h"

#define kAlphaMax 1.5             // line search interval [0, 1.5] (Drake)
#define kLineTolerance 1e-8       // line search: |l'(alpha)| <= tol |l'(0)| (Drake)
#define kLineMaxEval 100          // line search evaluations per Newton iteration (Drake)
#define kKinkWidth 10.0           // line search: stiction crossings within this many v_s of zero
#define kCGTolerance 1e-10        // conjugate gradients: relative residual of the Newton step
#define kCGMaxIter 500            // conjugate gradients: iteration limit
#define kNearRigidBeta 1.0        // SAP near-rigid: the constraint's period is beta h

typedef struct icfWork_ {
  acsICFBlock* blk;               // block constants                          (nblock)
  int*    Gadr;                   // address of block k's Hessian in G        (nblock)
  mjtNum* G;                      // block Hessians                           (sum dim^2)
  mjtNum *vc, *dvc, *gamma, *gtry; // constraint space                        (nefc)
  mjtNum *u, *du, *grad, *Mu, *Mdu, *w; // dof space                         (nv)
  mjtNum *cr, *cp, *cq, *cz;      // conjugate gradients                      (nv)
  mjtNum *cv;                     // their right-hand side -grad              (nv)
  mjtNum *H, *Dinv;               // factor in M's pattern                    (nC), (nv)
  const mjtNum *L, *Linv;         // the factor solves use: H and Dinv, or the problem's
                                  //   factor of M (M_LD, M_Dinv) before the first Newton step
  acsHessian hs;                  // H on the trees off M's pattern, factored by nodes
  mjtNum *Jt, *JtG;               // each block's J' (once per solve) and J' G (per Newton
                                  //   iteration), np x dim, a dof's entries together (nnzJ)
  int*    Jtadr;                  // address of block k's in Jt and JtG       (nblock)
  int*    local;                  // dof -> position in the block's pattern   (nv)
  int*    mark;                   // the dofs of the trees off the pattern    (nv)
  int*    chain;                  // block's dofs are one chain of M's pattern (nblock)
  int*    boff;                   // block has couplings outside M's pattern  (nblock)
  int*    boffprev;               // ... when hs was analyzed                 (nblock)
  int     analyzed;               // hs analyzed for boffprev: 1, failed: 0, not yet: -1
  mjtNum *f, *a;                  // forces and velocities for the residual   (nefc)
  mjtNum* kink;                   // line search: the line's stiction crossings (nefc)
  int     offpattern;             // H has couplings outside M's pattern
  int     dense;                  // ... and is factored in hs (Newton step exact)

  // islands (the cost is a sum over them: each island its own line search and stopping test)
  int     nisland;                // islands
  int     *iblock, *ibstart;      // blocks of island i: iblock[ibstart[i] .. ibstart[i+1])
                                  //                                          (nblock), (nisland+1)
  int     *idof, *idstart;        // its dofs: idof[idstart[i] .. idstart[i+1]) (nv), (nisland+1)
  int*    dofisland;              // island of a dof, -1: a tree no block touches (u = 0)  (nv)
  int*    bisland;                // island of a block                        (nblock)
  int     *rrun, *rrstart;        // island i's rows in runs [rrun[2j], rrun[2j+1]),
                                  //   j in [rrstart[i], rrstart[i+1])     (2 nblock), (nisland+1)
  int     *drun, *drstart;        // its dofs in runs, likewise            (2 nv), (nisland+1)
  int*    active;                 // island still iterating                  (nisland)
  int*    range;                  // the dofs of the iterating islands: runs [range[2j],
                                  //   range[2j+1]) of whole trees            (2 nv)
  int     nrange;                 // runs
  mjtNum* iscale;                 // conjugate gradients: island's gradient norm (nisland)
} icfWork;


int acs_testIcfDenseNv = 0;
int acs_testIcfChain = 0;
int acs_testIcfOwnFactor = 0;
int acs_testIcfNoU0 = 0;
int acs_testIcfNoCrossings = 0;
long acs_testIcfChainBlocks = 0;

// the most dofs factored by the supernodal factor: any (the workspace decides), or the tests'
// choice
static int denseNv(void) {
  return acs_testIcfDenseNv > 0 ? acs_testIcfDenseNv : INT_MAX;
}


static int nnzM(const acsProblem* p) {
  return p->nv ? p->M_rowadr[p->nv-1] + p->M_rownnz[p->nv-1] : 0;
}


static void icfLayout(void* work, acsArena* arena, const acsProblem* p) {
  icfWork* iw = (icfWork*)work;
  size_t nG = 0;
  for (int k=0; k < p->nblock; k++) {
    nG += (size_t)p->block_dim[k] * p->block_dim[k];
  }
  int n = p->nefc, nv = p->nv;
  iw->blk   = acs_arenaAlloc(arena, p->nblock, sizeof(acsICFBlock));
  iw->Gadr  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->G     = acs_arenaAlloc(arena, nG, sizeof(mjtNum));
  iw->vc    = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->dvc   = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->gamma = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->gtry  = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->f     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->a     = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->kink  = acs_arenaAlloc(arena, n, sizeof(mjtNum));
  iw->u     = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->du    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->grad  = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->Mu    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->Mdu   = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->w     = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->cr    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->cp    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->cq    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->cz    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->cv    = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  iw->H     = acs_arenaAlloc(arena, p->M ? nnzM(p) : 0, sizeof(mjtNum));
  iw->Dinv  = acs_arenaAlloc(arena, nv, sizeof(mjtNum));
  acs_hessianLayout(&iw->hs, arena, p);
  iw->Jt    = acs_arenaAlloc(arena, p->nnzJ, sizeof(mjtNum));
  iw->JtG   = acs_arenaAlloc(arena, p->nnzJ, sizeof(mjtNum));
  iw->Jtadr = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->local = acs_arenaAlloc(arena, nv, sizeof(int));
  iw->mark  = acs_arenaAlloc(arena, nv, sizeof(int));
  iw->chain = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->boff  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->boffprev = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->analyzed = -1;
  int ni = iw->nisland = acs_islandCount(p);
  iw->iblock  = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->ibstart = acs_arenaAlloc(arena, ni + 1, sizeof(int));
  iw->idof    = acs_arenaAlloc(arena, nv, sizeof(int));
  iw->idstart = acs_arenaAlloc(arena, ni + 1, sizeof(int));
  iw->dofisland = acs_arenaAlloc(arena, nv, sizeof(int));
  iw->bisland = acs_arenaAlloc(arena, p->nblock, sizeof(int));
  iw->rrun    = acs_arenaAlloc(arena, 2 * (size_t)p->nblock, sizeof(int));
  iw->rrstart = acs_arenaAlloc(arena, ni + 1, sizeof(int));
  iw->drun    = acs_arenaAlloc(arena, 2 * (size_t)nv, sizeof(int));
  iw->drstart = acs_arenaAlloc(arena, ni + 1, sizeof(int));
  iw->active  = acs_arenaAlloc(arena, ni, sizeof(int));
  iw->range   = acs_arenaAlloc(arena, 2*nv, sizeof(int));
  iw->nrange  = 0;
  iw->iscale  = acs_arenaAlloc(arena, ni, sizeof(mjtNum));
}


// the blocks and dofs of each island: a dof belongs to the island of the blocks on its tree (the
// tree's first dof, its row's first column in M's pattern, marked by the blocks' dofs)
static void islandLayout(icfWork* iw, const acsProblem* p) {
  int nv = p->nv, ni = iw->nisland;
  acs_islandBlocks(iw->iblock, iw->ibstart, iw->active, p);
  int* isl = iw->dofisland;
  for (int i=0; i < nv; i++) {
    isl[i] = -1;
  }
  for (int k=0; k < p->nblock; k++) {
    int row = p->block_adr[k], island = iw->bisland[k] = acs_blockIsland(p, k);
    const int* col = p->J_colind + p->J_rowadr[row];
    for (int c=0; c < p->J_rownnz[row]; c++) {
      isl[col[c]] = island;
    }
  }
  for (int i=0; i < nv; i++) {   // the marks onto the roots, then the roots' onto their trees
    if (isl[i] >= 0) {
      isl[p->M_colind[p->M_rowadr[i]]] = isl[i];
    }
  }
  for (int i=0; i < nv; i++) {   // a root dof comes first: its mark is final when read
    isl[i] = isl[p->M_colind[p->M_rowadr[i]]];
  }
  memset(iw->idstart, 0, (ni + 1) * sizeof(int));
  for (int i=0; i < nv; i++) {
    if (isl[i] >= 0) {
      iw->idstart[isl[i] + 1]++;
    }
  }
  for (int i=0; i < ni; i++) {
    iw->idstart[i+1] += iw->idstart[i];
    iw->active[i] = iw->idstart[i];
  }
  for (int i=0; i < nv; i++) {
    if (isl[i] >= 0) {
      iw->idof[iw->active[isl[i]]++] = i;
    }
  }

  // the runs of consecutive rows and dofs of each island (one of each for a single island whose
  // trees are consecutive: the products over an island are then MuJoCo's vector operations)
  int nr = 0, nd = 0;
  for (int i=0; i < ni; i++) {
    iw->rrstart[i] = nr;
    for (int b=iw->ibstart[i]; b < iw->ibstart[i+1]; b++) {
      int k = iw->iblock[b], adr = p->block_adr[k];
      if (nr > iw->rrstart[i] && iw->rrun[2*nr-1] == adr) {
        iw->rrun[2*nr-1] += p->block_dim[k];
      } else {
        iw->rrun[2*nr] = adr;
        iw->rrun[2*nr+1] = adr + p->block_dim[k];
        nr++;
      }
    }
    iw->drstart[i] = nd;
    for (int q=iw->idstart[i]; q < iw->idstart[i+1]; q++) {
      int dof = iw->idof[q];
      if (nd > iw->drstart[i] && iw->drun[2*nd-1] == dof) {
        iw->drun[2*nd-1]++;
      } else {
        iw->drun[2*nd] = dof;
        iw->drun[2*nd+1] = dof + 1;
        nd++;
      }
    }
  }
  iw->rrstart[ni] = nr;
  iw->drstart[ni] = nd;
}


// island i stops iterating: its gradient zero, so that the steps of the others (whose dense
// nodes can hold its dofs too) never read a diverged island's values
static void stopIsland(icfWork* iw, int i) {
  iw->active[i] = 0;
  for (int q=iw->idstart[i]; q < iw->idstart[i+1]; q++) {
    iw->grad[iw->idof[q]] = 0;
  }
}


// the runs of consecutive dofs of the iterating islands (a tree's dofs are consecutive)
static void activeRanges(icfWork* iw, const acsProblem* p) {
  int n = 0;
  for (int i=0; i < p->nv; i++) {
    int isl = iw->dofisland[i];
    if (isl < 0 || !iw->active[isl]) {
      continue;
    }
    if (n && iw->range[2*n-1] == i) {
      iw->range[2*n-1]++;
    } else {
      iw->range[2*n] = i;
      iw->range[2*n+1] = i + 1;
      n++;
    }
  }
  iw->nrange = n;
}


size_t acs_icfWorkspace(const acsProblem* p, const acsSettings* s) {
  (void)s;
  icfWork iw;
  return acs_layoutBytes(icfLayout, &iw, p);
}


//---------------------------------- block constants -----------------------------------------------

// Delassus diagonal J_r M^-1 J_r' of row r, with M factorized in iw->H (x: nv scratch)
static mjtNum rowDelassus(icfWork* iw, const acsProblem* p, int r, mjtNum* x);

static void blockConstants(icfWork* iw, const acsProblem* p, const acsSettings* s, int similar) {
  mjtNum h = p->timestep;
  mjtNum taud = kNearRigidBeta * h / mjPI;       // SAP's near-rigid dissipation time scale
  int adrG = 0;
  for (int k=0; k < p->nblock; k++) {
    acsICFBlock* c = iw->blk + k;
    int adr = p->block_adr[k], dim = p->block_dim[k];
    memset(c, 0, sizeof(acsICFBlock));
    iw->Gadr[k] = adrG;
    adrG += dim*dim;
    c->dim = dim;
    c->h = h;

    if (p->block_type[k] == acsBLOCK_CONTACT) {
      const mjtNum* mu = p->block_mu + 5*k;
      c->kind = similar ? acsICF_SIMILAR : acsICF_LAGGED;
      c->k = p->block_stiffness ? p->block_stiffness[k] : s->stiffness;
      c->d = p->block_dissipation ? p->block_dissipation[k] : s->dissipation;
      c->phi0 = p->pos[adr];
      c->eps = s->stiction_tolerance;
      if (dim >= 3) {
        c->mu = mju_max(mu[0], mu[1]);
        c->scale[0] = c->mu > 0 ? mu[0] / c->mu : 0;
        c->scale[1] = c->mu > 0 ? mu[1] / c->mu : 0;
      }
      for (int j=3; j < dim; j++) {
        c->mu_rot[j-3] = mu[j-1];
      }

      // near-rigid clamp: the contact's natural period is at least h
      if (s->near_rigid) {
        mjtNum w = rowDelassus(iw, p, adr, iw->w);
        if (w > 0) {
          c->k = mju_min(c->k, 4*mjPI*mjPI / (w * h*h));
        }
      }

      // the friction bound of Lagged: the force law at the start-of-step state
      c->gn0 = h * c->k * mju_max(0, -c->phi0) * mju_max(0, 1 - c->d * p->vel[adr]);
      continue;
    }

    // near-rigid rows: R = beta^2 w / (4 pi^2), vhat = -phi / (h + tau_d)
    c->kind = p->block_type[k] == acsBLOCK_EQUALITY ? acsICF_BILATERAL :
              p->block_type[k] == acsBLOCK_LIMIT ? acsICF_LIMIT : acsICF_BOX;
    c->fmax = p->block_floss[k] * h;
    for (int r=0; r < dim; r++) {
      mjtNum w = rowDelassus(iw, p, adr+r, iw->w);
      c->R[r] = mju_max(kNearRigidBeta*kNearRigidBeta * w / (4*mjPI*mjPI), mjMINVAL);
      c->vhat[r] = c->kind == acsICF_BOX ? 0 : -p->pos[adr+r] / (h + taud);
    }
  }
}


//---------------------------------- evaluation ----------------------------------------------------

// J_r x: row r of J times x
static inline mjtNum rowMul(const acsProblem* p, int r, const mjtNum* x) {
  const int* col = p->J_colind + p->J_rowadr[r];
  const mjtNum* J = p->J + p->J_rowadr[r];
  mjtNum s = 0;
  for (int i=0; i < p->J_rownnz[r]; i++) {
    s += J[i] * x[col[i]];
  }
  return s;
}


// out += J_r' g: row r of J transposed times g
static inline void rowAddT(mjtNum* out, const acsProblem* p, int r, mjtNum g) {
  if (g == 0) {
    return;
  }
  const int* col = p->J_colind + p->J_rowadr[r];
  const mjtNum* J = p->J + p->J_rowadr[r];
  for (int i=0; i < p->J_rownnz[r]; i++) {
    out[col[i]] += J[i] * g;
  }
}


// vc = vfree + J u
static void constraintVelocity(mjtNum* vc, const acsProblem* p, const mjtNum* u) {
  for (int r=0; r < p->nefc; r++) {
    vc[r] = p->vfree[r] + rowMul(p, r, u);
  }
}


// out += J' g
static void addJT(mjtNum* out, const acsProblem* p, const mjtNum* g) {
  for (int r=0; r < p->nefc; r++) {
    rowAddT(out, p, r, g[r]);
  }
}


// dv = J du on the rows of the iterating islands
static void mulJActive(mjtNum* dv, const icfWork* iw, const acsProblem* p, const mjtNum* du) {
  for (int i=0; i < iw->nisland; i++) {
    for (int b=iw->ibstart[i]; b < iw->ibstart[i+1] && iw->active[i]; b++) {
      int k = iw->iblock[b], adr = p->block_adr[k];
      for (int r=adr; r < adr + p->block_dim[k]; r++) {
        dv[r] = rowMul(p, r, du);
      }
    }
  }
}


// out += J' g over the rows of the iterating islands
static void addJTActive(mjtNum* out, const icfWork* iw, const acsProblem* p, const mjtNum* g) {
  for (int i=0; i < iw->nisland; i++) {
    for (int b=iw->ibstart[i]; b < iw->ibstart[i+1] && iw->active[i]; b++) {
      int k = iw->iblock[b], adr = p->block_adr[k];
      for (int r=adr; r < adr + p->block_dim[k]; r++) {
        rowAddT(out, p, r, g[r]);
      }
    }
  }
}


// out = M v (lower triangle stored) on the dofs [adr, adr+num) (whole trees)
static void mulMRange(mjtNum* out, const acsProblem* p, const mjtNum* v, int adr, int num) {
  // row i's own sum in a local (out[i] is still zero: its descendants come later), the
  // transposed entries scattered to its ancestors
  mju_zero(out + adr, num);
  for (int i=adr; i < adr+num; i++) {
    int radr = p->M_rowadr[i], n = p->M_rownnz[i];
    const int* col = p->M_colind + radr;
    const mjtNum* M = p->M + radr;
    mjtNum vi = v[i], s = 0;
    for (int j=0; j < n-1; j++) {
      s += M[j] * v[col[j]];
      out[col[j]] += M[j] * vi;
    }
    out[i] = s + M[n-1] * vi;
  }
}


// out = M v
static void mulM(mjtNum* out, const acsProblem* p, const mjtNum* v) {
  mulMRange(out, p, v, 0, p->nv);
}


// out = M v on the dofs of the iterating islands
static void mulMActive(mjtNum* out, const icfWork* iw, const acsProblem* p, const mjtNum* v) {
  for (int j=0; j < iw->nrange; j++) {
    mulMRange(out, p, v, iw->range[2*j], iw->range[2*j+1] - iw->range[2*j]);
  }
}


// potentials of island i's blocks at velocities v: their cost, impulses gamma, Hessians G (if
// wanted)
static mjtNum islandPotentials(mjtNum* gamma, icfWork* iw, const acsProblem* p,
                               const mjtNum* v, int hessian, int i) {
  mjtNum cost = 0;
  for (int b=iw->ibstart[i]; b < iw->ibstart[i+1]; b++) {
    int k = iw->iblock[b], adr = p->block_adr[k];
    cost += acsu_icfPotential(gamma + adr, hessian ? iw->G + iw->Gadr[k] : NULL, iw->blk + k,
                              v + adr);
  }
  return cost;
}


// x' y over runs [run[2j], run[2j+1]), j in [start[i], start[i+1]) (an island's dofs or rows)
static mjtNum runDot(const mjtNum* x, const mjtNum* y, const int* run, const int* start, int i) {
  mjtNum s = 0;
  for (int j=start[i]; j < start[i+1]; j++) {
    s += mju_dot(x + run[2*j], y + run[2*j], run[2*j+1] - run[2*j]);
  }
  return s;
}


// x' y over the dofs of island i
static mjtNum islandDot(const mjtNum* x, const mjtNum* y, const icfWork* iw, int i) {
  return runDot(x, y, iw->drun, iw->drstart, i);
}


// x' y over the rows of island i
static mjtNum islandRowDot(const mjtNum* x, const mjtNum* y, const icfWork* iw, int i) {
  return runDot(x, y, iw->rrun, iw->rrstart, i);
}


// y <- x + alpha dx on the rows of island i (y = x when dx is NULL)
static void islandRowStep(mjtNum* y, const mjtNum* x, const mjtNum* dx, mjtNum alpha,
                          const icfWork* iw, int i) {
  for (int j=iw->rrstart[i]; j < iw->rrstart[i+1]; j++) {
    int a = iw->rrun[2*j], n = iw->rrun[2*j+1] - a;
    if (dx) {
      mju_addScl(y + a, x + a, dx + a, alpha, n);
    } else {
      mju_copy(y + a, x + a, n);
    }
  }
}


//---------------------------------- Hessian -------------------------------------------------------

// X = A G for the np rows of A (np x dim), G dim x dim
static inline void productRows(mjtNum* X, const mjtNum* A, const mjtNum* G, int np, int dim) {
  for (int c=0; c < np; c++) {
    const mjtNum* a = A + c*dim;
    for (int r=0; r < dim; r++) {
      mjtNum v = 0;
      for (int q=0; q < dim; q++) {
        v += a[q] * G[q*dim + r];
      }
      X[c*dim + r] = v;
    }
  }
}


// block k's J' G (np x dim, in JtG at the block's address) at the present G; return np, 0 if the
// block's Hessian is zero
static int blockProduct(icfWork* iw, const acsProblem* p, int k) {
  int adr = p->block_adr[k], dim = p->block_dim[k];
  const mjtNum* G = iw->G + iw->Gadr[k];
  int nonzero = 0;
  for (int i=0; i < dim*dim && !nonzero; i++) {
    nonzero = G[i] != 0;
  }
  if (!nonzero) {
    return 0;
  }
  int np = p->J_rownnz[adr];
  const mjtNum* Jt = iw->Jt + iw->Jtadr[k];
  mjtNum* JtG = iw->JtG + iw->Jtadr[k];
  if (dim == 3) {   // a contact without torsion: the common case, unrolled
    productRows(JtG, Jt, G, np, 3);
  } else {
    productRows(JtG, Jt, G, np, dim);
  }
  return np;
}


// entry (a, b) of block k's J' G J over its pattern (blockProduct current)
static mjtNum blockEntry(const icfWork* iw, int k, int dim, int a, int b) {
  const mjtNum* x = iw->JtG + iw->Jtadr[k] + a*dim;
  const mjtNum* y = iw->Jt + iw->Jtadr[k] + b*dim;
  if (dim == 3) {   // a contact without torsion: the common case, unrolled
    return x[0]*y[0] + x[1]*y[1] + x[2]*y[2];
  }
  mjtNum v = 0;
  for (int r=0; r < dim; r++) {
    v += x[r] * y[r];
  }
  return v;
}


// whether block k's dofs pat[0..np) form one chain of M's pattern: row pat[a] of M holds
// exactly pat[0..a] (a body touching the world, or a chain's own bodies); then the block's
// J' G J lies in the pattern and fills those rows in order
static int blockChain(const acsProblem* p, int k) {
  int adr = p->block_adr[k], np = p->J_rownnz[adr];
  const int* pat = p->J_colind + p->J_rowadr[adr];
  for (int a=0; a < np; a++) {
    int radr = p->M_rowadr[pat[a]];
    if (p->M_rownnz[pat[a]] != a+1) {
      return 0;
    }
    for (int b=0; b < a; b++) {
      if (p->M_colind[radr+b] != pat[b]) {
        return 0;
      }
    }
  }
  return 1;
}


// the factor of the trees that blocks with couplings outside M's pattern (boff) touch: its nodes
// over their dofs, coupled by those blocks (hessian.c); the other trees' H lies in M's pattern.
// Return -1 if it needs more than its workspace
static int analyzeNodes(icfWork* iw, const acsProblem* p) {
  acs_hessianTrees(iw->mark, p, iw->boff);
  return acs_hessianAnalyze(&iw->hs, p, iw->mark, iw->boff);
}


// H on the nodes of the trees off M's pattern (analyzeNodes), factored: the in-pattern part
// assembled in iw->H (M and every block's couplings of dofs to their ancestors) and the
// couplings outside M's pattern of the blocks marked in boff, of the islands still iterating (an
// island that stopped keeps M: its step is not used). Return 0 if H is not numerically positive
// definite
static int factorNodes(icfWork* iw, const acsProblem* p) {
  acs_hessianZero(&iw->hs);
  acs_hessianAddM(&iw->hs, p, iw->H);
  for (int k=0; k < p->nblock; k++) {
    if (iw->boff[k] && iw->active[iw->bisland[k]]) {
      acs_hessianAddBlock(&iw->hs, p, k, iw->Jt + iw->Jtadr[k], iw->JtG + iw->Jtadr[k], 0);
    }
  }
  return acs_hessianFactor(&iw->hs) == 0;
}


// rows [a, b) of M's layout copied from src to dst
static void copyRows(mjtNum* dst, const mjtNum* src, const acsProblem* p, int a, int b) {
  int start = p->M_rowadr[a], end = p->M_rowadr[b-1] + p->M_rownnz[b-1];
  mju_copy(dst + start, src + start, end - start);
}


// H = M + (J' G J within M's pattern) (only M if not flg_contact), factorized in place as
// L' D L (MuJoCo's elimination); sets offpattern (and boff of the blocks) when J' G J has
// couplings outside the pattern, and dense when the trees those blocks touch are factored in hs
// (factorNodes; the pattern's factor serves the other dofs). The blocks of islands that stopped
// iterating are left out (their trees keep M), their boff kept: the nodes stay as analyzed, and
// only an iterating island's couplings make H leave the pattern
static void factorHessian(icfWork* iw, const acsProblem* p, int flg_contact) {
  int nv = p->nv;
  if (!flg_contact) {
    mju_copy(iw->H, p->M, nnzM(p));
  }
  for (int j=0; flg_contact && j < iw->nrange; j++) {
    copyRows(iw->H, p->M, p, iw->range[2*j], iw->range[2*j+1]);
  }
  iw->offpattern = iw->dense = 0;

  for (int k=0; k < p->nblock && flg_contact; k++) {
    if (!iw->active[iw->bisland[k]]) {
      continue;
    }
    int np = blockProduct(iw, p, k), dim = p->block_dim[k];
    const int* pat = p->J_colind + p->J_rowadr[p->block_adr[k]];

    // one chain: row pat[a] of H is pat[0..a], no lookup
    if (iw->chain[k]) {
      for (int a=0; a < np; a++) {
        mjtNum* Hrow = iw->H + p->M_rowadr[pat[a]];
        for (int b=0; b <= a; b++) {
          Hrow[b] += blockEntry(iw, k, dim, a, b);
        }
      }
      iw->boff[k] = 0;
      if (acs_testIcfChain == 2) {
        acs_testIcfChainBlocks++;
      }
      continue;
    }

    for (int c=0; c < np; c++) {
      iw->local[pat[c]] = c;
    }

    // in-pattern entries: row i of the pattern against its ancestors in the pattern
    long inpattern = 0;
    for (int a=0; a < np; a++) {
      int i = pat[a];
      int radr = p->M_rowadr[i], rn = p->M_rownnz[i];
      for (int j=0; j < rn; j++) {
        int b = iw->local[p->M_colind[radr+j]];
        if (b < 0) {
          continue;
        }
        iw->H[radr+j] += blockEntry(iw, k, dim, a, b);
        inpattern++;
      }
    }
    iw->boff[k] = inpattern < (long)np*(np+1)/2;
    iw->offpattern |= iw->boff[k];
    for (int c=0; c < np; c++) {
      iw->local[pat[c]] = -1;
    }
  }

  // the trees off the pattern first (they read H's in-pattern part before its factorization,
  // which the other dofs need, if any)
  if (iw->offpattern) {
    // the nodes and their order anew only when the blocks off the pattern changed (they seldom
    // do between Newton iterations)
    if (iw->analyzed < 0 || memcmp(iw->boff, iw->boffprev, p->nblock * sizeof(int))) {
      iw->analyzed = !analyzeNodes(iw, p);
      memcpy(iw->boffprev, iw->boff, p->nblock * sizeof(int));
    }
    for (int i=0; i < nv && iw->analyzed; i++) {   // M on the set's trees that stopped
      int isl = iw->dofisland[i];
      if (iw->hs.node[i] >= 0 && (isl < 0 || !iw->active[isl])) {
        copyRows(iw->H, p->M, p, i, i+1);
      }
    }
    iw->dense = iw->analyzed && iw->hs.ndof < denseNv() && factorNodes(iw, p);
  }
  iw->L = iw->H;
  iw->Linv = iw->Dinv;
  if (!flg_contact) {
    acs_factorLD(iw->H, iw->Dinv, p->M_rownnz, p->M_rowadr, p->M_colind, 0, nv);
  } else if (!iw->dense || iw->hs.ndof < nv) {   // the iterating islands' trees, last first
    for (int j=iw->nrange-1; j >= 0; j--) {
      acs_factorLD(iw->H, iw->Dinv, p->M_rownnz, p->M_rowadr, p->M_colind, iw->range[2*j],
                   iw->range[2*j+1] - iw->range[2*j]);
    }
  }
}


// x <- (L' D L)^-1 x with the factor of factorHessian
static void solveFactor(mjtNum* x, const icfWork* iw, const acsProblem* p) {
  acs_solveLD(x, p->M_rownnz, p->M_rowadr, p->M_colind, iw->L, iw->Linv, 0, p->nv);
}


// the same on the dofs of the iterating islands (factorHessian factored only those)
static void solveActive(mjtNum* x, const icfWork* iw, const acsProblem* p) {
  for (int j=0; j < iw->nrange; j++) {
    acs_solveLD(x, p->M_rownnz, p->M_rowadr, p->M_colind, iw->L, iw->Linv, iw->range[2*j],
                iw->range[2*j+1] - iw->range[2*j]);
  }
}


static mjtNum rowDelassus(icfWork* iw, const acsProblem* p, int r, mjtNum* x) {
  // J_r M^-1 J_r' = y' D^-1 y with y = L^-T J_r', which lies on the row's dofs and their
  // ancestors: the chain of its last dof (its row of M's pattern) when the row lies in it (a body
  // against the world), otherwise the dofs below its last
  int adr = p->J_rowadr[r], n = p->J_rownnz[r];
  const int* col = p->J_colind + adr;
  const int* chain = n ? p->M_colind + p->M_rowadr[col[n-1]] : NULL;
  int nchain = n ? p->M_rownnz[col[n-1]] : 0, inchain = 1;
  for (int i=0, j=0; i < n && inchain; i++) {
    while (j < nchain && chain[j] < col[i]) {
      j++;
    }
    inchain = j < nchain && chain[j] == col[i];
  }
  const int* pat = inchain ? chain : NULL;
  int npat = inchain ? nchain : col[n-1] + 1;
  for (int q=0; q < npat; q++) {
    x[pat ? pat[q] : q] = 0;
  }
  for (int i=0; i < n; i++) {
    x[col[i]] = p->J[adr+i];
  }
  acs_halfSolveLD(x, p->M_rownnz, p->M_rowadr, p->M_colind, iw->L, NULL, pat, npat);
  mjtNum g = 0;
  for (int q=0; q < npat; q++) {
    int i = pat ? pat[q] : q;
    g += x[i] * x[i] * iw->Linv[i];
  }
  return g;
}


// out = H v = M v + J' G J v
static void mulH(mjtNum* out, icfWork* iw, const acsProblem* p, const mjtNum* v) {
  // on the iterating islands (the others' Hessians are not read: a diverged island's are not
  // finite), zero elsewhere
  mju_zero(out, p->nv);
  mulMActive(out, iw, p, v);
  mulJActive(iw->dvc, iw, p, v);
  for (int k=0; k < p->nblock; k++) {
    int adr = p->block_adr[k], dim = p->block_dim[k];
    if (iw->active[iw->bisland[k]]) {
      mju_mulMatVec(iw->gtry + adr, iw->G + iw->Gadr[k], iw->dvc + adr, dim, dim);
    }
  }
  addJTActive(out, iw, p, iw->gtry);
}


// the Newton system for acs_pcg: H applied through M, J and G, the factor as preconditioner
typedef struct {
  icfWork*          iw;
  const acsProblem* p;
} icfSolve;

static void icfMul(mjtNum* out, const mjtNum* in, void* arg) {
  icfSolve* is = (icfSolve*)arg;
  mulH(out, is->iw, is->p, in);
}

static void icfPrecond(mjtNum* out, const mjtNum* in, void* arg) {
  icfSolve* is = (icfSolve*)arg;
  mju_copy(out, in, is->p->nv);
  solveActive(out, is->iw, is->p);
}


// du = -H^-1 grad: the factor solves it when H lies in M's pattern, the supernodal factor on the
// trees off it when they were factored so; otherwise the factor preconditions conjugate
// gradients, on every iterating island at once with each island's right-hand side scaled to
// norm 1 (H couples no islands: the solve is the same, and its relative tolerance, 1e-10 of the
// norm sqrt(islands iterating), holds for each island, not only for the one of largest gradient)
static void newtonStep(icfWork* iw, const acsProblem* p) {
  int nv = p->nv;
  mju_scl(iw->du, iw->grad, -1, nv);
  if (!iw->dense || iw->hs.ndof < nv) {
    solveActive(iw->du, iw, p);
  }
  if (iw->dense) {   // the trees off the pattern: the supernodal factor (H couples no others)
    for (int i=0; i < nv; i++) {
      if (iw->hs.node[i] >= 0) {
        iw->du[i] = -iw->grad[i];
      }
    }
    acs_hessianSolve(&iw->hs, iw->du);
    return;
  }
  if (!iw->offpattern) {
    return;
  }

  for (int i=0; i < iw->nisland; i++) {
    iw->iscale[i] = iw->active[i] ? mju_sqrt(islandDot(iw->grad, iw->grad, iw, i)) : 0;
  }
  for (int i=0; i < nv; i++) {
    int isl = iw->dofisland[i];
    mjtNum scale = isl >= 0 && iw->iscale[isl] > 0 ? 1 / iw->iscale[isl] : 0;
    iw->cv[i] = -iw->grad[i] * scale;
    iw->du[i] *= scale;
  }
  icfSolve is = {iw, p};
  acs_pcg(iw->du, iw->cv, NULL, nv, icfMul, icfPrecond, &is, iw->cr, iw->cp, iw->cq, iw->cz,
          kCGTolerance, kCGMaxIter);
  for (int i=0; i < nv; i++) {
    iw->du[i] *= iw->dofisland[i] >= 0 ? iw->iscale[iw->dofisland[i]] : 0;
  }
}


//---------------------------------- exact line search ---------------------------------------------

// s + x' G x, the terms added to s one by one
static inline mjtNum addQuadratic(mjtNum s, const mjtNum* G, const mjtNum* x, int dim) {
  for (int i=0; i < dim; i++) {
    for (int j=0; j < dim; j++) {
      s += x[i] * G[i*dim+j] * x[j];
    }
  }
  return s;
}


// l'(alpha) and l''(alpha) of island i's cost along du (duMu, duMdu precomputed over its dofs;
// dvc = J du); at alpha = 0 the impulses and Hessians of the iterate (iw->gamma, iw->G from the
// gradient's evaluation) are used as they are, otherwise the potentials of the island's blocks
// are evaluated (one evaluation, counted in neval)
static void lineDerivatives(mjtNum* d1, mjtNum* d2, icfWork* iw, const acsProblem* p, int i,
                            mjtNum alpha, mjtNum duMu, mjtNum duMdu, int* neval) {
  const mjtNum* gamma = iw->gamma;
  if (alpha != 0) {
    islandRowStep(iw->a, iw->vc, iw->dvc, alpha, iw, i);
    islandPotentials(iw->gtry, iw, p, iw->a, 1, i);
    gamma = iw->gtry;
    (*neval)++;
  }
  *d1 = duMu + alpha*duMdu - islandRowDot(iw->dvc, gamma, iw, i);
  mjtNum curv = duMdu;
  for (int b=iw->ibstart[i]; b < iw->ibstart[i+1]; b++) {
    int k = iw->iblock[b], adr = p->block_adr[k], dim = p->block_dim[k];
    const mjtNum* G = iw->G + iw->Gadr[k];
    curv = dim == 3 ? addQuadratic(curv, G, iw->dvc + adr, 3) :   // the common case, unrolled
                      addQuadratic(curv, G, iw->dvc + adr, dim);
  }
  *d2 = curv;
}


// x[root] moved down the max-heap x[0..end)
static void siftDown(mjtNum* x, int root, int end) {
  for (int child=2*root + 1; child < end; child=2*root + 1) {
    if (child+1 < end && x[child+1] > x[child]) {
      child++;
    }
    if (!(x[child] > x[root])) {
      return;
    }
    mjtNum tmp = x[root];
    x[root] = x[child];
    x[child] = tmp;
    root = child;
  }
}


// x sorted ascending (heap sort: in place, n log n)
static void sortAscending(mjtNum* x, int n) {
  for (int i=n/2 - 1; i >= 0; i--) {
    siftDown(x, i, n);
  }
  for (int end=n-1; end > 0; end--) {
    mjtNum tmp = x[0];
    x[0] = x[end];
    x[end] = tmp;
    siftDown(x, 0, end);
  }
}


// the line's stiction crossings of island i, ascending: for each contact's scaled tangential velocity
// x + alpha dx that passes within kKinkWidth stiction tolerances of zero, and each torsional or
// rolling row that changes sign, the alpha of least slip in (0, kAlphaMax). There the friction's
// curvature along the line peaks (mu g |dx|^2 / |x|_s) and l' turns steeply: a Newton step from
// either side overshoots. Return their number
static int stictionCrossings(mjtNum* alphas, const icfWork* iw, const acsProblem* p, int i) {
  int n = 0;
  for (int b=iw->ibstart[i]; b < iw->ibstart[i+1]; b++) {
    int k = iw->iblock[b];
    const acsICFBlock* c = iw->blk + k;
    if ((c->kind != acsICF_LAGGED && c->kind != acsICF_SIMILAR) || c->dim < 3 || !(c->mu > 0)) {
      continue;
    }
    const mjtNum *v = iw->vc + p->block_adr[k], *dv = iw->dvc + p->block_adr[k];
    mjtNum x0 = c->scale[0]*v[1], x1 = c->scale[1]*v[2];
    mjtNum dx0 = c->scale[0]*dv[1], dx1 = c->scale[1]*dv[2];
    mjtNum dd = dx0*dx0 + dx1*dx1;
    if (dd > 0) {
      mjtNum alpha = -(x0*dx0 + x1*dx1) / dd;
      mjtNum y0 = x0 + alpha*dx0, y1 = x1 + alpha*dx1;
      if (alpha > 0 && alpha < kAlphaMax &&
          y0*y0 + y1*y1 < kKinkWidth*kKinkWidth * c->eps*c->eps) {
        alphas[n++] = alpha;
      }
    }
    for (int j=3; j < c->dim; j++) {
      if (dv[j] != 0) {
        mjtNum alpha = -v[j] / dv[j];
        if (alpha > 0 && alpha < kAlphaMax) {
          alphas[n++] = alpha;
        }
      }
    }
  }
  sortAscending(alphas, n);
  return n;
}


// minimizer of island i's cost along du in [0, kAlphaMax] (Mdu = M du, dvc = J du): Newton-Raphson on l'(alpha) = 0 inside the
// bracket (rtsafe), from the Newton-Raphson point of alpha = 0. A step that would leave the
// bracket goes instead to the median of the stiction crossings inside it (the bracket then holds
// half of them; near a crossing Newton converges), and without any to the bracket's middle;
// l'(kAlphaMax) is evaluated only when an iterate would leave the bracket above (l' < 0 there:
// kAlphaMax is the answer). Return alpha (0: no descent); *last: whether it was the last point
// evaluated (iw->a, iw->gtry and iw->G then hold its velocities, impulses and Hessians on the
// island's rows)
static mjtNum lineSearch(icfWork* iw, const acsProblem* p, int i, int* neval, int* last) {
  mjtNum duMu = islandDot(iw->du, iw->Mu, iw, i), duMdu = islandDot(iw->du, iw->Mdu, iw, i);

  mjtNum d0, c0;
  lineDerivatives(&d0, &c0, iw, p, i, 0, duMu, duMdu, neval);
  *last = 0;
  if (!(d0 < 0)) {
    return 0;
  }

  mjtNum lo = 0, hi = kAlphaMax;
  int hiknown = 0;   // l'(hi) >= 0 evaluated
  int klo = 0, khi = acs_testIcfNoCrossings ? 0 : stictionCrossings(iw->kink, iw, p, i);
  // [klo, khi): the crossings inside (lo, hi)
  mjtNum alpha = mju_min(-d0 / c0, kAlphaMax);
  for (int it=0; it < kLineMaxEval; it++) {
    mjtNum d1, d2;
    lineDerivatives(&d1, &d2, iw, p, i, alpha, duMu, duMdu, neval);
    *last = 1;
    if (mju_abs(d1) <= kLineTolerance * mju_abs(d0)) {
      break;
    }
    if (d1 < 0 && alpha == kAlphaMax) {
      return kAlphaMax;
    }
    if (d1 < 0) {
      lo = alpha;
    } else {
      hi = alpha;
      hiknown = 1;
    }
    if (hi - lo <= 1e-14 * hi) {
      break;
    }
    while (klo < khi && iw->kink[klo] <= lo) {
      klo++;
    }
    while (khi > klo && iw->kink[khi-1] >= hi) {
      khi--;
    }
    mjtNum next = alpha - d1 / d2;
    *last = 0;
    alpha = (d2 > 0 && next > lo && next < hi) ? next :
            !hiknown ? kAlphaMax :
            klo < khi ? iw->kink[(klo + khi) / 2] : 0.5*(lo + hi);
  }
  return alpha;
}


//---------------------------------- solve ---------------------------------------------------------

// the common NCP residual of the forces gamma / h of the iterate, with its velocity
// a = (J u) / h + b (= G f + b at convergence, u = M^-1 J' gamma); iw->vc and iw->gamma current
static mjtNum iterateResidual(icfWork* iw, const acsProblem* p) {
  mjtNum h = p->timestep;
  for (int r=0; r < p->nefc; r++) {
    iw->f[r] = iw->gamma[r] / h;
    iw->a[r] = (iw->vc[r] - p->vfree[r]) / h + p->b[r];
  }
  return acs_residual(p, iw->f, iw->a, acsMODEL_NCP);
}


int acs_icfSolve(mjtNum* force, acsStats* stats, acsSolverState* state, void* work,
                 const acsProblem* p, const acsSettings* s) {
  (void)state;
  if (!p->M || !p->vfree || !p->vel || !p->pos) {
    return acsSTATUS_ERROR;   // the primal solvers need the mass matrix and velocities
  }
  icfWork iw;
  acsArena arena = {work, 0};
  icfLayout(&iw, &arena, p);
  int nv = p->nv, n = p->nefc;
  mjtNum h = p->timestep;

  // M factorized (the problem's factor when given): the rows' Delassus diagonals for the
  // near-rigid potentials, and the warm start u = M^-1 J' gamma of the previous forces
  acs_blockTransposes(iw.Jt, iw.Jtadr, p);
  for (int k=0; k < p->nblock; k++) {
    iw.chain[k] = acs_testIcfChain != 1 && blockChain(p, k);
  }
  if (p->M_LD && p->M_Dinv && !acs_testIcfOwnFactor) {
    iw.L = p->M_LD;
    iw.Linv = p->M_Dinv;
    iw.offpattern = iw.dense = 0;
  } else {
    factorHessian(&iw, p, 0);
  }
  blockConstants(&iw, p, s, s->solver == acsSOL_SIMILAR);
  for (int r=0; r < n; r++) {
    iw.f[r] = force[r] * h;
  }
  mju_zero(iw.u, nv);
  addJT(iw.u, p, iw.f);
  solveFactor(iw.u, &iw, p);

  // the warm start of least cost 1/2 u'M u + sum of potentials at v_free + J u, island by island
  // (the cost is their sum): the previous forces', the start-of-step velocities' u0 (when given:
  // it wins when the previous impulses leave sticking contacts sliding faster than the stiction
  // tolerance) or the free motion u = 0 (a contact set that changed can carry impulses that no
  // longer apply); the chosen start's velocities, impulses, Hessians and M u serve the first
  // iteration. A tree no block touches has u = 0
  islandLayout(&iw, p);
  constraintVelocity(iw.vc, p, iw.u);
  mulM(iw.Mu, p, iw.u);
  int hasu0 = p->u0 && !acs_testIcfNoU0;
  if (hasu0) {
    constraintVelocity(iw.a, p, p->u0);
    mulM(iw.Mdu, p, p->u0);
  }
  for (int i=0; i < iw.nisland; i++) {
    mjtNum cost0 = islandPotentials(iw.gtry, &iw, p, p->vfree, 0, i);
    mjtNum cost = 0.5 * islandDot(iw.u, iw.Mu, &iw, i) +
                  islandPotentials(iw.gamma, &iw, p, iw.vc, 1, i);
    mjtNum costu = hasu0 ? 0.5 * islandDot(p->u0, iw.Mdu, &iw, i) +
                           islandPotentials(iw.gtry, &iw, p, iw.a, 0, i) : INFINITY;
    iw.active[i] = 1;
    const mjtNum *u = p->u0, *Mu = iw.Mdu, *vc = iw.a;
    if (!(costu < mju_min(cost, cost0))) {
      if (cost <= cost0) {
        continue;   // the previous forces' start, evaluated
      }
      u = Mu = NULL, vc = p->vfree;
    }
    for (int q=iw.idstart[i]; q < iw.idstart[i+1]; q++) {
      int dof = iw.idof[q];
      iw.u[dof] = u ? u[dof] : 0;
      iw.Mu[dof] = Mu ? Mu[dof] : 0;
    }
    islandRowStep(iw.vc, vc, NULL, 0, &iw, i);
    islandPotentials(iw.gamma, &iw, p, iw.vc, 1, i);
  }
  for (int i=0; i < nv; i++) {
    if (iw.dofisland[i] < 0) {
      iw.u[i] = iw.Mu[i] = 0;
    }
  }
  for (int k=0; k < p->nblock; k++) {
    iw.boff[k] = 0;
  }
  for (int i=0; i < nv; i++) {
    iw.local[i] = -1;   // factorHessian's lookup, reset after each block
  }
  mju_zero(iw.grad, nv);   // zero where no island is (and stays so)

  // Newton iterations, every island that still iterates at once (one factorization), each
  // island with its own line search and stopping test: an island's contacts change their
  // state (stick, slip, touch) at their own points along the step, and one step length for all
  // would stop at each island's in turn (22 humanoids on the floor: 6 iterations a step when
  // they move alike, 22 when they do not)
  stats->niter = stats->nhistory = stats->nfactor = stats->nevaluation = 0;
  int status = acsSTATUS_CONVERGED, nactive = iw.nisland, nranged = -1;
  for (int iter=0; ; iter++) {
    // gradient r = M u - J' gamma at u on the iterating islands' dofs, and each one's relative
    // momentum residual (Drake): |D r| <= eps max(|D M u|, |D J' gamma|)
    for (int i=0; i < iw.nisland; i++) {
      for (int q=iw.idstart[i]; q < iw.idstart[i+1] && iw.active[i]; q++) {
        iw.w[iw.idof[q]] = 0;
      }
    }
    addJTActive(iw.w, &iw, p, iw.gamma);
    for (int i=0; i < iw.nisland; i++) {
      if (!iw.active[i]) {
        continue;
      }
      mjtNum rn = 0, mn = 0, jn = 0;
      for (int q=iw.idstart[i]; q < iw.idstart[i+1]; q++) {
        int dof = iw.idof[q];
        iw.grad[dof] = iw.Mu[dof] - iw.w[dof];
        mjtNum Dii = 1 / p->M[p->M_rowadr[dof] + p->M_rownnz[dof] - 1];
        rn += iw.grad[dof]*iw.grad[dof] * Dii;
        mn += iw.Mu[dof]*iw.Mu[dof] * Dii;
        jn += iw.w[dof]*iw.w[dof] * Dii;
      }
      if (!isfinite(rn)) {
        status = acs_worseStatus(status, acsSTATUS_DIVERGED);
      } else if (mju_sqrt(rn) > 1e-14 + s->newton_tolerance * mju_sqrt(mju_max(mn, jn))) {
        continue;
      }
      stopIsland(&iw, i);
      nactive--;
    }

    // the common NCP residual of the forces gamma / h, recorded after every iteration with the
    // full metrics (it is not part of the Newton iterations' test)
    if (iter > 0 && s->metrics == acsMETRICS_FULL) {
      mjtNum ncp = iterateResidual(&iw, p);
      if (iter - 1 < acsNHISTORY) {
        stats->history[iter-1] = ncp;
        stats->nhistory = iter;
      }
    }
    if (!nactive) {
      break;
    }
    if (iter >= acs_maxiter(s)) {
      status = acs_worseStatus(status, acsSTATUS_MAXITER);
      break;
    }

    // Newton step, M du and J du, and each island's exact line search
    if (nranged != nactive) {
      activeRanges(&iw, p);
      nranged = nactive;
    }
    factorHessian(&iw, p, 1);
    stats->nfactor++;
    newtonStep(&iw, p);
    mulMActive(iw.Mdu, &iw, p, iw.du);
    mulJActive(iw.dvc, &iw, p, iw.du);
    stats->niter = iter + 1;
    for (int i=0; i < iw.nisland; i++) {
      if (!iw.active[i]) {
        continue;
      }
      int last;
      mjtNum alpha = lineSearch(&iw, p, i, &stats->nevaluation, &last);
      if (alpha == 0) {
        status = acs_worseStatus(status, acsSTATUS_STALLED);
        stopIsland(&iw, i);
        nactive--;
        continue;
      }

      // the step: u, M u and J u move along du, dvc (not recomputed from u); the impulses and
      // Hessians at the new velocities are the line search's last evaluation, when it ended
      // there
      for (int j=iw.drstart[i]; j < iw.drstart[i+1]; j++) {
        int adr = iw.drun[2*j], num = iw.drun[2*j+1] - adr;
        mju_addToScl(iw.u + adr, iw.du + adr, alpha, num);
        mju_addToScl(iw.Mu + adr, iw.Mdu + adr, alpha, num);
      }
      if (!last) {
        islandRowStep(iw.a, iw.vc, iw.dvc, alpha, &iw, i);
        islandPotentials(iw.gtry, &iw, p, iw.a, 1, i);
      }
      islandRowStep(iw.vc, iw.a, NULL, 0, &iw, i);
      islandRowStep(iw.gamma, iw.gtry, NULL, 0, &iw, i);
    }
  }

  // forces: the impulses at the final velocities
  for (int r=0; r < n; r++) {
    force[r] = iw.gamma[r] / h;
  }
  stats->residual = s->metrics == acsMETRICS_OFF ? NAN : iterateResidual(&iw, p);
  return status;
}
