// Copyright 2026 The acs authors.
//
// Solver table and the pieces every problem solver shares: workspace carving, Delassus blocks,
// products with G = J M^-1 J' (+ R).

#ifndef ACS_PLUGIN_SOLVER_H_
#define ACS_PLUGIN_SOLVER_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

// workspace in bytes needed to solve p with s
typedef size_t (*acsfWorkspace)(const acsProblem* p, const acsSettings* s);

// solve p: force holds the warm start on input and the solution on output; return acstStatus.
// work has at least acsfWorkspace(p, s) bytes, 64-byte aligned; stats is filled (not NULL)
typedef int (*acsfSolve)(mjtNum* force, acsStats* stats, void* work,
                         const acsProblem* p, const acsSettings* s);

typedef struct acsSolverInfo_ {   // solver descriptor
  const char*   name;             // name in MJCF, bench and viewer
  const char*   description;      // one line
  acsfWorkspace workspace;        // NULL for native (runs inside MuJoCo)
  acsfSolve     solve;            // NULL for native
} acsSolverInfo;

// table indexed by acstSolver
extern const acsSolverInfo acsSOLVERS[acsNSOLVER];

// solvers
size_t acs_pgsWorkspace(const acsProblem* p, const acsSettings* s);
int    acs_pgsSolve(mjtNum* force, acsStats* stats, void* work,
                    const acsProblem* p, const acsSettings* s);


//---------------------------------- workspace arena -----------------------------------------------

// bump allocator over a caller-owned block; with base == NULL it only counts (workspace query)
typedef struct acsArena_ {
  char*  base;
  size_t used;
} acsArena;

// next 64-byte aligned chunk of n elements of size elsize (NULL when counting)
void* acs_arenaAlloc(acsArena* arena, size_t n, size_t elsize);


//---------------------------------- Delassus operations -------------------------------------------

// sparse dot product of row i of J with row j of Y (both column-sorted): G_ij without R
mjtNum acs_delassus(const acsProblem* p, int i, int j);

// dense diagonal block of block k: G_kk + diag(R) (dim x dim, row-major)
void acs_blockDelassus(mjtNum* G, const acsProblem* p, int k);

// w = Y' f (nv)
void acs_mulYT(mjtNum* w, const acsProblem* p, const mjtNum* f);

// w += Y_r' df over the rows of block k
void acs_addYTBlock(mjtNum* w, const acsProblem* p, int k, const mjtNum* df);

// a = J w + b + R f over all rows (a: nefc)
void acs_velocity(mjtNum* a, const acsProblem* p, const mjtNum* w, const mjtNum* f);

// a = J w + b + R f over the rows of block k (a: dim)
void acs_velocityBlock(mjtNum* a, const acsProblem* p, int k, const mjtNum* w, const mjtNum* f);

#endif  // ACS_PLUGIN_SOLVER_H_
