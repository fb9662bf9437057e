// Copyright 2026 The acs authors.
//
// Assembly of the step's acsProblem from MuJoCo's constraint rows (forces.c writes the forces
// back).
//
// Rows. MuJoCo orders efc rows as equality | friction loss | limits | contacts. acs keeps that
// order, groups the rows of one equality constraint into one block, and writes every contact in
// its contact frame (normal, tangent1, tangent2, spin, roll1, roll2), whatever the cone. For a
// pyramidal contact MuJoCo's rows are J_n +- mu_k J_k (pairs per friction direction k), so
//   J_n = (r_0 + r_1) / 2,   J_k = (r_{2k-2} - r_{2k-1}) / (2 mu_k),
// and forces are written back (forces.c) with the exact inverse of MuJoCo's decoding.
//
// Velocities. Semi-implicit Euler gives v+ = qvel + h (qacc_smooth + M^-1 J' f), with M the
// matrix the step integrates with (stepMatrix: under Euler with joint damping M + hB, and
// qacc_smooth = (M + hB)^-1 qfrc_smooth; under the discrete integrator MuJoCo's M^). The problem is
// stated on a = (J v+ - v*) / h = G f + b with
//   b = efc_vel / h + J qacc_smooth - v* / h,
// where efc_vel = J qvel includes MuJoCo's surface velocity and v* is the bias velocity:
//   contact normal, limit:  phi = pos is the signed distance (MuJoCo's margin only widens the
//                           detection: speculative rows). phi >= 0: v* = -phi / h (the gap may
//                           close within the step, no further); phi < -slop: v* = -baumgarte *
//                           (phi + slop) / h (a resting contact stays within slop: closed, no
//                           re-collisions), at most max_correction; contacts: at least
//                           -restitution * vn when vn < -restitution_vel;
//   equality:               v* = -baumgarte * pos / h, at most max_correction in magnitude;
//                           friction rows: v* = 0.
// The cap max_correction keeps a deep overlap (an initial interpenetration, a model whose geoms
// overlap in every pose) from being pushed apart at a speed the joints can only produce with huge
// velocities: it acts on penetrations above max_correction h / baumgarte (1 cm at 2 ms).
// For the dual solvers the rows of B = D^-1/2 L^-T J' (M = L'DL, MuJoCo's factor qLD) give
// G = J M^-1 J' = B B': L^-T moves a row's entries to the ancestors of its dofs only, so a row of B
// covers its dofs' chains to the root, where M^-1 J' would cover its whole trees.

#include "problem.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "mjcompat.h"
#include "sparse.h"
#include "stabilization.h"
#include "util_errmem.h"


// a row whose largest Jacobian entry is at most this (m or rad per unit velocity) acts on no dof
#define kZeroRow 1e-12


//---------------------------------- helpers -------------------------------------------------------

// x[col] += coef * (MuJoCo efc row) over its non-zeros (dense Jacobian: over the npat columns
//   pat, which hold all its non-zeros)
static void scatterRow(mjtNum* x, const mjModel* m, const mjData* d, int row, mjtNum coef,
                       int sparse, const int* pat, int npat) {
  if (sparse) {
    int adr = d->efc_J_rowadr[row], n = d->efc_J_rownnz[row];
    for (int i=0; i < n; i++) {
      x[d->efc_J_colind[adr+i]] += coef * d->efc_J[adr+i];
    }
  } else {
    const mjtNum* J = d->efc_J + (size_t)row*m->nv;
    for (int i=0; i < npat; i++) {
      x[pat[i]] += coef * J[pat[i]];
    }
  }
}


// number of MuJoCo rows of a contact with dimension dim
static int contactRowsMj(int dim, int pyramid) {
  return (pyramid && dim > 1) ? 2*(dim-1) : dim;
}


// coefficients of acs row r of a block as a combination of the block's MuJoCo rows
//   (nmj entries); identity except for pyramidal contacts
static void rowCoefficients(mjtNum* coef, int r, int nmj, int pyrcontact, const mjtNum* mu) {
  mju_zero(coef, nmj);
  if (!pyrcontact) {
    coef[r] = 1;
  } else if (r == 0) {
    coef[0] = coef[1] = 0.5;
  } else {
    coef[2*r-2] = 0.5/mu[r-1];
    coef[2*r-1] = -0.5/mu[r-1];
  }
}


// root of tree t in the union-find forest (with path halving)
static int findRoot(int* parent, int t) {
  while (parent[t] != t) {
    parent[t] = parent[parent[t]];
    t = parent[t];
  }
  return t;
}


