// Copyright 2026 The acs authors.
//
// Warm start shared by all solvers. MuJoCo rebuilds its contacts every step, in no stable order,
// so the forces of the previous step are matched, not copied:
//   contacts: same geom pair and the nearest previous position within warmstart_radius; the
//             cached force is stored in the world frame and re-expressed in the new contact frame
//             (so a rotated normal or tangent frame keeps the physical force);
//   other rows: same (efc_type, efc_id, occurrence) key; MuJoCo creates them in key order, so a
//             linear merge matches them.
// Unmatched blocks start from zero.

#include "warmstart.h"

#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "problem.h"


static unsigned pairHash(int g1, int g2) {
  return (unsigned)g1 * 2654435761u ^ ((unsigned)g2 * 40503u + 0x9e3779b9u);
}


// key of row r of block k: (efc_type, efc_id, occurrence of (type, id) so far)
static void rowKey(int key[3], const mjData* d, int efcrow, int occurrence) {
  key[0] = d->efc_type[efcrow];
  key[1] = d->efc_id[efcrow];
  key[2] = occurrence;
}


static int keyCompare(const int* a, const int* b) {
  for (int i=0; i < 3; i++) {
    if (a[i] != b[i]) {
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return 0;
}


// occurrence index of MuJoCo row efcrow among the preceding rows with the same type and id
static int occurrence(const mjData* d, int efcrow) {
  int k = 0;
  while (efcrow-k-1 >= 0 && d->efc_type[efcrow-k-1] == d->efc_type[efcrow] &&
         d->efc_id[efcrow-k-1] == d->efc_id[efcrow]) {
    k++;
  }
  return k;
}


int acs_warmstart(mjtNum* force, acsContext* ctx, const mjModel* m, const mjData* d) {
  (void)m;
  const acsProblem* p = &ctx->problem;
  acsWarmCache* prev = &ctx->warm[ctx->warm_prev];
  const int* efc = acsBUF(ctx, row_efc, int);
  int nwarm = 0;

  mju_zero(force, p->nefc);
  if (!ctx->settings.warmstart || (prev->ncon == 0 && prev->nrow == 0)) {
    return 0;
  }

  // non-contact rows: merge on the sorted keys
  const int* pkey = acsBUF(prev, row_key, int);
  const mjtNum* pforce = acsBUF(prev, row_force, mjtNum);
  int j = 0;
  for (int k=0; k < p->nblock && j < prev->nrow; k++) {
    if (p->block_type[k] == acsBLOCK_CONTACT) {
      continue;
    }
    int matched = 0;
    for (int r=0; r < p->block_dim[k]; r++) {
      int key[3];
      int row = efc[p->block_adr[k] + r];
      rowKey(key, d, row, occurrence(d, row));
      while (j < prev->nrow && keyCompare(pkey + 3*j, key) < 0) {
        j++;
      }
      if (j < prev->nrow && keyCompare(pkey + 3*j, key) == 0) {
        force[p->block_adr[k] + r] = pforce[j++];
        matched = 1;
      }
    }
    nwarm += matched;
  }

  // contacts: hash on the geom pair, nearest position within the radius
  if (prev->ncon > 0) {
    const int* pgeom = acsBUF(prev, con_geom, int);
    const mjtNum* ppos = acsBUF(prev, con_pos, mjtNum);
    const mjtNum* pF = acsBUF(prev, con_force, mjtNum);
    const int* next = acsBUF(prev, con_next, int);
    const int* head = acsBUF(prev, head, int);
    int* used = acsBUF(prev, con_used, int);
    memset(used, 0, prev->ncon * sizeof(int));
    mjtNum r2max = ctx->settings.warmstart_radius * ctx->settings.warmstart_radius;

    for (int k=0; k < p->nblock; k++) {
      if (p->block_type[k] != acsBLOCK_CONTACT) {
        continue;
      }
      const mjContact* con = d->contact + p->block_id[k];
      int g1 = con->geom[0], g2 = con->geom[1];
      int best = -1;
      mjtNum bestd2 = r2max;
      for (int c=head[pairHash(g1, g2) & (prev->nhead-1)]; c >= 0; c=next[c]) {
        if (used[c] || pgeom[2*c] != g1 || pgeom[2*c+1] != g2) {
          continue;
        }
        mjtNum dif[3];
        mju_sub3(dif, con->pos, ppos + 3*c);
        mjtNum d2 = mju_dot3(dif, dif);
        if (d2 <= bestd2) {
          bestd2 = d2;
          best = c;
        }
      }
      if (best < 0) {
        continue;
      }

      // world force and torque re-expressed in the new contact frame (rows of con->frame)
      used[best] = 1;
      nwarm++;
      mjtNum* f = force + p->block_adr[k];
      int dim = p->block_dim[k];
      const mjtNum* F = pF + 6*best;
      f[0] = mju_dot3(F, con->frame);
      if (dim >= 3) {
        f[1] = mju_dot3(F, con->frame+3);
        f[2] = mju_dot3(F, con->frame+6);
      }
      if (dim >= 4) {
        f[3] = mju_dot3(F+3, con->frame);
      }
      if (dim == 6) {
        f[4] = mju_dot3(F+3, con->frame+3);
        f[5] = mju_dot3(F+3, con->frame+6);
      }
    }
  }
  return nwarm;
}


int acs_warmstore(acsContext* ctx, const mjModel* m, const mjData* d, const mjtNum* force) {
  (void)m;
  const acsProblem* p = &ctx->problem;
  acsWarmCache* cur = &ctx->warm[1 - ctx->warm_prev];
  const int* efc = acsBUF(ctx, row_efc, int);

  // count
  int ncon = 0, nrow = 0;
  for (int k=0; k < p->nblock; k++) {
    if (p->block_type[k] == acsBLOCK_CONTACT) {
      ncon++;
    } else {
      nrow += p->block_dim[k];
    }
  }
  int nhead = 1;
  while (nhead < 2*ncon) {
    nhead *= 2;
  }
  int ncap = ncon > 0 ? ncon : 1, rcap = nrow > 0 ? nrow : 1;
  if (acs_bufferReserve(&ctx->mem, &cur->con_geom, 2*ncap, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &cur->con_pos, 3*ncap, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &cur->con_force, 6*ncap, sizeof(mjtNum)) ||
      acs_bufferReserve(&ctx->mem, &cur->con_next, ncap, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &cur->con_used, ncap, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &cur->head, nhead, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &cur->row_key, 3*rcap, sizeof(int)) ||
      acs_bufferReserve(&ctx->mem, &cur->row_force, rcap, sizeof(mjtNum))) {
    cur->ncon = cur->nrow = 0;
    return -1;
  }
  int* geom = acsBUF(cur, con_geom, int);
  mjtNum* pos = acsBUF(cur, con_pos, mjtNum);
  mjtNum* F = acsBUF(cur, con_force, mjtNum);
  int* next = acsBUF(cur, con_next, int);
  int* head = acsBUF(cur, head, int);
  int* key = acsBUF(cur, row_key, int);
  mjtNum* rforce = acsBUF(cur, row_force, mjtNum);
  for (int i=0; i < nhead; i++) {
    head[i] = -1;
  }

  int c = 0, r = 0;
  for (int k=0; k < p->nblock; k++) {
    const mjtNum* f = force + p->block_adr[k];
    int dim = p->block_dim[k];
    if (p->block_type[k] != acsBLOCK_CONTACT) {
      for (int j=0; j < dim; j++) {
        int row = efc[p->block_adr[k] + j];
        rowKey(key + 3*r, d, row, occurrence(d, row));
        rforce[r++] = f[j];
      }
      continue;
    }

    // contact force and torque in the world frame
    const mjContact* con = d->contact + p->block_id[k];
    geom[2*c] = con->geom[0];
    geom[2*c+1] = con->geom[1];
    mju_copy3(pos + 3*c, con->pos);
    mjtNum* Fc = F + 6*c;
    mju_scl3(Fc, con->frame, f[0]);
    mju_zero3(Fc+3);
    if (dim >= 3) {
      mju_addToScl3(Fc, con->frame+3, f[1]);
      mju_addToScl3(Fc, con->frame+6, f[2]);
    }
    if (dim >= 4) {
      mju_scl3(Fc+3, con->frame, f[3]);
    }
    if (dim == 6) {
      mju_addToScl3(Fc+3, con->frame+3, f[4]);
      mju_addToScl3(Fc+3, con->frame+6, f[5]);
    }
    unsigned hsh = pairHash(con->geom[0], con->geom[1]) & (nhead-1);
    next[c] = head[hsh];
    head[hsh] = c;
    c++;
  }
  cur->ncon = ncon;
  cur->nrow = nrow;
  cur->nhead = nhead;
  ctx->warm_prev = 1 - ctx->warm_prev;
  return 0;
}
