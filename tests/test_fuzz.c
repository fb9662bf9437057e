// Copyright 2026 The acs authors.
//
// Fuzz test of the public API: random inputs, for a fixed budget, must never crash or trip a
// sanitizer, and every call must end with a clear status or message:
//   problems:  random acsProblems to acs_checkProblem, acs_workspaceSize, acs_solve,
//              acs_problemResidual and acs_evaluateProblem, valid ones (random masses over 12
//              orders of magnitude, random Jacobians, every block kind and dimension, islands)
//              and corrupted ones (NaN and infinity, bad sizes, kinds, addresses, unsorted or
//              out-of-range columns, NULL arrays, broken mass-matrix layout). Every array is
//              allocated with exactly the length the problem declares, so AddressSanitizer sees
//              any read past it. A refused solve leaves force as it was and says why; an
//              accepted one returns finite forces;
//   options:   random names and values to acs_setOption, random bytes in acsSettings;
//   steps:     models with every condim, cone and integrator acs accepts (and those it refuses),
//              NaN, infinity and huge values in qpos, qvel, ctrl and xfrc_applied, random solvers
//              and options, injected allocation failures: a refused step leaves the state of
//              mjData (mj_getState, mjSTATE_INTEGRATION), qacc and qfrc_constraint exactly as they were;
//              a diverged step says why; the state after a step that was not refused is finite.
//
//   test_fuzz [filter] [--seconds S] [--seed N] [--quick]
// Without --seconds each part runs a fixed number of rounds (CI: deterministic for a seed, a few
// seconds; --quick: a tenth, for Valgrind); with it, each part runs for S seconds (by hand: minutes
// or hours, any seed).

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "test_util.h"

static double budget = 0;          // seconds per part; 0: fixed rounds
static int rounds[3] = {15000, 20000, 150};   // rounds per part without --seconds
static uint64_t seed = 1;
static uint64_t rng = 1;


//---------------------------------- random numbers ------------------------------------------------

static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}


static int randInt(int n) {
  return n > 0 ? (int)(next() % (uint64_t)n) : 0;
}


static double uniform(void) {
  return (next() >> 11) * (1.0 / 9007199254740992.0);
}


// log-uniform magnitude in [10^lo, 10^hi]
static double logUniform(double lo, double hi) {
  return pow(10, lo + (hi - lo) * uniform());
}


// a value a caller might pass by mistake, or a plain number
static double wild(void) {
  switch (randInt(12)) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  case 3: return 1e300;
  case 4: return -1e300;
  case 5: return 0;
  case 6: return 1e-300;
  default: return (uniform() - 0.5) * logUniform(-6, 6);
  }
}


static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}


// does part `part` go on for another round (round: rounds done so far)
static int more(int part, long round, double t0) {
  return budget > 0 ? now() - t0 < budget : round < rounds[part];
}


// exactly n elements (at least one byte, so that a zero-length array is still a valid pointer)
static void* alloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}


//---------------------------------- problems ------------------------------------------------------

#define MAXV 8
#define MAXB 10

typedef struct {
  acsProblem p;
  int *type, *dim, *adr, *id, *island, *island_nefc;
  mjtNum *mu, *floss, *pos, *stiff, *diss;
  mjtNum *b, *R, *vel, *vfree, *rpos;
  int *Jn, *Ja, *Jc, *Yn, *Ya, *Yc, *Mn, *Ma, *Mc;
  mjtNum *J, *Y, *M, *LD, *Ldinv, *u0;
} fuzzProblem;


static void freeProblem(fuzzProblem* f) {
  void* ptrs[] = {f->type, f->dim, f->adr, f->id, f->island, f->island_nefc, f->mu, f->floss,
                  f->pos, f->stiff, f->diss, f->b, f->R, f->vel, f->vfree, f->rpos, f->Jn, f->Ja,
                  f->Jc, f->Yn, f->Ya, f->Yc, f->Mn, f->Ma, f->Mc, f->J, f->Y, f->M, f->LD,
                  f->Ldinv, f->u0};
  for (size_t i=0; i < sizeof(ptrs)/sizeof(ptrs[0]); i++) {
    free(ptrs[i]);
  }
}


