// Copyright 2026 The acs authors.
//
// The acs context: settings, the identity of its model, the buffers behind the step's acsProblem,
// the warm-start cache and the statistics. Buffers grow when a problem outgrows them (between
// steps in steady state they are reused, so a steady-state step does not allocate).

#ifndef ACS_PLUGIN_CONTEXT_H_
#define ACS_PLUGIN_CONTEXT_H_

#include <stddef.h>
#include <stdint.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "util_errmem.h"

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

// what identifies a model to acs: the sizes it uses and a fingerprint of the structure it reads
#define acsNIDSIZE 15
typedef struct acsModelId_ {
  int      size[acsNIDSIZE];      // nq nv nu na nbody njnt ngeom nsite ntree neq ntendon nC
                                  //   nmocap nuserdata nsensordata
  uint64_t fingerprint;           // hash of the kinematic trees, mass-matrix pattern and geoms
} acsModelId;

struct acsContext_ {
  acsSettings settings;           // active settings
  acsStats    stats;              // statistics of the last step
  char        error[acsNERROR];   // message of the last refused call

  // the model the context was made for, and the last model pointer found identical to it
  acsModelId     model_id;
  const mjModel* model_checked;

  // per-geom material overrides of the compliant models (ngeom; NaN: not set)
  mjtNum* geom_stiffness;
  mjtNum* geom_dissipation;

  // problem of the current step (points into the buffers below)
  acsProblem problem;
  int        nefc_mj;             // MuJoCo's nefc the problem was built from

  // per block
  acsBuffer block_type, block_dim, block_adr, block_id, block_mu, block_floss, block_pos;
  acsBuffer block_efcadr;         // first MuJoCo efc row of the block (int)
  acsBuffer block_island, island_nefc;   // islands (int)
  acsBuffer island_drop;          // islands solved again without their stabilization (int)
  acsBuffer block_tree;           // first tree of the block, -1 if none (int)
  acsBuffer tree_parent;          // union-find over trees (ntree) int

  // per row
  acsBuffer b, R, J_rownnz, J_rowadr, Y_rownnz, Y_rowadr, vel, vfree, pos;
  acsBuffer row_efc;              // MuJoCo efc row of a non-contact row (int)
  acsBuffer vstab;                // stabilization part of the bias velocity v* (Baumgarte,
                                  //   restitution), m/s: b holds -vstab / h
  acsBuffer stab_rows;            // consistent stabilization: each block's body pair (long), a
                                  //   pair's held rows (int), the blocks done (byte); their
                                  //   Delassus matrix, requests and
  acsBuffer stab_work;            //   null space (mjtNum; stabilization.c)
  acsBuffer stab_cols;            //   and the workspace that forms it (acsColumns)
  acsBuffer block_stiffness, block_dissipation;
  acsBuffer force;                // solution (and warm start) in acs layout
  acsBuffer force_start;          // the step's warm start, for a second solve
  acsBuffer scratch;              // metrics scratch (nv + 2 nefc)

  // sparse values; Y_* hold the rows of B = D^-1/2 L^-T J' (the dual solvers' factor of G)
  acsBuffer J_colind, J, Y_colind, Y;

  // per dof and per tree
  acsBuffer dofvec;               // dense dof vectors, one per row of a block (6 nv)
  acsBuffer dof_list;             // dof list (nv)
  acsBuffer dof_mark;             // dof marks (nv) int
  acsBuffer dof_anc;              // a block's dofs and their ancestors, ascending: the column
                                  //   pattern of its rows of B (nv) int
  acsBuffer dof_sdinv;            // D^-1/2 of the step's factor L'DL (nv)
  acsBuffer tree_mark;            // tree marks (ntree) int
  acsBuffer tree_list;            // trees of a block (ntree) int
  acsBuffer tree_rows;            // trees that MuJoCo's constraint rows touch (ntree) int
  acsBuffer tree_drop;            // trees of the islands the last solve left without their
                                  //   stabilization (ntree) int
  acsBuffer Mhat;                 // the step's matrix if not M: the discrete integrator's
                                  //   effective metric's backbone, the damped Euler step's
                                  //   M + hB (nC)
  acsBuffer qacc_mj;              // discrete integrator: MuJoCo's qacc (nv)
  acsBuffer Hfac, Hdinv;          // damped Euler step: the factor of M + hB (nC, nv)
  acsBuffer qacc_damped;          // damped Euler step: (M + hB)^-1 qfrc_smooth (nv)
  acsBuffer u0;                   // the problem's u0 = -h qacc_smooth (nv)
  int       damped;               // this step's problem is stated with M + hB (damped Euler)
  int       stamp;                // current mark value

  // solver workspace and state carried between solves
  acsBuffer work;                 // bytes
  acsBuffer rk4;                  // RK4 stages (4 (nq + nv + na) + 4 (nv + na) + 2 nv + na)
  int       stage;                // 1 inside an RK4 stage: no metrics
  int       test_ownrk4;          // tests: native runs acs's RK4 (instead of mj_RungeKutta) and
                                  //   acs's discrete pipeline (instead of mj_step)
  acsSolverState solver_state;
  int       unstabilized_run;     // steps in a row solved without (some of) their stabilization

  // warm start: cache of the previous step and the one being written, swapped every step
  acsWarmCache warm[2];
  int          warm_prev;         // index of the cache holding the previous step

  // the state of mjData before a step whose input MuJoCo's checks will reset or clear, restored
  // if the step is then refused (mjSTATE_INTEGRATION, qacc, qfrc_constraint, warnings)
  mjtNum*        saved;           // nsaved numbers, allocated with the context
  int            nsaved;
  mjWarningStat  saved_warning[mjNWARNING];

  acsBufferStats mem;             // allocations so far; fault injection (tests)
};

// Forget the warm-start cache (both steps' contacts and rows).
void acs_warmReset(acsContext* ctx);

// Check that m is the model ctx was made for (sizes, then the fingerprint when the pointer is
// new). Return 0 if it is; otherwise -1 with a message naming the difference.
int acs_checkModelIdentity(acsContext* ctx, const mjModel* m, char* error, int error_sz);

// Check that acs can run model m with solver (integrator, flags). Return 0, or -1 with a message.
int acs_checkModelSupported(const mjModel* m, int solver, char* error, int error_sz);

#endif  // ACS_PLUGIN_CONTEXT_H_
