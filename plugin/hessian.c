// Copyright 2026 The acs authors.
//
// M + J' X J over a set of dofs in the supernodal factor (hessian.h): its nodes, its assembly
// from M's layout and the blocks' transposed rows, its factor and solve.

#include "hessian.h"

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "supernodal.h"
#include "util_errmem.h"

#define kHessianDense 400         // the factor's values at most: nv^2 up to this many dofs, then
                                  //   kHessianDense^2 + 128 nv (a wall of 64 boxes fills 7600)
#define kDenseRun 32              // a run of the set's dofs this short is one node

void acs_hessianLayout(acsHessian* h, acsArena* arena, const acsProblem* p) {
  size_t nv = p->nv, limit = (size_t)kHessianDense*kHessianDense + 128*nv;
  acs_snLayout(&h->sn, arena, p->nv, nv*nv < limit ? nv*nv : limit);
  h->node   = acs_arenaAlloc(arena, nv, sizeof(int));
  h->nstart = acs_arenaAlloc(arena, nv, sizeof(int));
  h->nsize  = acs_arenaAlloc(arena, nv, sizeof(int));
  h->mark   = acs_arenaAlloc(arena, nv, sizeof(int));
  h->stamp  = 0;
  h->ndof   = 0;
}


void acs_blockTransposes(mjtNum* Jt, int* Jtadr, const acsProblem* p) {
  int adrT = 0;
  for (int k=0; k < p->nblock; k++) {
    int adr = p->block_adr[k], dim = p->block_dim[k], np = p->J_rownnz[adr];
    mjtNum* Jk = Jt + adrT;
    Jtadr[k] = adrT;
    adrT += np*dim;
    for (int r=0; r < dim; r++) {
      const mjtNum* J = p->J + p->J_rowadr[adr+r];
      for (int c=0; c < np; c++) {
        Jk[c*dim + r] = J[c];
      }
    }
  }
}


void acs_hessianTrees(int* inset, const acsProblem* p, const int* couple) {
  for (int i=0; i < p->nv; i++) {
    inset[i] = 0;
  }
  for (int k=0; k < p->nblock; k++) {
    int row = p->block_adr[k];
    for (int c=0; couple[k] && c < p->J_rownnz[row]; c++) {
      int dof = p->J_colind[p->J_rowadr[row] + c];
      inset[p->M_colind[p->M_rowadr[dof]]] = 1;
    }
  }
  for (int i=0; i < p->nv; i++) {   // a root dof comes first: its mark is final when read
    inset[i] = inset[p->M_colind[p->M_rowadr[i]]];
  }
}


int acs_hessianAnalyze(acsHessian* h, const acsProblem* p, const int* inset, const int* couple) {
  int nv = p->nv, nnode = 0;

  // node starts: where the set's dofs start (2), and where a coupling block's run of
  // consecutive dofs starts or ends (1); the set's other dofs (0), the others (-1)
  for (int i=0; i < nv; i++) {
    h->node[i] = inset[i] ? 2*(i == 0 || !inset[i-1]) : -1;
    h->mark[i] = 0;
  }
  h->stamp = 0;
  for (int k=0; k < p->nblock; k++) {
    int row = p->block_adr[k], n = p->J_rownnz[row];
    const int* col = p->J_colind + p->J_rowadr[row];
    for (int c=0; c < n && couple[k]; c++) {
      if ((c == 0 || col[c] != col[c-1] + 1) && h->node[col[c]] == 0) {
        h->node[col[c]] = 1;
      }
      if ((c == n-1 || col[c+1] != col[c] + 1) && col[c] + 1 < nv && h->node[col[c]+1] == 0) {
        h->node[col[c]+1] = 1;
      }
    }
  }
  // a run of the set's consecutive dofs of at most kDenseRun dofs is one node: a robot's few
  // dofs (the humanoid's 27 in 10 nodes: the bookkeeping of small nodes costs more than their
  // sparsity saves)
  for (int i=0, j; i < nv; i = j) {
    for (j = i + 1; j < nv && h->node[j] >= 0 && h->node[j] != 2; j++) {}
    for (int q=i+1; h->node[i] >= 0 && j - i <= kDenseRun && q < j; q++) {
      h->node[q] = 0;
    }
  }
  h->ndof = 0;
  for (int i=0; i < nv; i++) {   // node[i] read before it becomes i's node
    if (h->node[i] > 0) {
      h->nstart[nnode] = i;
      h->nsize[nnode++] = 0;
    }
    if (h->node[i] >= 0) {
      h->node[i] = nnode - 1;
      h->nsize[nnode-1]++;
      h->ndof++;
    }
  }

  // couplings: a dof and its ancestors (M's pattern), the nodes of each coupling block
  if (acs_snBegin(&h->sn, nnode, h->nstart, h->nsize)) {
    return -1;
  }
  for (int i=0; i < nv; i++) {
    for (int j=0; h->node[i] >= 0 && j < p->M_rownnz[i] - 1; j++) {
      int a = h->node[p->M_colind[p->M_rowadr[i] + j]];
      if (a != h->node[i]) {
        acs_snCouple(&h->sn, a, h->node[i]);
      }
    }
  }
  for (int k=0; k < p->nblock; k++) {
    int row = p->block_adr[k], n = p->J_rownnz[row];
    const int* col = p->J_colind + p->J_rowadr[row];
    if (!couple[k]) {
      continue;
    }
    // the pattern is sorted: a node's dofs come together; each node coupled to those before it
    for (int a=0, prev=-1; a < n; a++) {
      int na = h->node[col[a]];
      if (na == prev) {
        continue;
      }
      prev = na;
      for (int b=0; b < a; b++) {
        if (h->node[col[b]] != na) {
          acs_snCouple(&h->sn, na, h->node[col[b]]);
        }
      }
    }
  }
  return acs_snAnalyze(&h->sn);
}