// stiffness and dissipation of a contact from the per-geom overrides (acs_stiffness@GEOM,
// acs_dissipation@GEOM; NaN: not set): a geom with an override has its own material, its unset
// value taken from the settings (already in k, dd). Both geoms with one: springs in series, the
// dissipation weighted by the other's stiffness (Drake's combination); one geom: its material;
// none: the settings
static void contactMaterial(mjtNum* k, mjtNum* dd, const acsContext* ctx, const mjContact* con) {
  int has[2];
  mjtNum kg[2], dg[2];
  for (int j=0; j < 2; j++) {
    int g = con->geom[j];
    mjtNum gk = (g >= 0 && ctx->geom_stiffness) ? ctx->geom_stiffness[g] : NAN;
    mjtNum gd = (g >= 0 && ctx->geom_dissipation) ? ctx->geom_dissipation[g] : NAN;
    has[j] = !isnan(gk) || !isnan(gd);
    kg[j] = isnan(gk) ? *k : gk;
    dg[j] = isnan(gd) ? *dd : gd;
  }
  if (has[0] && has[1]) {
    *k = kg[0]*kg[1] / (kg[0] + kg[1]);
    *dd = (kg[1]*dg[0] + kg[0]*dg[1]) / (kg[0] + kg[1]);
  } else if (has[0] || has[1]) {
    *k = kg[has[1]];
    *dd = dg[has[1]];
  }
}


// Signed distance of a contact, m. MuJoCo's speculative contacts (<flag speculative>, 4.0) carry
// a synthetic distance chosen for its soft model (larger than the gap, or negative); a contact is
// speculative when the true distance of its geoms, recomputed here, is at least its includemargin
// (an ordinary contact is closer than that), and then the true distance is its gap
static mjtNum contactGap(const mjModel* m, mjData* d, const mjContact* con, mjtNum pos) {
  if (!acs_mjSpeculative(m) || con->geom[0] < 0 || con->geom[1] < 0) {
    return pos;
  }
  mjtNum gap = mj_geomDistance(m, d, con->geom[0], con->geom[1], mjMAXVAL, NULL);
  return gap >= con->includemargin ? gap : pos;
}


// next mark stamp (marks are compared with the stamp; reset on wrap-around)
static int nextStamp(acsContext* ctx, int* dofmark, int nv, int* treemark, int ntree) {
  if (ctx->stamp >= INT_MAX - 1) {
    memset(dofmark, 0, nv*sizeof(int));
    memset(treemark, 0, ntree*sizeof(int));
    ctx->stamp = 0;
  }
  return ++ctx->stamp;
}


//---------------------------------- assembly ------------------------------------------------------

// the assembly of one step's problem: its inputs and the counts so far
typedef struct {
  acsContext*        ctx;
  const mjModel*     m;
  mjData*            d;
  const acsSettings* s;
  int                nv, ntree, sparse, pyramid, flg_Y;
  mjtNum             h;
  const mjtNum      *qLD, *qLDiagInv;   // the factor of the step's matrix (M, the discrete
                                        //   step's, the damped Euler step's M + hB)
  const mjtNum      *Mhat;              // the step's matrix if not M, else NULL
  const mjtNum      *qacc_smooth;       // the step's matrix^-1 qfrc_smooth (MuJoCo's qacc_smooth
                                        //   but under damped Euler)
  int                nblock, nrow, nnzJ, nnzY;
} assembly;

// the block being assembled from MuJoCo's rows [i, i + nmj)
typedef struct {
  int           i, nmj;           // its MuJoCo rows
  int           type, id;         // MuJoCo's constraint type and object id
  int           btype, dim;       // acs block kind and rows (contact frame)
  int           pyrcontact;       // a pyramidal contact with friction: rows to decode
  const mjtNum* mu;               // contact friction, NULL otherwise
  int           ntr;              // the trees it touches (tree_list)
  int           nJpat, nBpat;     // its column pattern (dof_list), with the dofs' ancestors
                                  //   (dof_anc: the pattern of its rows of B)
  mjtNum        v0[6];            // the velocity of its rows at the start of the step
  int           keep[6], nkeep;   // the rows kept (some act on no dof)
  mjtNum        phi;              // signed distance (contacts, limits)
} blockAsm;


// step 1: buffers for at most one block and one acs row per MuJoCo row; -1 when out of memory
static int reserveBuffers(acsContext* ctx, int nmax, int nv, int ntree) {
  if (acs_bufferReserve(&ctx->mem, &ctx->block_type, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_dim, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_adr, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_id, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_efcadr, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_mu, 5*nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_floss, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_pos, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->b, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->vel, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->vfree, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->pos, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_stiffness, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_dissipation, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->R, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->J_rownnz, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->J_rowadr, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Y_rownnz, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Y_rowadr, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->row_efc, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->vstab, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->J_colind, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->J, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Y_colind, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Y, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->force, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->force_start, nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->scratch, nv + 2*nmax, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->dofvec, nv > 0 ? 6*nv : 1, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->dof_list, nv > 0 ? nv : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->u0, nv > 0 ? nv : 1, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->dof_mark, nv > 0 ? nv : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->dof_anc, nv > 0 ? nv : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->dof_sdinv, nv > 0 ? nv : 1, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->tree_mark, ntree > 0 ? ntree : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->tree_list, ntree > 0 ? ntree : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->tree_parent, ntree > 0 ? ntree : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->tree_rows, ntree > 0 ? ntree : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->tree_drop, ntree > 0 ? ntree : 1, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_tree, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->block_island, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->island_nefc, nmax, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->island_drop, nmax, sizeof(int))) {
    return -1;
  }
  return 0;
}