// root of a in the union-find forest parent
static int root(int* parent, int a) {
  while (parent[a] != a) {
    a = parent[a];
  }
  return a;
}


// a valid random problem: diagonal mass matrix (MuJoCo's layout), random sparse J, Y = M^-1 J'
static void makeProblem(fuzzProblem* f) {
  memset(f, 0, sizeof(fuzzProblem));
  acsProblem* p = &f->p;
  int nv = randInt(MAXV + 1), nblock = nv ? randInt(MAXB + 1) : 0;
  p->nv = nv;
  p->nblock = nblock;
  p->timestep = logUniform(-5, -1);

  // blocks
  f->type = alloc(nblock, sizeof(int));
  f->dim = alloc(nblock, sizeof(int));
  f->adr = alloc(nblock, sizeof(int));
  f->id = alloc(nblock, sizeof(int));
  f->mu = alloc(5*nblock, sizeof(mjtNum));
  f->floss = alloc(nblock, sizeof(mjtNum));
  f->pos = alloc(nblock, sizeof(mjtNum));
  f->stiff = alloc(nblock, sizeof(mjtNum));
  f->diss = alloc(nblock, sizeof(mjtNum));
  int nefc = 0;
  for (int k=0; k < nblock; k++) {
    static const int kContactDims[4] = {1, 3, 4, 6};
    int type = randInt(acsNBLOCK);
    int dim = type == acsBLOCK_CONTACT ? kContactDims[randInt(4)] :
              type == acsBLOCK_EQUALITY ? 1 + randInt(6) : 1;
    f->type[k] = type;
    f->dim[k] = dim;
    f->adr[k] = nefc;
    f->id[k] = k;
    for (int j=0; j < 5; j++) {
      f->mu[5*k+j] = randInt(4) ? logUniform(-3, 1) : randInt(2) ? 0 : 1e3;
    }
    f->floss[k] = logUniform(-3, 3);
    f->pos[k] = (uniform() - 0.7) * 0.01;
    f->stiff[k] = logUniform(2, 10);
    f->diss[k] = logUniform(-2, 2);
    nefc += dim;
  }
  p->nefc = nefc;

  // mass matrix: diagonal, masses over 12 orders of magnitude
  f->Mn = alloc(nv, sizeof(int));
  f->Ma = alloc(nv, sizeof(int));
  f->Mc = alloc(nv, sizeof(int));
  f->M = alloc(nv, sizeof(mjtNum));
  f->LD = alloc(nv, sizeof(mjtNum));
  f->Ldinv = alloc(nv, sizeof(mjtNum));
  f->u0 = alloc(nv, sizeof(mjtNum));
  for (int i=0; i < nv; i++) {
    f->Mn[i] = 1;
    f->Ma[i] = i;
    f->Mc[i] = i;
    f->M[i] = logUniform(-6, 6);
    f->LD[i] = f->M[i];          // its factor: D = M, L = I
    f->Ldinv[i] = 1 / f->M[i];
    f->u0[i] = (uniform() - 0.5) * logUniform(-2, 2);
  }
  p->nnzM = nv;

  // rows: a block's rows share a random column pattern
  f->b = alloc(nefc, sizeof(mjtNum));
  f->R = alloc(nefc, sizeof(mjtNum));
  f->vel = alloc(nefc, sizeof(mjtNum));
  f->vfree = alloc(nefc, sizeof(mjtNum));
  f->rpos = alloc(nefc, sizeof(mjtNum));
  f->Jn = alloc(nefc, sizeof(int));
  f->Ja = alloc(nefc, sizeof(int));
  f->Yn = alloc(nefc, sizeof(int));
  f->Ya = alloc(nefc, sizeof(int));
  f->Jc = alloc(nefc*nv, sizeof(int));
  f->Yc = alloc(nefc*nv, sizeof(int));
  f->J = alloc(nefc*nv, sizeof(mjtNum));
  f->Y = alloc(nefc*nv, sizeof(mjtNum));
  int nnz = 0;
  int parent[MAXB], colblock[MAXV];
  for (int k=0; k < nblock; k++) {
    parent[k] = k;
  }
  for (int c=0; c < nv; c++) {
    colblock[c] = -1;
  }
  for (int k=0; k < nblock; k++) {
    int pattern[MAXV], npat = 0;
    for (int c=0; c < nv; c++) {
      if (randInt(2)) {
        pattern[npat++] = c;
      }
    }
    if (!npat) {
      pattern[npat++] = randInt(nv);
    }
    for (int q=0; q < npat; q++) {   // blocks sharing a dof form one island
      int c = pattern[q];
      if (colblock[c] >= 0) {
        parent[root(parent, k)] = root(parent, colblock[c]);
      }
      colblock[c] = k;
    }
    for (int r=f->adr[k]; r < f->adr[k] + f->dim[k]; r++) {
      f->Jn[r] = f->Yn[r] = npat;
      f->Ja[r] = f->Ya[r] = nnz;
      for (int q=0; q < npat; q++) {
        mjtNum v = (uniform() - 0.5) * logUniform(-2, 2);
        f->Jc[nnz] = f->Yc[nnz] = pattern[q];
        f->J[nnz] = v;
        f->Y[nnz] = v / f->M[pattern[q]];
        nnz++;
      }
      f->b[r] = (uniform() - 0.5) * logUniform(-3, 4);
      f->R[r] = randInt(3) ? 0 : logUniform(-6, 0);
      f->vel[r] = (uniform() - 0.5) * 2;
      f->vfree[r] = (uniform() - 0.5) * 2;
      f->rpos[r] = r == f->adr[k] ? f->pos[k] : 0;
    }
  }
  p->nnzJ = p->nnzY = nnz;

  // islands: given (from the shared dofs) or left to the solver
  f->island = alloc(nblock, sizeof(int));
  f->island_nefc = alloc(nblock, sizeof(int));
  int nisland = 0;
  for (int k=0; k < nblock; k++) {
    f->island[k] = -1;
  }
  for (int k=0; k < nblock; k++) {
    int rk = root(parent, k);
    if (f->island[rk] < 0) {
      f->island[rk] = nisland++;
    }
  }
  for (int k=0; k < nblock; k++) {
    int isl = f->island[root(parent, k)];
    f->island_nefc[isl] += f->dim[k];
  }
  int* isl = alloc(nblock, sizeof(int));
  for (int k=0; k < nblock; k++) {
    isl[k] = f->island[root(parent, k)];
  }
  free(f->island);
  f->island = isl;

  p->block_type = f->type;
  p->block_dim = f->dim;
  p->block_adr = f->adr;
  p->block_id = f->id;
  p->block_mu = f->mu;
  p->block_floss = f->floss;
  p->block_pos = f->pos;
  p->nisland = randInt(2) ? nisland : 0;
  p->block_island = p->nisland ? f->island : NULL;
  p->island_nefc = p->nisland ? f->island_nefc : NULL;
  p->block_stiffness = randInt(2) ? f->stiff : NULL;
  p->block_dissipation = randInt(2) ? f->diss : NULL;
  p->b = f->b;
  p->R = randInt(2) ? f->R : NULL;
  p->vel = f->vel;
  p->vfree = f->vfree;
  p->pos = f->rpos;
  p->J_rownnz = f->Jn;
  p->J_rowadr = f->Ja;
  p->J_colind = f->Jc;
  p->J = f->J;
  p->Y_rownnz = f->Yn;
  p->Y_rowadr = f->Ya;
  p->Y_colind = f->Yc;
  p->Y = f->Y;
  p->M_rownnz = f->Mn;
  p->M_rowadr = f->Ma;
  p->M_colind = f->Mc;
  p->M = f->M;
  int factor = randInt(2);
  p->M_LD = factor ? f->LD : NULL;
  p->M_Dinv = factor ? f->Ldinv : NULL;
  p->u0 = randInt(2) ? f->u0 : NULL;
}


