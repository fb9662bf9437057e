// Copyright 2026 The acs authors.
//
// The acs context: settings, the buffers behind the step's acsProblem, the warm-start cache and
// the statistics. Buffers grow when a problem outgrows them (between steps in steady state they
// are reused, so a steady-state step does not allocate).

#ifndef ACS_PLUGIN_CONTEXT_H_
#define ACS_PLUGIN_CONTEXT_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

// a growable array: capacity in elements
typedef struct acsBuffer_ {
  void*  ptr;
  size_t cap;
} acsBuffer;

// warm-start cache of one step: contacts keyed by geom pair and position, other rows by key
typedef struct acsWarmCache_ {
  int ncon;                       // cached contacts
  int nrow;                       // cached non-contact rows
  int nhead;                      // hash table size (power of two)
  acsBuffer con_geom;             // geom pair                                   (ncon x 2) int
  acsBuffer con_pos;              // world position                              (ncon x 3)
  acsBuffer con_force;            // force and torque in the world frame         (ncon x 6)
  acsBuffer con_next;             // hash chain                                  (ncon x 1) int
  acsBuffer con_used;             // matched in the current step                 (ncon x 1) int
  acsBuffer head;                 // hash heads                                  (nhead x 1) int
  acsBuffer row_key;              // (efc_type, efc_id, k)                       (nrow x 3) int
  acsBuffer row_force;            // force                                       (nrow x 1)
} acsWarmCache;

struct acsContext_ {
  acsSettings settings;           // active settings
  acsStats    stats;              // statistics of the last step
  char        error[acsNERROR];   // message of the last refused step

  // model identity, to catch a context used with another model
  const mjModel* model;
  int nv;

  // per-geom material overrides of the compliant models (ngeom; NaN: not set)
  mjtNum* geom_stiffness;
  mjtNum* geom_dissipation;

  // problem of the current step (points into the buffers below)
  acsProblem problem;
  int        nefc_mj;             // MuJoCo's nefc the problem was built from

  // per block
  acsBuffer block_type, block_dim, block_adr, block_id, block_mu, block_floss, block_pos;
  acsBuffer block_efcadr;         // first MuJoCo efc row of the block
  acsBuffer block_island, island_nefc;   // islands (int)
  acsBuffer block_tree;           // first tree of the block, -1 if none (int)
  acsBuffer tree_parent;          // union-find over trees (ntree) int

  // per row
  acsBuffer b, R, J_rownnz, J_rowadr, Y_rownnz, Y_rowadr, vel, vfree, pos;
  acsBuffer block_stiffness, block_dissipation;
  acsBuffer force;                // solution (and warm start) in acs layout
  acsBuffer scratch;              // metrics scratch (nv + nefc)

  // sparse values
  acsBuffer J_colind, J, Y_colind, Y;

  // per dof and per tree
  acsBuffer dofvec;               // dense dof vectors, one per row of a block (6 nv)
  acsBuffer dof_list;             // dof list (nv)
  acsBuffer dof_mark;             // dof marks (nv) int
  acsBuffer tree_mark;            // tree marks (ntree) int
  acsBuffer tree_list;            // trees of a block (ntree) int
  int       stamp;                // current mark value

  // solver workspace and state carried between solves
  acsBuffer work;                 // bytes
  acsSolverState solver_state;

  // warm start: cache of the previous step and the one being written, swapped every step
  acsWarmCache warm[2];
  int          warm_prev;         // index of the cache holding the previous step

  int nalloc;                     // number of heap (re)allocations so far (tests)
};

// make sure buf holds at least n elements of size elsize; return 0 on success, -1 out of memory
int acs_bufferReserve(acsContext* ctx, acsBuffer* buf, size_t n, size_t elsize);

// wall-clock time in microseconds
double acs_timeMicro(void);

// write a formatted message into error (if error != NULL and error_sz > 0)
void acs_formatError(char* error, int error_sz, const char* format, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
;

#endif  // ACS_PLUGIN_CONTEXT_H_