// step 2: the block kind and MuJoCo rows of the constraint starting at row i
static void blockKind(blockAsm* blk, const mjData* d, int i, int pyramid) {
  int nefc_mj = d->nefc;
  int type = d->efc_type[i], id = d->efc_id[i];
  blk->i = i;
  blk->type = type;
  blk->id = id;
  blk->mu = NULL;
  switch ((mjtConstraint) type) {
  case mjCNSTR_EQUALITY:
    blk->btype = acsBLOCK_EQUALITY;
    blk->dim = 1;
    // an equality's rows form one block of at most 6 (a flex equality has one row per edge:
    // consecutive blocks of 6)
    while (blk->dim < 6 && i+blk->dim < nefc_mj && d->efc_type[i+blk->dim] == mjCNSTR_EQUALITY &&
           d->efc_id[i+blk->dim] == id) {
      blk->dim++;
    }
    blk->nmj = blk->dim;
    break;
  case mjCNSTR_FRICTION_DOF:
  case mjCNSTR_FRICTION_TENDON:
    blk->btype = acsBLOCK_FRICTION;
    blk->dim = blk->nmj = 1;
    break;
  case mjCNSTR_LIMIT_JOINT:
  case mjCNSTR_LIMIT_TENDON:
    blk->btype = acsBLOCK_LIMIT;
    blk->dim = blk->nmj = 1;
    break;
  default:   // contacts: frictionless, pyramidal, elliptic
    blk->btype = acsBLOCK_CONTACT;
    blk->dim = d->contact[id].dim;
    blk->nmj = (type == mjCNSTR_CONTACT_FRICTIONLESS) ? 1 : contactRowsMj(blk->dim, pyramid);
    if (type == mjCNSTR_CONTACT_FRICTIONLESS) blk->dim = 1;
    blk->mu = d->contact[id].friction;
    break;
  }
  blk->pyrcontact = (blk->btype == acsBLOCK_CONTACT && type == mjCNSTR_CONTACT_PYRAMIDAL &&
                     blk->dim > 1);
}


// add tree t to the block's list if not yet marked
static void markTree(int* trees, int* ntr, int* treemark, int* tree_rows, int t, int stamp) {
  if (treemark[t] != stamp) {
    treemark[t] = stamp;
    trees[(*ntr)++] = t;
    tree_rows[t] = 1;
  }
}


// the last dof of body b's chain (its own, or its nearest ancestor's with dofs); -1: none
static int chainDof(const mjModel* m, int b) {
  while (b > 0 && m->body_dofnum[b] == 0) {
    b = m->body_parentid[b];
  }
  return b > 0 ? m->body_dofadr[b] + m->body_dofnum[b] - 1 : -1;
}


// the dofs where a block's MuJoCo rows can be non-zero, descending, each once (cand: nv): a
// contact's between two geoms, the dofs of the chains of its two bodies; a joint's limit, the
// joint's dofs; a dof's friction loss, that dof. -1 for the others (a flex contact, a tendon's
// rows, an equality): every dof. (A Shadow hand's limits and friction losses, rows of one dof
// each, had all 30 dofs tested)
static int candidateDofs(int* cand, const mjModel* m, const mjData* d, const blockAsm* blk) {
  int type = d->efc_type[blk->i], id = d->efc_id[blk->i];
  if (type == mjCNSTR_FRICTION_DOF) {
    cand[0] = id;
    return 1;
  }
  if (type == mjCNSTR_LIMIT_JOINT) {
    int n = m->jnt_type[id] == mjJNT_BALL ? 3 : m->jnt_type[id] == mjJNT_FREE ? 6 : 1;
    for (int c=0; c < n; c++) {
      cand[c] = m->jnt_dofadr[id] + n-1 - c;
    }
    return n;
  }
  if (blk->btype != acsBLOCK_CONTACT) {
    return -1;
  }
  const mjContact* con = d->contact + blk->id;
  if (con->geom[0] < 0 || con->geom[1] < 0) {
    return -1;
  }
  int a = chainDof(m, m->geom_bodyid[con->geom[0]]);
  int b = chainDof(m, m->geom_bodyid[con->geom[1]]);
  int n = 0;
  while (a >= 0 || b >= 0) {   // two descending chains merged, a shared ancestor once
    int next = mjMAX(a, b);
    cand[n++] = next;
    a = a == next ? m->dof_parentid[a] : a;
    b = b == next ? m->dof_parentid[b] : b;
  }
  return n;
}