// break the problem in one random way (values only: every array keeps its declared length)
static void corrupt(fuzzProblem* f) {
  acsProblem* p = &f->p;
  int k = randInt(p->nblock), r = randInt(p->nefc), i = randInt(p->nnzJ);
  switch (randInt(27)) {
  case 0: if (p->nefc) f->b[r] = wild(); break;
  case 1: if (p->nblock) f->mu[5*k + randInt(5)] = wild(); break;
  case 2: if (p->nblock) f->floss[k] = wild(); break;
  case 3: if (p->nblock) f->dim[k] = randInt(16) - 4; break;
  case 4: if (p->nblock) f->type[k] = randInt(10) - 3; break;
  case 5: if (p->nblock) f->adr[k] += randInt(5) - 2; break;
  case 6: if (p->nnzJ) f->Jc[i] = randInt(3*MAXV) - MAXV; break;
  case 7: if (p->nnzJ) f->J[i] = wild(); break;
  case 8: if (p->nnzY) f->Y[randInt(p->nnzY)] = wild(); break;
  case 9: if (p->nefc) f->Jn[r] = randInt(3*MAXV) - MAXV; break;
  case 10: if (p->nefc) f->Ja[r] = randInt(100) - 50; break;
  case 11: p->nefc += randInt(5) - 2; break;
  case 12: p->nv = randInt(p->nv + 2) - 1; break;   // fewer (arrays keep their length)
  case 13: p->timestep = wild(); break;
  case 14: p->J = NULL; break;
  case 15: p->Y = NULL; break;
  case 16: p->block_type = NULL; break;
  case 17: if (p->nefc && p->R) f->R[r] = -logUniform(-3, 3); break;
  case 18: if (p->nblock) { p->block_island = f->island; p->island_nefc = f->island_nefc;
             p->nisland = randInt(p->nblock + 3) - 1; f->island[k] = randInt(12) - 2; } break;
  case 19: if (p->nv) f->Mc[randInt(p->nv)] = randInt(3*MAXV) - MAXV; break;
  case 20: if (p->nv) f->M[randInt(p->nv)] = wild(); break;
  case 21: if (p->nv) f->Ma[randInt(p->nv)] += randInt(5) - 2; break;
  case 22: p->nnzJ -= randInt(4); break;
  case 23: if (p->nv) { f->Ldinv[randInt(p->nv)] = wild(); p->M_LD = f->LD;
             p->M_Dinv = f->Ldinv; } break;
  case 24: if (randInt(2)) p->M_LD = NULL; else p->M_Dinv = NULL; break;
  case 25: if (p->nv) { f->u0[randInt(p->nv)] = wild(); p->u0 = f->u0; } break;
  default: if (p->nblock) f->pos[k] = wild(); break;
  }
}


