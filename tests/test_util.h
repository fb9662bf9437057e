// Copyright 2026 The acs authors.
//
// Minimal C test harness (Box2D's ENSURE/RUN_TEST pattern) and model fixtures. Any MuJoCo warning
// or error fails the running test unless the test expects it (acst_expectWarnings).

#ifndef ACS_TESTS_TEST_UTIL_H_
#define ACS_TESTS_TEST_UTIL_H_

#include <math.h>
#include <stdio.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

extern int acst_failures;         // failed checks in the running test

#define ENSURE(cond) do {                                                              \
  if (!(cond)) {                                                                       \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
    acst_failures++;                                                                   \
  }                                                                                    \
} while (0)

// |a - b| <= tol, with the values printed on failure
#define ENSURE_NEAR(a, b, tol) do {                                                    \
  double acst_a_ = (a), acst_b_ = (b), acst_t_ = (tol);                                \
  if (!(fabs(acst_a_ - acst_b_) <= acst_t_)) {                                         \
    fprintf(stderr, "%s:%d: check failed: |%s - %s| <= %s  (%.17g vs %.17g, diff %.3g)\n", \
            __FILE__, __LINE__, #a, #b, #tol, acst_a_, acst_b_, fabs(acst_a_ - acst_b_)); \
    acst_failures++;                                                                   \
  }                                                                                    \
} while (0)

// a <= b, with the values printed on failure
#define ENSURE_LE(a, b) do {                                                           \
  double acst_a_ = (a), acst_b_ = (b);                                                 \
  if (!(acst_a_ <= acst_b_)) {                                                         \
    fprintf(stderr, "%s:%d: check failed: %s <= %s  (%.6g vs %.6g)\n",                 \
            __FILE__, __LINE__, #a, #b, acst_a_, acst_b_);                             \
    acst_failures++;                                                                   \
  }                                                                                    \
} while (0)

typedef void (*acstTestFn)(void);

typedef struct {
  const char* name;
  acstTestFn  fn;
} acstTest;

#define TEST(fn) {#fn, fn}

// run the tests whose name contains argv[1] (all if absent); return the process exit code
int acst_main(int argc, char** argv, const acstTest* tests, int ntest);

// let the running test raise MuJoCo warnings (counted in acst_nwarning) instead of failing
void acst_expectWarnings(int allow);
extern int acst_nwarning;

// load a model from test_models/ or from the shared MuJoCo models (ACS_SHARED_MODELS);
// a failure to load fails the test and returns NULL
mjModel* acst_loadTestModel(const char* name);
mjModel* acst_loadSharedModel(const char* name);

// the path of a file in test_models/
void acst_testModelPath(char* path, int path_sz, const char* name);
mjModel* acst_loadString(const char* xml);

// a hanging chain of ndof hinges (bodies b0 ..., axes alternating x and y, damped), friction loss
// 1 on its last nfriction; connect: its tip held to the world where it starts by this many
// connect equalities (the same one repeated); keyframe: a keyframe bending every joint by up to
// 0.3 rad
mjModel* acst_loadChain(int ndof, int nfriction, int connect, int keyframe);

// a wall of nbox boxes of 10 cm and 1 kg on a plane, in rows of up to 8, each row shifted by half
// a box (bench/scaling.py's walls: one island, every box on two below), nbox <= 120; loaded
// (NULL: a failure)
mjModel* acst_loadWall(int nbox);
mjModel* acst_loadPath(const char* path);

// directory of the shared models; every .xml of test_models/ then of the shared models, sorted
// (at most max paths); return the count
const char* acst_sharedDir(void);
int acst_listModels(char (*paths)[1024], int max);

// data reset to keyframe 0 if the model has one
mjData* acst_makeData(const mjModel* m);

// context for solver name with defaults (model configuration ignored); fails the test on error
acsContext* acst_makeContext(const mjModel* m, const char* solver);

//---------------------------------- hand-built problems -------------------------------------------

#define acstMAXDOF 32
#define acstMAXROW 48

// a dense problem from a mass matrix and Jacobian rows: Y = M^-1 J' computed here
typedef struct {
  acsProblem p;
  mjtNum M[acstMAXDOF*acstMAXDOF];
  int block_type[acstMAXROW], block_dim[acstMAXROW], block_adr[acstMAXROW], block_id[acstMAXROW];
  mjtNum block_mu[5*acstMAXROW], block_floss[acstMAXROW], block_pos[acstMAXROW];
  mjtNum b[acstMAXROW];
  int J_rownnz[acstMAXROW], J_rowadr[acstMAXROW], J_colind[acstMAXROW*acstMAXDOF];
  mjtNum J[acstMAXROW*acstMAXDOF];
  int Y_rownnz[acstMAXROW], Y_rowadr[acstMAXROW], Y_colind[acstMAXROW*acstMAXDOF];
  mjtNum Y[acstMAXROW*acstMAXDOF];
} acstProblem;

// empty problem with nv dofs, mass matrix M (nv x nv, SPD) and time step h
void acst_problemInit(acstProblem* t, int nv, const mjtNum* M, mjtNum h);

// append a block: Jrows (dim x nv), b (dim), mu (5, contacts; NULL otherwise), floss (friction)
void acst_problemAdd(acstProblem* t, int type, int dim, const mjtNum* Jrows, const mjtNum* b,
                     const mjtNum* mu, mjtNum floss);

// velocity a = G f + b of a problem (nefc)
void acst_velocity(mjtNum* a, const acsProblem* p, const mjtNum* f);

// solve with the named solver, tolerance and iteration budget; return the status
int acst_solve(mjtNum* force, acsStats* stats, const acsProblem* p, const char* solver,
               mjtNum tolerance, int maxiter);

// solve with the settings s (refusals printed); return the status
int acst_solveSettings(mjtNum* force, acsStats* stats, const acsProblem* p,
                       const acsSettings* s);

#endif  // ACS_TESTS_TEST_UTIL_H_