// step 3: the block's column pattern (the union of its MuJoCo rows, in dof order) and the trees
// it touches (in dof order); marks the trees that have constraint rows
static void blockPattern(assembly* as, blockAsm* blk) {
  acsContext* ctx = as->ctx;
  const mjModel* m = as->m;
  const mjData* d = as->d;
  int nv = as->nv, sparse = as->sparse;
  int* pat = acsBUF(ctx, dof_list, int);
  int* dofmark = acsBUF(ctx, dof_mark, int);
  int* treemark = acsBUF(ctx, tree_mark, int);
  int* trees = acsBUF(ctx, tree_list, int);
  int* tree_rows = acsBUF(ctx, tree_rows, int);

  int stamp = nextStamp(ctx, dofmark, nv, treemark, as->ntree);
  int ntr = 0, nJpat = 0;
  int same = sparse;   // sparse rows with one pattern (a contact's rows: MuJoCo's chains)
  for (int j=1; j < blk->nmj && same; j++) {
    int r0 = blk->i, r = blk->i + j;
    same = d->efc_J_rownnz[r] == d->efc_J_rownnz[r0] &&
           !memcmp(d->efc_J_colind + d->efc_J_rowadr[r], d->efc_J_colind + d->efc_J_rowadr[r0],
                   d->efc_J_rownnz[r0]*sizeof(int));
  }
  if (same) {
    nJpat = d->efc_J_rownnz[blk->i];
    memcpy(pat, d->efc_J_colind + d->efc_J_rowadr[blk->i], nJpat*sizeof(int));
  } else if (sparse) {
    // the union of the rows' patterns: marked, then collected tree by tree in dof order
    for (int j=0; j < blk->nmj; j++) {
      int row = blk->i + j, adr = d->efc_J_rowadr[row];
      for (int c=0; c < d->efc_J_rownnz[row]; c++) {
        int dof = d->efc_J_colind[adr+c];
        if (dofmark[dof] != stamp) {
          dofmark[dof] = stamp;
          markTree(trees, &ntr, treemark, tree_rows, m->dof_treeid[dof], stamp);
        }
      }
    }
    for (int a=1; a < ntr; a++) {   // insertion sort: a block touches one or two trees
      int t = trees[a], c = a;
      while (c > 0 && m->tree_dofadr[trees[c-1]] > m->tree_dofadr[t]) {
        trees[c] = trees[c-1];
        c--;
      }
      trees[c] = t;
    }
    for (int a=0; a < ntr; a++) {
      int adr = m->tree_dofadr[trees[a]], num = m->tree_dofnum[trees[a]];
      for (int dof=adr; dof < adr+num; dof++) {
        if (dofmark[dof] == stamp) {
          pat[nJpat++] = dof;
        }
      }
    }
  } else {
    // dense rows: the columns, in order, where any of the block's rows is non-zero; only the
    // candidates can be (candidateDofs: of a contact between two geoms, its bodies' chains, by
    // MuJoCo's contact Jacobian; of a joint's limit, its dofs; of a dof's friction loss, that
    // dof): those are tested (the same pattern; Fetch push: admm 714k -> 708k instructions a
    // step with the contacts' chains)
    const mjtNum* J = d->efc_J + (size_t)blk->i*nv;
    int* cand = acsBUF(ctx, dof_anc, int);   // scratch here: the pattern of B comes after
    int ncand = candidateDofs(cand, m, d, blk);
    for (int q=(ncand < 0 ? nv : ncand) - 1; q >= 0; q--) {
      int dof = ncand < 0 ? nv-1 - q : cand[q];
      int nz = 0;
      for (int j=0; j < blk->nmj && !nz; j++) {
        nz = J[(size_t)j*nv + dof] != 0;
      }
      if (nz) {
        pat[nJpat++] = dof;
      }
    }
  }

  // the pattern in dof order marked, its trees listed in dof order (a tree's dofs are contiguous)
  if (!ntr) {
    for (int c=0; c < nJpat; c++) {
      dofmark[pat[c]] = stamp;
      markTree(trees, &ntr, treemark, tree_rows, m->dof_treeid[pat[c]], stamp);
    }
  }
  blk->ntr = ntr;
  blk->nJpat = nJpat;
  blk->nBpat = 0;
  if (!as->flg_Y) {
    return;
  }

  // with their ancestors: the pattern of the rows of B (a walk up from each dof stops at a marked
  // dof, whose own walk, or the one that marked it, covers the rest)
  int* anc = acsBUF(ctx, dof_anc, int);
  int added = 0;
  for (int c=0; c < nJpat; c++) {
    for (int dof=m->dof_parentid[pat[c]]; dof >= 0 && dofmark[dof] != stamp;
         dof=m->dof_parentid[dof]) {
      dofmark[dof] = stamp;
      added = 1;
    }
  }
  if (!added) {   // closed already (MuJoCo's chains)
    memcpy(anc, pat, nJpat*sizeof(int));
    blk->nBpat = nJpat;
    return;
  }
  for (int a=0; a < ntr; a++) {
    int adr = m->tree_dofadr[trees[a]], num = m->tree_dofnum[trees[a]];
    for (int dof=adr; dof < adr+num; dof++) {
      if (dofmark[dof] == stamp) {
        anc[blk->nBpat++] = dof;
      }
    }
  }
}