static const char* solverNames[] = {"pgs", "admm", "raisim", "lcp-pgs", "ccp-pgs", "ccp-admm",
                                    "lagged", "similar", "native"};


static void testProblems(void) {
  double t0 = now();
  long nsolve = 0, nrefused = 0, nok = 0;
  while (more(0, nsolve, t0)) {
    fuzzProblem f;
    makeProblem(&f);
    int broken = randInt(3) == 0;
    if (broken) {
      corrupt(&f);
    }
    acsProblem* p = &f.p;
    char error[acsNERROR] = "";
    int check = acs_checkProblem(p, error, sizeof(error));
    ENSURE(check == 0 || error[0]);

    acsSettings s;
    acs_defaultSettings(&s);
    s.solver = acs_solverId(solverNames[randInt(9)]);
    s.maxiter = randInt(301);   // 0: the solver's budget
    s.tolerance = randInt(2) ? 1e-10 : 1e-4;
    s.omega = 0.2 + 1.6 * uniform();
    int nefc = p->nefc > 0 && p->nefc < 1000 ? p->nefc : 1;
    mjtNum* force = alloc(nefc, sizeof(mjtNum));
    mjtNum* before = alloc(nefc, sizeof(mjtNum));
    for (int r=0; r < nefc; r++) {
      force[r] = randInt(4) ? 0 : randInt(8) ? (uniform() - 0.5) * 100 : wild();
    }
    memcpy(before, force, nefc * sizeof(mjtNum));
    size_t need = acs_workspaceSize(p, &s);
    size_t worksz = need + (randInt(8) ? 0 : 64);
    if (need && randInt(16) == 0) {
      worksz = need / 2;   // too small: refused
    }
    void* work = worksz ? malloc(worksz) : NULL;
    acsStats st;
    acsSolverState state;
    acs_defaultSolverState(&state);
    error[0] = 0;
    int status = acs_solve(force, &st, randInt(2) ? &state : NULL, p, &s, work, worksz,
                           error, sizeof(error));
    nsolve++;
    ENSURE(status >= 0 && status < acsNSTATUS);
    ENSURE(st.status == status);
    if (status == acsSTATUS_ERROR) {
      nrefused++;
      if (!error[0] || memcmp(force, before, nefc * sizeof(mjtNum))) {
        fprintf(stderr, "acs_solve refused without a message or changed force (%s)\n", error);
        acst_failures++;
      }
    } else {
      nok++;
      if (check) {
        fprintf(stderr, "acs_solve accepted a problem acs_checkProblem refuses: %s\n", error);
        acst_failures++;
      }
      for (int r=0; r < p->nefc; r++) {
        if (!isfinite(force[r])) {
          fprintf(stderr, "acs_solve (%s) returned a non-finite force\n", acs_solverName(s.solver));
          acst_failures++;
          break;
        }
      }
      ENSURE(st.niter <= acs_maxiter(&s));
    }

    // the evaluations: NaN / status error for an invalid input, never a crash
    int nscr = (p->nv > 0 && p->nv < 1000 ? p->nv : 0) + nefc;
    mjtNum* scratch = alloc(nscr, sizeof(mjtNum));
    mjtNum res = acs_problemResidual(randInt(8) ? scratch : NULL, force, p, randInt(6) - 1);
    ENSURE(isnan(res) || res >= 0);
    acsStats ev;
    memset(&ev, 0, sizeof(ev));
    acs_evaluateProblem(randInt(8) ? &ev : NULL, scratch, force, p);
    free(scratch);
    free(work);
    free(force);
    free(before);
    freeProblem(&f);
  }
  printf("  %ld solves: %ld refused with a message, %ld solved\n", nsolve, nrefused, nok);
  ENSURE(nrefused > 0 && nok > 0);   // both paths were exercised
}


