// Copyright 2026 The acs authors.
//
// What acs-bench's modes share (runs.h): the solvers of --solvers, a run's settings, the order of
// the runs in a round.

#include "runs.h"

#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

// the names of --solvers, split in place in list (runs.h)
int benchSolverList(const char** names, char* list, int list_sz, const char* solvers) {
  int n = 0;
  snprintf(list, list_sz, "%s", solvers);
  for (char* tok = strtok(list, ","); tok && n < MAXSOLVER; tok = strtok(NULL, ",")) {
    names[n++] = tok;
  }
  return n;
}


// the solver of a run's name (runs.h)
int benchSolver(const char* name, char* error, int error_sz) {
  int solver = !strcmp(name, "mujoco") ? acsSOL_NATIVE : acs_solverId(name);
  if (solver < 0) {
    char list[256] = "mujoco";
    for (int i=0; i < acsNSOLVER; i++) {
      strcat(list, ", ");
      strcat(list, acs_solverName(i));
    }
    snprintf(error, error_sz, "unknown solver '%s'; allowed: %s", name, list);
  }
  return solver;
}


// settings of an acs run (runs.h)
int benchSettings(acsSettings* s, const mjModel* m, const benchArgs* args, int solver,
                  char* error, int error_sz) {
  acs_defaultSettings(s);
  if (acs_modelSettings(s, m, error, error_sz)) {
    return -1;
  }
  for (int i=0; i < args->nset; i++) {
    char key[128];
    const char* eq = strchr(args->sets[i], '=');
    snprintf(key, sizeof(key), "%.*s", (int)(eq - args->sets[i]), args->sets[i]);
    if (acs_setOption(s, key, eq + 1, error, error_sz)) {
      return -1;
    }
  }
  s->solver = solver;
  return acs_validateSettings(s, error, error_sz);
}


// the order of the runs in round k (runs.h): a Williams design (a Latin square whose rows put
// every run right after every other run equally often; its mirror image too when n is odd), so
// that over the rounds each run goes at each place and after each other run alike: the drift of
// the machine and the caches a run finds (cold after a long run) cost every run the same
void benchRoundOrder(int* order, int n, int k) {
  int nrow = n % 2 ? 2*n : n;
  int row = k % nrow, shift = row % n;
  for (int j=0; j < n; j++) {
    // first row 0, 1, n-1, 2, n-2, ...
    int base = j == 0 ? 0 : (j % 2 ? (j + 1) / 2 : n - j / 2);
    order[row < n ? j : n - 1 - j] = (base + shift) % n;
  }
}
