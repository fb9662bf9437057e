// Copyright 2026 The acs authors.
//
// What acs-bench's modes share (runs.c): the command line, the solvers of --solvers, a run's
// settings, the order of the runs in a round.

#ifndef ACS_BENCH_RUNS_H_
#define ACS_BENCH_RUNS_H_

#include <mujoco/mujoco.h>
#include <acs/acs.h>

#define MAXSOLVER 16
#define MAXSET 64
#define MAXTHREADCOUNT 16

typedef struct {
  const char* model;
  const char* solvers;
  int steps, warmup, quiet;
  int chunk;                      // steps per run and round
  int repeat;                     // repeats of the whole measurement
  const char* sets[MAXSET];
  int nset;
  const char* json;
  const char* csv;
  int integrator;                 // -1: the model's
  int threads[MAXTHREADCOUNT];    // --threads: thread counts to measure (0 of them: no threads)
  int nthreads;
  double perturb;                 // --perturb: each repeat's initial speeds raised by up to this
} benchArgs;

// the names of --solvers (at most MAXSOLVER), split in place in list (of list_sz bytes); returns
// their number
int benchSolverList(const char** names, char* list, int list_sz, const char* solvers);

// the order of n runs in round k: a Williams design (every run at each place and right after
// every other run equally often over the rounds), so drift and cold caches hit every run alike
void benchRoundOrder(int* order, int n, int k);

// the solver of a run's name: acsSOL_NATIVE for mujoco (plain mj_step), -1 with a message if
// the name is unknown
int benchSolver(const char* name, char* error, int error_sz);

// settings of an acs run: defaults, the model's configuration, --set, then the solver
int benchSettings(acsSettings* s, const mjModel* m, const benchArgs* args, int solver,
                  char* error, int error_sz);

#endif  // ACS_BENCH_RUNS_H_