//---------------------------------- options -------------------------------------------------------

static void randomText(char* buf, int n) {
  static const char* kWords[] = {"pgs", "admm", "nan", "inf", "-inf", "1e400", "-1", "0", "1",
                                 "0.5", "true", "false", "", " ", "1e-300", "2", "100", "1e6",
                                 "1 2", "0x10", "abc", "lagged", "native", "1e7"};
  if (randInt(4)) {
    snprintf(buf, n, "%s", kWords[randInt(sizeof(kWords)/sizeof(kWords[0]))]);
    return;
  }
  int len = randInt(n - 1);
  for (int i=0; i < len; i++) {
    buf[i] = (char)(1 + randInt(255));
  }
  buf[len] = 0;
}


static void testOptions(void) {
  double t0 = now();
  long nset = 0, nbad = 0, nround = 0;
  while (more(1, nround++, t0)) {
    acsSettings s;
    acs_defaultSettings(&s);
    char key[64], value[64], error[acsNERROR];
    int nopt = 1 + randInt(5);
    for (int j=0; j < nopt; j++) {
      if (randInt(4)) {
        char list[4096];
        acs_describeOptions(list, sizeof(list));   // pick a real name from the table
        int nline = 0;
        for (const char* c=list; *c; c++) {
          nline += *c == '\n';
        }
        int line = randInt(nline);
        const char* l = list;
        for (int q=0; q < line && strchr(l, '\n'); q++) {
          l = strchr(l, '\n') + 1;
        }
        sscanf(l, "%63s", key);
      } else {
        randomText(key, sizeof(key));
      }
      randomText(value, sizeof(value));
      error[0] = 0;
      int ret = acs_setOption(randInt(32) ? &s : NULL, key, randInt(32) ? value : NULL,
                              error, sizeof(error));
      nset++;
      nbad += ret != 0;
      ENSURE(ret == 0 || error[0]);
    }
    ENSURE(acs_validateSettings(&s, error, sizeof(error)) == 0);   // acs_setOption keeps them valid

    // random bytes in a field: acs_validateSettings refuses or accepts, with a message
    if (randInt(2)) {
      unsigned char* bytes = (unsigned char*)&s;
      bytes[randInt(sizeof(acsSettings))] = (unsigned char)randInt(256);
    }
    error[0] = 0;
    int valid = acs_validateSettings(&s, error, sizeof(error)) == 0;
    ENSURE(valid || error[0]);
    acsContext* ctx = acs_makeContext(NULL, &s, error, sizeof(error));
    ENSURE(!ctx && error[0]);
  }
  printf("  %ld options set, %ld refused with a message\n", nset, nbad);
}