// step 4: the block's rows in acs's layout (contact frame: pyramidal rows decoded) into dofvec
// (row r at r nv, over its pattern, zero on the ancestors B adds), and their start-of-step
// velocities
static void blockRows(assembly* as, blockAsm* blk) {
  acsContext* ctx = as->ctx;
  const mjModel* m = as->m;
  const mjData* d = as->d;
  int nv = as->nv;
  mjtNum* X = acsBUF(ctx, dofvec, mjtNum);
  const int* pat = acsBUF(ctx, dof_list, int);

  // zero over the pattern read later: the rows' (J) or with their ancestors' (B, a superset)
  const int* zpat = blk->nBpat ? acsBUF(ctx, dof_anc, int) : pat;
  int nz = blk->nBpat ? blk->nBpat : blk->nJpat;
  for (int r=0; r < blk->dim; r++) {
    for (int c=0; c < nz; c++) {
      X[(size_t)r*nv + zpat[c]] = 0;
    }
  }
  for (int r=0; r < blk->dim; r++) {
    blk->v0[r] = 0;
    if (!blk->pyrcontact) {
      scatterRow(X + (size_t)r*nv, m, d, blk->i+r, 1, as->sparse, pat, blk->nJpat);
      blk->v0[r] = d->efc_vel[blk->i+r];
      continue;
    }
    mjtNum coef[10];
    rowCoefficients(coef, r, blk->nmj, blk->pyrcontact, blk->mu);
    for (int j=0; j < blk->nmj; j++) {
      if (coef[j] != 0) {
        scatterRow(X + (size_t)r*nv, m, d, blk->i+j, coef[j], as->sparse, pat, blk->nJpat);
        blk->v0[r] += coef[j] * d->efc_vel[blk->i+j];
      }
    }
  }
}


// step 5: the rows kept. Rows that act on no dof (the normal of a contact on a planar body, an
// equality row of a dof-less direction) are left out: their force is zero. A contact whose
// normal row is zero can push nothing, so its friction is zero too: the whole contact is left
// out. A zero friction row of a contact (the out-of-plane tangent of a planar model) stays, made
// exactly zero: its velocity is then exactly zero and its force stays at zero. Return the count
static int keepRows(assembly* as, blockAsm* blk) {
  int nv = as->nv;
  mjtNum* X = acsBUF(as->ctx, dofvec, mjtNum);
  const int* pat = acsBUF(as->ctx, dof_list, int);
  blk->nkeep = 0;
  for (int r=0; r < blk->dim; r++) {
    int nonzero = 0;
    for (int c=0; c < blk->nJpat && !nonzero; c++) {
      nonzero = fabs(X[(size_t)r*nv + pat[c]]) > kZeroRow;
    }
    if (nonzero) {
      blk->keep[blk->nkeep++] = r;
    } else if (blk->btype == acsBLOCK_CONTACT && r == 0) {
      break;
    } else if (blk->btype == acsBLOCK_CONTACT) {
      for (int c=0; c < blk->nJpat; c++) {
        X[(size_t)r*nv + pat[c]] = 0;
      }
      blk->v0[r] = 0;
      blk->keep[blk->nkeep++] = r;
    }
  }
  return blk->nkeep;
}


// step 6: the block's record (kind, rows, friction, material, distance); its trees join one
// island. Return its index
static int recordBlock(assembly* as, blockAsm* blk) {
  acsContext* ctx = as->ctx;
  const mjData* d = as->d;
  const acsSettings* s = as->s;
  const int* trees = acsBUF(ctx, tree_list, int);
  int* parent = acsBUF(ctx, tree_parent, int);
  int i = blk->i, id = blk->id, btype = blk->btype;

  // the block couples its trees: one island
  int k = as->nblock++;
  acsBUF(ctx, block_tree, int)[k] = blk->ntr ? trees[0] : -1;
  for (int a=1; a < blk->ntr; a++) {
    int r0 = findRoot(parent, trees[0]), r1 = findRoot(parent, trees[a]);
    if (r0 != r1) {
      parent[r1] = r0;
    }
  }

  acsBUF(ctx, block_type, int)[k] = btype;
  acsBUF(ctx, block_dim, int)[k] = blk->nkeep;
  acsBUF(ctx, block_adr, int)[k] = as->nrow;
  acsBUF(ctx, block_id, int)[k] = id;
  acsBUF(ctx, block_efcadr, int)[k] = i;
  acsBUF(ctx, block_floss, mjtNum)[k] = (btype == acsBLOCK_FRICTION) ? d->efc_frictionloss[i] : 0;
  mjtNum* block_mu = acsBUF(ctx, block_mu, mjtNum);
  mju_zero(block_mu + 5*k, 5);
  if (blk->mu) {
    mju_copy(block_mu + 5*k, blk->mu, 5);
  }
  mjtNum* block_k = acsBUF(ctx, block_stiffness, mjtNum);
  mjtNum* block_d = acsBUF(ctx, block_dissipation, mjtNum);
  block_k[k] = s->stiffness;
  block_d[k] = s->dissipation;
  if (btype == acsBLOCK_CONTACT) {
    contactMaterial(block_k + k, block_d + k, ctx, d->contact + id);
  }

  // signed distance of a contact or limit (a speculative contact's true gap); the violation norm
  // of an equality
  blk->phi = btype == acsBLOCK_CONTACT ? contactGap(as->m, as->d, d->contact + id, d->efc_pos[i]) :
             btype == acsBLOCK_LIMIT ? d->efc_pos[i] : 0;
  mjtNum* block_pos = acsBUF(ctx, block_pos, mjtNum);
  if (btype == acsBLOCK_EQUALITY) {
    mjtNum v2 = 0;
    for (int q=0; q < blk->nkeep; q++) {
      v2 += d->efc_pos[i+blk->keep[q]] * d->efc_pos[i+blk->keep[q]];
    }
    block_pos[k] = mju_sqrt(v2);
  } else {
    block_pos[k] = blk->phi;
  }
  return k;
}


