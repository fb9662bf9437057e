// Copyright 2026 The acs authors.
//
// Results depend only on the inputs: a solver's trajectory is bit-identical whatever ran before
// it in the process and whatever runs beside it. For every model of test_models/ and of the
// shared models, and every solver (native included):
//   alone:        the reference, computed in a fresh process (this program re-run with --alone);
//   sequence:     the solvers one after the other in one process, in order and in reverse, each
//                 with a new context and mjData (the heap recycles the previous ones' memory);
//   interleaved:  every solver's context alive at once, made in a shuffled order, stepped round
//                 robin, deleted in another order.
// ACS_ORDER_MODELS=a,b,... restricts the test to those models (the Valgrind run).
// A trajectory is hashed over time, qpos, qvel and act after every step (and the status of a
// refused step). Run under MALLOC_PERTURB_ (CTest sets it), recycled memory holds garbage, so a
// read of uninitialized memory changes a trajectory instead of passing by luck.

#define _POSIX_C_SOURCE 200809L

#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "test_util.h"

extern char** environ;

static const char* self_path = NULL;

#define MAXMODEL 64
#define REFUSED 1ull   // hash of a solver the model is refused for

// steps per run: fewer on the big scenes (the defects this guards against show in a few steps)
static int stepCount(const mjModel* m) {
  return m->nv > 500 ? 6 : m->nv > 100 ? 20 : 40;
}