//---------------------------------- steps ---------------------------------------------------------

// a scene with every row kind: boxes, spheres and capsules on a plane and on each other, a hinge
// with limit, damping and friction loss, a tendon with a limit, a connect equality, a motor
static mjModel* sceneModel(int condim, int cone, int integrator, int flags) {
  static const char* kCone[2] = {"pyramidal", "elliptic"};
  static const char* kIntegrator[4] = {"Euler", "RK4", "implicit", "implicitfast"};
  char xml[4096];
  snprintf(xml, sizeof(xml),
    "<mujoco>"
    "  <option timestep='0.002' cone='%s' integrator='%s'>%s</option>"
    "  <default><geom condim='%d' friction='0.8 0.02 0.001'/></default>"
    "  <worldbody>"
    "    <geom type='plane' size='5 5 .1'/>"
    "    <body name='box' pos='0 0 .1'><freejoint/><geom type='box' size='.1 .1 .1' mass='1'/>"
    "    </body>"
    "    <body name='ball' pos='0 0 .35'><freejoint/><geom type='sphere' size='.08' mass='.2'/>"
    "    </body>"
    "    <body pos='.5 0 .06'><freejoint/>"
    "      <geom type='capsule' size='.05 .1' euler='0 90 0' mass='.5'/></body>"
    "    <body pos='-.5 0 .5'>"
    "      <joint name='h1' type='hinge' axis='0 1 0' range='-30 30' limited='true' damping='.1'"
    "             frictionloss='.05'/>"
    "      <geom type='capsule' fromto='0 0 0 .3 0 0' size='.03' mass='.3'/>"
    "      <site name='s1' pos='.3 0 0'/>"
    "      <body pos='.3 0 0'><joint name='h2' type='hinge' axis='0 1 0'/>"
    "        <geom type='capsule' fromto='0 0 0 .3 0 0' size='.03' mass='.3'/></body>"
    "    </body>"
    "    <site name='s0' pos='-.5 0 .8'/>"
    "  </worldbody>"
    "  <tendon><spatial limited='true' range='0 .6'><site site='s0'/><site site='s1'/></spatial>"
    "  </tendon>"
    "  <equality><connect body1='ball' body2='box' anchor='0 0 -.15'/></equality>"
    "  <actuator><motor joint='h2' gear='1'/></actuator>"
    "</mujoco>",
    kCone[cone], kIntegrator[integrator], flags ? "<flag sleep='enable'/>" : "", condim);
  return acst_loadString(xml);
}


// everything a refused step must leave as it was
typedef struct {
  mjtNum* state;
  mjtNum* qacc;
  mjtNum* qfrc;
  int     warnings[mjNWARNING];
  int     size;
} snapshot;


static void takeSnapshot(snapshot* s, const mjModel* m, const mjData* d) {
  s->size = mj_stateSize(m, mjSTATE_INTEGRATION);
  s->state = malloc(s->size * sizeof(mjtNum));
  s->qacc = malloc((m->nv ? m->nv : 1) * sizeof(mjtNum));
  s->qfrc = malloc((m->nv ? m->nv : 1) * sizeof(mjtNum));
  mj_getState(m, d, s->state, mjSTATE_INTEGRATION);
  mju_copy(s->qacc, d->qacc, m->nv);
  mju_copy(s->qfrc, d->qfrc_constraint, m->nv);
  for (int i=0; i < mjNWARNING; i++) {
    s->warnings[i] = d->warning[i].number;
  }
}