// step 7: the block's rows: sparse J and B = D^-1/2 L^-T J', the biased free acceleration b (with
// the stabilization velocity v*: penetration recovery, restitution, equality violation), the
// compliance R, the velocities and the violation of each row. -1 when out of memory
static int storeRows(assembly* as, blockAsm* blk) {
  acsContext* ctx = as->ctx;
  const mjModel* m = as->m;
  const mjData* d = as->d;
  const acsSettings* s = as->s;
  int nv = as->nv, flg_Y = as->flg_Y, nkeep = blk->nkeep, nJpat = blk->nJpat;
  int nBpat = blk->nBpat, i = blk->i, btype = blk->btype;
  mjtNum h = as->h, phi = blk->phi;
  mjtNum* X = acsBUF(ctx, dofvec, mjtNum);
  const int* pat = acsBUF(ctx, dof_list, int);
  const int* anc = acsBUF(ctx, dof_anc, int);

  // sparse storage for the block's rows
  int nYblock = flg_Y ? nkeep*nBpat : 1;
  if (acs_bufferReserve(&ctx->mem, &ctx->J_colind, as->nnzJ + nkeep*nJpat, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->J, as->nnzJ + nkeep*nJpat, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Y_colind, as->nnzY + nYblock, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Y, as->nnzY + nYblock, sizeof(mjtNum))) {
    return -1;
  }
  int* J_colind = acsBUF(ctx, J_colind, int);
  mjtNum* J = acsBUF(ctx, J, mjtNum);
  int* Y_colind = acsBUF(ctx, Y_colind, int);
  mjtNum* Y = acsBUF(ctx, Y, mjtNum);
  int* J_rownnz = acsBUF(ctx, J_rownnz, int);
  int* J_rowadr = acsBUF(ctx, J_rowadr, int);
  int* Y_rownnz = acsBUF(ctx, Y_rownnz, int);
  int* Y_rowadr = acsBUF(ctx, Y_rowadr, int);

  // bias velocity of unilateral rows: penetration recovery and restitution
  mjtNum vstar_n = phi >= 0 ? -phi / h :
                   phi < -s->slop ? mju_min(-s->baumgarte * (phi + s->slop) / h,
                                            s->max_correction) : 0;

  // J rows
  mjtNum Jqacc[6];
  for (int q=0; q < nkeep; q++) {
    int row = as->nrow + q, r = blk->keep[q];
    J_rowadr[row] = as->nnzJ;
    J_rownnz[row] = nJpat;
    Jqacc[q] = 0;
    for (int c=0; c < nJpat; c++) {
      mjtNum val = X[(size_t)r*nv + pat[c]];
      J_colind[as->nnzJ] = pat[c];
      J[as->nnzJ++] = val;
      Jqacc[q] += val * as->qacc_smooth[pat[c]];
    }
  }

  // B rows: D^-1/2 L^-T J' on the dofs and their ancestors (only for the solvers and settings
  // that use them)
  if (flg_Y) {
    acs_halfSolveLDRows(X, nv, blk->keep, nkeep, m->M_rownnz, m->M_rowadr, m->M_colind, as->qLD,
                        acsBUF(ctx, dof_sdinv, mjtNum), anc, nBpat);
  }
  mjtNum* b = acsBUF(ctx, b, mjtNum);
  mjtNum* R = acsBUF(ctx, R, mjtNum);
  mjtNum* vel = acsBUF(ctx, vel, mjtNum);
  mjtNum* vfree = acsBUF(ctx, vfree, mjtNum);
  mjtNum* vstab = acsBUF(ctx, vstab, mjtNum);
  mjtNum* rowpos = acsBUF(ctx, pos, mjtNum);
  int* row_efc = acsBUF(ctx, row_efc, int);
  for (int q=0; q < nkeep; q++) {
    int row = as->nrow + q, r = blk->keep[q];
    mjtNum Gdiag = 0;
    Y_rowadr[row] = as->nnzY;
    Y_rownnz[row] = flg_Y ? nBpat : 0;
    for (int c=0; flg_Y && c < nBpat; c++) {
      mjtNum val = X[(size_t)r*nv + anc[c]];
      Y_colind[as->nnzY] = anc[c];
      Y[as->nnzY++] = val;
      Gdiag += val * val;
    }

    // bias velocity of this row
    mjtNum vstar = 0;
    if (btype == acsBLOCK_EQUALITY) {
      vstar = mju_clip(-s->baumgarte * d->efc_pos[i+r] / h, -s->max_correction,
                       s->max_correction);
    } else if (r == 0 && (btype == acsBLOCK_LIMIT || btype == acsBLOCK_CONTACT)) {
      vstar = vstar_n;
      if (btype == acsBLOCK_CONTACT && s->restitution > 0 &&
          blk->v0[r] < -s->restitution_vel) {
        vstar = mju_max(vstar, -s->restitution * blk->v0[r]);
      }
    }

    b[row] = blk->v0[r] / h + Jqacc[q] - vstar / h;
    R[row] = s->compliance * Gdiag;
    vel[row] = blk->v0[r];
    vfree[row] = blk->v0[r] + h * Jqacc[q];
    vstab[row] = btype == acsBLOCK_EQUALITY ? vstar : mju_max(vstar, 0);
    rowpos[row] = btype == acsBLOCK_EQUALITY ? d->efc_pos[i+r] : (r == 0 ? phi : 0);
    row_efc[row] = i + r;
  }
  as->nrow += nkeep;
  return 0;
}