static uint64_t hashBytes(uint64_t h, const void* data, size_t n) {
  const unsigned char* b = data;
  for (size_t i=0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}


// one run's state: context, data, running hash
typedef struct {
  acsContext* ctx;
  mjData* d;
  uint64_t hash;
} run;


// context for solver s with the model's configuration; NULL if acs refuses the model
static acsContext* makeContext(const mjModel* m, int s) {
  acsSettings set;
  char error[acsNERROR] = "";
  acs_defaultSettings(&set);
  acs_modelSettings(&set, m, error, sizeof(error));
  set.solver = s;
  acsContext* ctx = acs_makeContext(m, &set, error, sizeof(error));
  if (!ctx && !error[0]) {
    fprintf(stderr, "acs_makeContext refused without a message\n");
    acst_failures++;
  }
  return ctx;
}


static void runStart(run* r, const mjModel* m, int s) {
  r->ctx = makeContext(m, s);
  r->d = r->ctx ? acst_makeData(m) : NULL;
  r->hash = r->ctx ? 0xcbf29ce484222325ull : REFUSED;
}


static void runStep(run* r, const mjModel* m) {
  if (!r->ctx) {
    return;
  }
  int status = acs_step(m, r->d, r->ctx);
  mjData* d = r->d;
  r->hash = hashBytes(r->hash, &d->time, sizeof(mjtNum));
  r->hash = hashBytes(r->hash, d->qpos, m->nq * sizeof(mjtNum));
  r->hash = hashBytes(r->hash, d->qvel, m->nv * sizeof(mjtNum));
  r->hash = hashBytes(r->hash, d->act, m->na * sizeof(mjtNum));
  if (status == acsSTATUS_ERROR) {
    r->hash = hashBytes(r->hash, &status, sizeof(int));
  }
}


static void runEnd(run* r) {
  acs_deleteContext(r->ctx);
  if (r->d) {
    mj_deleteData(r->d);
  }
  r->ctx = NULL;
  r->d = NULL;
}


// trajectory hash of solver s alone in this process
static uint64_t alone(const mjModel* m, int s) {
  run r;
  runStart(&r, m, s);
  for (int i=0; i < stepCount(m); i++) {
    runStep(&r, m);
  }
  runEnd(&r);
  return r.hash;
}


// the reference: solver s alone in a fresh process (this program with --alone)
static uint64_t aloneInFreshProcess(const char* path, int s) {
  int fd[2];
  if (pipe(fd)) {
    acst_failures++;
    return 0;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  char solver[16];
  snprintf(solver, sizeof(solver), "%d", s);
  char* argv[] = {(char*)self_path, "--alone", (char*)path, solver, NULL};
  pid_t pid;
  int err = posix_spawn(&pid, self_path, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  char buf[64] = "";
  ssize_t n = err ? 0 : read(fd[0], buf, sizeof(buf) - 1);
  close(fd[0]);
  int wstatus = 0;
  if (!err) {
    waitpid(pid, &wstatus, 0);
  }
  if (err || n <= 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus)) {
    fprintf(stderr, "%s: the --alone run of solver %d failed\n", path, s);
    acst_failures++;
    return 0;
  }
  buf[n] = 0;
  return strtoull(buf, NULL, 16);
}


static void report(const char* path, const char* mode, int s, uint64_t got, uint64_t want) {
  if (got != want) {
    fprintf(stderr, "%s: solver %s %s: trajectory differs from the solver run alone\n", path,
            acs_solverName(s), mode);
    acst_failures++;
  }
}


static void testOrder(void) {
  static char paths[MAXMODEL][1024];
  int nmodel = acst_listModels(paths, MAXMODEL);
  ENSURE(nmodel >= 15);   // the test models and the shared models
  acst_expectWarnings(1);  // a solver may make MuJoCo warn on some scene: not this test's subject

  const char* only = getenv("ACS_ORDER_MODELS");   // comma-separated names: a subset (Valgrind)
  for (int mi=0; mi < nmodel; mi++) {
    if (only && only[0]) {
      const char* name = strrchr(paths[mi], '/') ? strrchr(paths[mi], '/') + 1 : paths[mi];
      char list[1024];
      snprintf(list, sizeof(list), ",%s,", only);
      char key[1100];
      snprintf(key, sizeof(key), ",%.*s,", (int)(strlen(name) - 4), name);
      if (!strstr(list, key)) {
        continue;
      }
    }
    mjModel* m = acst_loadPath(paths[mi]);
    if (!m) continue;
    int nstep = stepCount(m);
    uint64_t ref[acsNSOLVER];
    for (int s=0; s < acsNSOLVER; s++) {
      ref[s] = aloneInFreshProcess(paths[mi], s);
    }

    // sequence, in order then in reverse
    for (int s=0; s < acsNSOLVER; s++) {
      report(paths[mi], "in sequence", s, alone(m, s), ref[s]);
    }
    for (int s=acsNSOLVER-1; s >= 0; s--) {
      report(paths[mi], "in reverse sequence", s, alone(m, s), ref[s]);
    }

    // interleaved: made in a shuffled order, stepped round robin, deleted in another order
    run runs[acsNSOLVER];
    for (int j=0; j < acsNSOLVER; j++) {
      int s = (5*j + mi) % acsNSOLVER;   // 5 is prime to acsNSOLVER: a permutation
      runStart(runs + s, m, s);
    }
    for (int i=0; i < nstep; i++) {
      for (int s=0; s < acsNSOLVER; s++) {
        runStep(runs + s, m);
      }
    }
    for (int j=0; j < acsNSOLVER; j++) {
      int s = (7*j + 3) % acsNSOLVER;
      report(paths[mi], "interleaved", s, runs[s].hash, ref[s]);
      runEnd(runs + s);
    }
    mj_deleteModel(m);
  }
}


int main(int argc, char** argv) {
  _Static_assert(acsNSOLVER % 5 != 0 && acsNSOLVER % 7 != 0, "permutations above");
  self_path = argv[0];
  if (argc == 4 && !strcmp(argv[1], "--alone")) {
    char error[1024] = "";
    mjModel* m = mj_loadXML(argv[2], NULL, error, sizeof(error));
    if (!m) {
      fprintf(stderr, "%s\n", error);
      return 1;
    }
    printf("%llx\n", (unsigned long long)alone(m, atoi(argv[3])));
    mj_deleteModel(m);
    return 0;
  }
  static const acstTest tests[] = {
    TEST(testOrder),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