// 1 if d still matches the snapshot bit for bit (verbose: say what differs)
static int sameAsSnapshot(const snapshot* s, const mjModel* m, const mjData* d, int verbose) {
  mjtNum* now = malloc(s->size * sizeof(mjtNum));
  mj_getState(m, d, now, mjSTATE_INTEGRATION);
  int same = 1;
  if (memcmp(now, s->state, s->size * sizeof(mjtNum))) {
    if (verbose) fprintf(stderr, "  the state differs\n");
    same = 0;
  }
  if (memcmp(d->qacc, s->qacc, m->nv * sizeof(mjtNum)) ||
      memcmp(d->qfrc_constraint, s->qfrc, m->nv * sizeof(mjtNum))) {
    if (verbose) fprintf(stderr, "  qacc or qfrc_constraint differs\n");
    same = 0;
  }
  for (int i=0; i < mjNWARNING; i++) {
    if (s->warnings[i] != d->warning[i].number) {
      if (verbose) fprintf(stderr, "  warning %d differs\n", i);
      same = 0;
    }
  }
  free(now);
  return same;
}


static void freeSnapshot(snapshot* s) {
  free(s->state);
  free(s->qacc);
  free(s->qfrc);
}


static void perturb(mjtNum* v, int n) {
  if (n > 0 && randInt(3) == 0) {
    v[randInt(n)] = randInt(2) ? wild() : (uniform() - 0.5) * logUniform(0, 4);
  }
}