// step 8: islands: blocks whose trees are connected, numbered in order of first appearance (a
// block touching no dof is an island of its own); tree marks are reused to hold island ids.
// Return their number
static int numberIslands(assembly* as) {
  acsContext* ctx = as->ctx;
  int nblock = as->nblock;
  int* dofmark = acsBUF(ctx, dof_mark, int);
  int* treemark = acsBUF(ctx, tree_mark, int);
  int* trees = acsBUF(ctx, tree_list, int);
  int* parent = acsBUF(ctx, tree_parent, int);
  const int* block_tree = acsBUF(ctx, block_tree, int);
  const int* block_dim = acsBUF(ctx, block_dim, int);
  int* block_island = acsBUF(ctx, block_island, int);
  int* island_nefc = acsBUF(ctx, island_nefc, int);
  int nisland = 0;
  int stamp = nextStamp(ctx, dofmark, as->nv, treemark, as->ntree);
  for (int k=0; k < nblock; k++) {
    int island;
    if (block_tree[k] < 0) {
      island = nisland++;
    } else {
      int root = findRoot(parent, block_tree[k]);
      if (treemark[root] != stamp) {
        treemark[root] = stamp;
        trees[root] = nisland++;
      }
      island = trees[root];
    }
    block_island[k] = island;
  }
  for (int i=0; i < nisland; i++) {
    island_nefc[i] = 0;
  }
  for (int k=0; k < nblock; k++) {
    island_nefc[block_island[k]] += block_dim[k];
  }
  return nisland;
}


// step 9: the problem points into the buffers; the mass matrix (the discrete integrator's: M with
// the backbone's diagonal additions, the pipeline refusing metrics with more than that). -1 when
// out of memory
static int pointProblem(assembly* as, int nisland) {
  acsContext* ctx = as->ctx;
  const mjModel* m = as->m;
  const mjData* d = as->d;
  int flg_Y = as->flg_Y;
  acsProblem* p = &ctx->problem;
  memset(p, 0, sizeof(acsProblem));
  p->nv = as->nv;
  p->nefc = as->nrow;
  p->nblock = as->nblock;
  p->timestep = as->h;
  p->pyramid = 0;
  p->block_type = acsBUF(ctx, block_type, int);
  p->block_dim = acsBUF(ctx, block_dim, int);
  p->block_adr = acsBUF(ctx, block_adr, int);
  p->block_id = acsBUF(ctx, block_id, int);
  p->block_mu = acsBUF(ctx, block_mu, mjtNum);
  p->block_floss = acsBUF(ctx, block_floss, mjtNum);
  p->block_pos = acsBUF(ctx, block_pos, mjtNum);
  p->block_stiffness = acsBUF(ctx, block_stiffness, mjtNum);
  p->block_dissipation = acsBUF(ctx, block_dissipation, mjtNum);
  p->nisland = nisland;
  p->block_island = acsBUF(ctx, block_island, int);
  p->island_nefc = acsBUF(ctx, island_nefc, int);
  p->b = acsBUF(ctx, b, mjtNum);
  p->R = as->s->compliance > 0 ? acsBUF(ctx, R, mjtNum) : NULL;
  p->vel = acsBUF(ctx, vel, mjtNum);
  p->vfree = acsBUF(ctx, vfree, mjtNum);
  p->pos = acsBUF(ctx, pos, mjtNum);
  p->J_rownnz = acsBUF(ctx, J_rownnz, int);
  p->J_rowadr = acsBUF(ctx, J_rowadr, int);
  p->J_colind = acsBUF(ctx, J_colind, int);
  p->J = acsBUF(ctx, J, mjtNum);
  p->B_rownnz = flg_Y ? acsBUF(ctx, Y_rownnz, int) : NULL;
  p->B_rowadr = flg_Y ? acsBUF(ctx, Y_rowadr, int) : NULL;
  p->B_colind = flg_Y ? acsBUF(ctx, Y_colind, int) : NULL;
  p->B = flg_Y ? acsBUF(ctx, Y, mjtNum) : NULL;
  p->nnzJ = as->nnzJ;
  p->nnzB = as->nnzY;
  p->nnzM = (int)m->nC;
  p->M_rownnz = m->M_rownnz;
  p->M_rowadr = m->M_rowadr;
  p->M_colind = m->M_colind;
  p->M = as->Mhat ? as->Mhat : d->M;
  p->M_LD = as->qLD;
  p->M_Dinv = as->qLDiagInv;
  mjtNum* u0 = acsBUF(ctx, u0, mjtNum);
  for (int i=0; i < m->nv; i++) {
    u0[i] = -as->h * as->qacc_smooth[i];
  }
  p->u0 = u0;
  return 0;
}