void acs_hessianZero(acsHessian* h) {
  acs_snZero(&h->sn);
}


void acs_hessianAddM(acsHessian* h, const acsProblem* p, const mjtNum* val) {
  for (int i=0; i < p->nv; i++) {
    int a = h->node[i];
    if (a < 0) {
      continue;
    }
    int adr = p->M_rowadr[i], n = p->M_rownnz[i], li = i - h->nstart[a];
    const int* col = p->M_colind + adr;

    // the row's ancestors in runs of one node each (ascending): one block per run
    for (int j0=0, j1; j0 < n; j0 = j1) {
      int b = h->node[col[j0]], si, sj;
      for (j1 = j0 + 1; j1 < n && h->node[col[j1]] == b; j1++) {}
      mjtNum* blk = acs_snBlock(&si, &sj, &h->sn, a, b);
      acsASSERT(blk != NULL);
      for (int j=j0; j < j1; j++) {   // col[j] <= i: a node's lower triangle
        blk[li*si + (col[j] - h->nstart[b])*sj] += val[adr+j];
      }
    }
  }
}


void acs_hessianAddBlock(acsHessian* h, const acsProblem* p, int k, const mjtNum* Jt,
                         const mjtNum* JtX, int inpattern) {
  int row = p->block_adr[k], np = p->J_rownnz[row], dim = p->block_dim[k];
  const int* pat = p->J_colind + p->J_rowadr[row];

  // the pattern in runs of one node each (it is sorted): the entries of a pair of runs go to one
  // block of the factor
  for (int a0=0, a1; a0 < np; a0 = a1) {
    int na = h->node[pat[a0]];
    for (a1 = a0 + 1; a1 < np && h->node[pat[a1]] == na; a1++) {}
    for (int b0=0, b1; b0 <= a0; b0 = b1) {
      int nb = h->node[pat[b0]];
      for (b1 = b0 + 1; b1 < np && h->node[pat[b1]] == nb; b1++) {}
      int si, sj;
      mjtNum* blk = acs_snBlock(&si, &sj, &h->sn, na, nb);
      acsASSERT(blk != NULL);
      int oa = h->nstart[na], ob = h->nstart[nb];
      for (int a=a0; a < a1; a++) {
        int i = pat[a];
        if (!inpattern) {   // mark i's ancestors (and i)
          int radr = p->M_rowadr[i];
          h->stamp++;
          for (int j=0; j < p->M_rownnz[i]; j++) {
            h->mark[p->M_colind[radr+j]] = h->stamp;
          }
        }
        const mjtNum* x = JtX + a*dim;
        for (int b=b0; b < (na == nb ? a + inpattern : b1); b++) {
          if (!inpattern && h->mark[pat[b]] == h->stamp) {
            continue;
          }
          const mjtNum* y = Jt + b*dim;
          mjtNum v = 0;
          for (int r=0; r < dim; r++) {
            v += x[r] * y[r];
          }
          blk[(i-oa)*si + (pat[b]-ob)*sj] += v;   // pat[b] <= i: a node's lower triangle
        }
      }
    }
  }
}


int acs_hessianFactor(acsHessian* h) {
  return acs_snFactor(&h->sn, mjMINVAL);
}


void acs_hessianSolve(const acsHessian* h, mjtNum* x) {
  acs_snSolve(&h->sn, x);
}