static void testSteps(void) {
  static const int kCondim[4] = {1, 3, 4, 6};
  acst_expectWarnings(1);   // NaN states make MuJoCo warn, as mj_step does
  const char* valgrind = getenv("ACS_UNDER_VALGRIND");
  int nintegrator = valgrind && valgrind[0] ? 2 : 4;   // valgrind 3.19 lacks an instruction of
                                                       // MuJoCo's implicit derivatives
  double t0 = now();
  long nstep = 0, nrefused = 0, ndiverged = 0, nmodel = 0;
  while (more(2, nmodel++, t0)) {
    int integrator = randInt(nintegrator), flags = randInt(8) == 0;
    mjModel* m = sceneModel(kCondim[randInt(4)], randInt(2), integrator, flags);
    if (!m) return;
    acsSettings s;
    char error[acsNERROR] = "";
    acs_defaultSettings(&s);
    s.solver = randInt(acsNSOLVER);
    s.maxiter = randInt(201);   // 0: the solver's budget
    s.warmstart = randInt(2);
    s.compliance = randInt(4) ? 0 : logUniform(-6, -1);
    s.restitution = randInt(4) ? 0 : uniform();
    s.metrics = randInt(3);
    acsContext* ctx = acs_makeContext(m, &s, error, sizeof(error));
    if (!ctx) {
      // refused at creation (RK4, sleep): with the reason
      ENSURE(error[0] && (integrator == 1 || flags));
      mj_deleteModel(m);
      continue;
    }
    mjData* d = mj_makeData(m);
    for (int i=0; i < 40; i++) {
      // a random disturbance, sometimes non-finite or huge
      perturb(d->qpos, m->nq);
      perturb(d->qvel, m->nv);
      perturb(d->ctrl, m->nu);
      perturb(d->xfrc_applied, 6*m->nbody);
      int inject = randInt(10) == 0;
      if (inject) {
        ctx->mem.failafter = 1 + randInt(3);   // one of the next buffer growths fails
      }
      snapshot snap;
      takeSnapshot(&snap, m, d);
      int status = acs_step(m, d, ctx);
      nstep++;
      ENSURE(status >= 0 && status < acsNSTATUS);
      if (status == acsSTATUS_ERROR) {
        nrefused++;
        if (!acs_lastError(ctx)[0] || !sameAsSnapshot(&snap, m, d, 1)) {
          fprintf(stderr, "a refused step changed mjData or gave no reason (%s)\n",
                  acs_lastError(ctx));
          acst_failures++;
        }
      } else {
        if (status == acsSTATUS_DIVERGED) {
          ndiverged++;
          ENSURE(acs_lastError(ctx)[0]);
        }
        // MuJoCo resets a bad state: what a step leaves is finite unless it says diverged
        int finite = 1;
        for (int j=0; j < m->nq; j++) finite = finite && isfinite(d->qpos[j]);
        for (int j=0; j < m->nv; j++) finite = finite && isfinite(d->qvel[j]);
        if (!finite && status != acsSTATUS_DIVERGED) {
          fprintf(stderr, "a step left a non-finite state with status %s\n",
                  acs_statusName(status));
          acst_failures++;
        }
        if (!finite) {
          mj_resetData(m, d);
          acs_resetContext(ctx);
        }
      }
      ctx->mem.failafter = 0;
      freeSnapshot(&snap);
      for (int j=0; j < m->nu; j++) {   // keep MuJoCo's own inputs sane for the next step
        if (!isfinite(d->ctrl[j])) d->ctrl[j] = 0;
      }
      for (int j=0; j < 6*m->nbody; j++) {
        if (!isfinite(d->xfrc_applied[j])) d->xfrc_applied[j] = 0;
      }
    }

    // the problem the pipeline built is one acs_checkProblem accepts
    if (ctx->problem.nefc > 0 && ctx->problem.b) {
      ENSURE(acs_checkProblem(&ctx->problem, error, sizeof(error)) == 0 || !error[0] ||
             strstr(error, "finite"));
    }

    // a context used with another model is refused, that model's mjData untouched; the same
    // scene with another condim (a parameter, not structure) is the same model
    mjModel* other = randInt(2) ? sceneModel(kCondim[randInt(4)], randInt(2), 0, 0) :
      acst_loadString("<mujoco><worldbody><geom type='plane' size='1 1 .1'/><body pos='0 0 .2'>"
                      "<freejoint/><geom size='.1'/></body></worldbody></mujoco>");
    if (other) {
      mjData* od = mj_makeData(other);
      perturb(od->qpos, other->nq);
      snapshot snap;
      takeSnapshot(&snap, other, od);
      int status = acs_step(other, od, ctx);
      ENSURE((status == acsSTATUS_ERROR) == (other->nbody != m->nbody));
      ENSURE(status != acsSTATUS_ERROR || (acs_lastError(ctx)[0] &&
                                           sameAsSnapshot(&snap, other, od, 1)));
      freeSnapshot(&snap);
      mj_deleteData(od);
      mj_deleteModel(other);
    }
    acs_deleteContext(ctx);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
  printf("  %ld steps: %ld refused (state unchanged, with a message), %ld diverged\n", nstep,
         nrefused, ndiverged);
  ENSURE(nrefused > 0 && ndiverged > 0);   // both paths were exercised
}


int main(int argc, char** argv) {
  int nargs = 1;
  char* args[4] = {argv[0], NULL, NULL, NULL};
  for (int i=1; i < argc; i++) {
    if (!strcmp(argv[i], "--seconds") && i+1 < argc) {
      budget = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--quick")) {
      for (int k=0; k < 3; k++) {
        rounds[k] /= 10;
      }
    } else if (!strcmp(argv[i], "--seed") && i+1 < argc) {
      seed = strtoull(argv[++i], NULL, 10);
    } else if (nargs < 2) {
      args[nargs++] = argv[i];
    }
  }
  rng = seed * 2654435761u + 88172645463325252ull;
  if (budget > 0) {
    printf("test_fuzz: seed %llu, %g s per part\n", (unsigned long long)seed, budget);
  } else {
    printf("test_fuzz: seed %llu, %d / %d / %d rounds\n", (unsigned long long)seed, rounds[0],
           rounds[1], rounds[2]);
  }
  static const acstTest tests[] = {
    TEST(testProblems),
    TEST(testOptions),
    TEST(testSteps),
  };
  return acst_main(nargs, args, tests, sizeof(tests)/sizeof(tests[0]));
}