// the matrix the step integrates with, its factor and the smooth acceleration under it: M
// (MuJoCo's qLD, qacc_smooth); under the discrete integrator M^ = M + hD + h^2 K (MuJoCo's factor
// qH of its backbone, the pipeline refusing metrics with more than that); under Euler with joint
// damping M + hB (B = diag(dof_damping)), factored here, and (M + hB)^-1 qfrc_smooth: MuJoCo's
// Euler step integrates with it, so the problem's velocities are those the step will have. -1
// when out of memory
static int stepMatrix(assembly* as) {
  acsContext* ctx = as->ctx;
  const mjModel* m = as->m;
  const mjData* d = as->d;
  int nv = m->nv, nC = m->nC;
  acs_mjStepFactor(&as->qLD, &as->qLDiagInv, m, d);
  as->Mhat = NULL;
  as->qacc_smooth = d->qacc_smooth;
  ctx->damped = acs_mjEulerDamped(m);
  if (as->qLD == d->qLD && !ctx->damped) {
    return 0;
  }
  if (acs_bufferReserve(&ctx->mem, &ctx->Mhat, nC > 0 ? nC : 1, sizeof(mjtNum))) {
    return -1;
  }
  mjtNum* Mhat = acsBUF(ctx, Mhat, mjtNum);
  const mjtNum* add = ctx->damped ? m->dof_damping : acs_mjMetricDiagonal(d);
  mjtNum scale = ctx->damped ? m->opt.timestep : 1;
  mju_copy(Mhat, d->M, nC);
  for (int i=0; i < nv; i++) {
    Mhat[m->M_rowadr[i] + m->M_rownnz[i] - 1] += scale * add[i];
  }
  as->Mhat = Mhat;
  if (!ctx->damped) {
    return 0;
  }
  if (acs_bufferReserve(&ctx->mem, &ctx->Hfac, nC > 0 ? nC : 1, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->Hdinv, nv > 0 ? nv : 1, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &ctx->qacc_damped, nv > 0 ? nv : 1, sizeof(mjtNum))) {
    ctx->damped = 0;
    return -1;
  }
  mjtNum* H = acsBUF(ctx, Hfac, mjtNum);
  mjtNum* Hdinv = acsBUF(ctx, Hdinv, mjtNum);
  mjtNum* qacc = acsBUF(ctx, qacc_damped, mjtNum);
  mju_copy(H, Mhat, nC);
  acs_factorLD(H, Hdinv, m->M_rownnz, m->M_rowadr, m->M_colind, 0, nv);
  mju_copy(qacc, d->qfrc_smooth, nv);
  acs_solveLD(qacc, m->M_rownnz, m->M_rowadr, m->M_colind, H, Hdinv, 0, nv);
  as->qLD = H;
  as->qLDiagInv = Hdinv;
  as->qacc_smooth = qacc;
  return 0;
}


static int buildProblem(acsContext* ctx, const mjModel* m, mjData* d, int flg_Y) {
  assembly as = {
    .ctx = ctx, .m = m, .d = d, .s = &ctx->settings, .nv = m->nv, .ntree = m->ntree,
    .sparse = mj_isSparse(m), .pyramid = mj_isPyramidal(m), .flg_Y = flg_Y,
    .h = m->opt.timestep,
  };
  if (stepMatrix(&as)) {
    return -1;
  }
  int nefc_mj = d->nefc, ntree = m->ntree;
  if (reserveBuffers(ctx, nefc_mj > 0 ? nefc_mj : 1, m->nv, ntree)) {
    return -1;
  }
  if (flg_Y) {
    mjtNum* sdinv = acsBUF(ctx, dof_sdinv, mjtNum);
    for (int i=0; i < m->nv; i++) {
      sdinv[i] = mju_sqrt(as.qLDiagInv[i]);
    }
  }
  int* parent = acsBUF(ctx, tree_parent, int);
  memset(acsBUF(ctx, tree_rows, int), 0, (ntree > 0 ? ntree : 1) * sizeof(int));
  for (int t=0; t < ntree; t++) {
    parent[t] = t;
  }

  // block by block: kind, pattern, rows, the rows kept, record, storage
  blockAsm blk;
  for (int i=0; i < nefc_mj; i += blk.nmj) {
    blockKind(&blk, d, i, as.pyramid);
    blockPattern(&as, &blk);
    blockRows(&as, &blk);
    if (!keepRows(&as, &blk)) {
      continue;
    }
    recordBlock(&as, &blk);
    if (storeRows(&as, &blk)) {
      return -1;
    }
  }

  if (pointProblem(&as, numberIslands(&as)) || acs_consistentStabilization(ctx, m, d)) {
    return -1;
  }
  ctx->nefc_mj = nefc_mj;

  // the blocks tile the rows in order
  acsASSERT(as.nblock == 0 || acsBUF(ctx, block_adr, int)[0] == 0);
  acsASSERT(as.nblock == 0 || acsBUF(ctx, block_adr, int)[as.nblock-1] +
                              acsBUF(ctx, block_dim, int)[as.nblock-1] == as.nrow);
  return 0;
}


int acs_buildProblem(acsContext* ctx, const mjModel* m, mjData* d, int flg_Y) {
  // a build that fails halfway (out of memory) leaves no problem: its buffers may have moved under
  // the previous one's pointers
  int ret = buildProblem(ctx, m, d, flg_Y);
  if (ret) {
    memset(&ctx->problem, 0, sizeof(acsProblem));
    ctx->damped = 0;
  }
  return ret;
}
