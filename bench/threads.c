// Copyright 2026 The acs authors.
//
// acs-bench --threads LIST: independent simulations on separate threads. At each thread count T,
// T threads start together; each holds one simulation per run of --solvers (its own mjData and
// acsContext, made on that thread; plain mj_step for mujoco), all of the same model from the same
// state, and steps them as acs-bench steps its runs in one process: --warmup steps each (not
// timed), then rounds of --chunk steps per run in an order balanced over the rounds, until each
// run has taken --steps timed steps. Every thread does the same work, and within a thread the
// runs share the machine's state (its clocks, the other threads' load) alike.
//
// For a run at T threads: steps/s is the sum over threads of steps over that thread's time in
// the run; scaling is that over the first count's steps/s (T on an ideal machine when the first
// count is 1); x_mujoco is the ratio of the run's mean step time to the mujoco run's within the
// same threads and rounds (the median over --repeat); vs_mujoco is x_mujoco at the first count
// over x_mujoco at T: the run's scaling over plain mj_step's on the same machine, 1 when acs
// scales as MuJoCo does, below 1 when it scales worse (shared writes, false sharing, memory
// traffic of its own). steps/s keeps the best repeat (these machines drift by up to 2x within
// seconds); a scaling measured from one-thread figures carries that drift, vs_mujoco does not.

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

#include "runs.h"
#include "threads.h"

#define MAXTHREAD 256

// what one thread is given and gives back
typedef struct {
  const mjModel* m;
  const benchArgs* args;
  int nrun;
  const acsSettings* settings;    // per run
  const int* plain;               // per run: plain mj_step
  pthread_barrier_t* ready;       // every thread warmed up
  double time[MAXSOLVER];         // per run: wall time of its timed steps (microseconds)
  double constraint[MAXSOLVER];   // per run: constraint stage over its timed steps
  int converged[MAXSOLVER];       // per run: timed steps converged or without constraint
  int failed[MAXSOLVER];          // per run: no context, a refused or diverged step
  char error[MAXSOLVER][acsNERROR];
  mjtNum* qpos;                   // per run: the final qpos (nrun x nq)
} threadJob;

// a run's figures at one thread count
typedef struct {
  double rate;                    // steps per second, all threads together (best repeat)
  double step_us;                 // mean step time of one thread (that repeat)
  double constraint_us;           // the constraint stage's mean per step (that repeat)
  double converged;               // share of the timed steps converged (acs runs)
  double ratio[64];               // x mujoco, per repeat
} threadResult;


static double nowMicro(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6*(double)t.tv_sec + 1e-3*(double)t.tv_nsec;
}


static int compareDouble(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}


// count steps of run j of a thread; timed steps are accumulated in the job
static void threadSteps(threadJob* job, int j, const mjModel* m, mjData* d, acsContext* ctx,
                        int count, int timed) {
  double t0 = nowMicro(), constraint = 0;
  for (int i=0; i < count && !job->failed[j]; i++) {
    if (ctx) {
      int status = acs_step(m, d, ctx);
      job->failed[j] = status >= acsSTATUS_DIVERGED;
      job->converged[j] += timed && (status == acsSTATUS_CONVERGED || status == acsSTATUS_EMPTY);
      constraint += acs_getStats(ctx)->time_constraint;
    } else {
      mjtNum before = d->timer[mjTIMER_CONSTRAINT].duration;
      mj_step(m, d);
      constraint += d->timer[mjTIMER_CONSTRAINT].duration - before;
    }
  }
  if (timed) {
    job->time[j] += nowMicro() - t0;
    job->constraint[j] += constraint;
  }
  if (job->failed[j] && ctx && !job->error[j][0]) {
    snprintf(job->error[j], acsNERROR, "%s", acs_lastError(ctx));
  }
}


// one thread: a simulation per run, warmed up, then the timed rounds
static void* threadRun(void* arg) {
  threadJob* job = arg;
  const mjModel* m = job->m;
  const benchArgs* args = job->args;
  int n = job->nrun;
  acsContext* ctx[MAXSOLVER] = {NULL};
  mjData* d[MAXSOLVER];
  for (int j=0; j < n; j++) {
    if (!job->plain[j]) {
      ctx[j] = acs_makeContext(m, job->settings + j, job->error[j], acsNERROR);
      job->failed[j] = !ctx[j];
    }
    d[j] = mj_makeData(m);
    if (m->nkey > 0) {
      mj_resetDataKeyframe(m, d[j], 0);
    }
    threadSteps(job, j, m, d[j], ctx[j], args->warmup, 0);
  }
  pthread_barrier_wait(job->ready);   // every thread reaches it, failed runs or not

  for (int start=0, round=0; start < args->steps; start += args->chunk, round++) {
    int count = start + args->chunk < args->steps ? args->chunk : args->steps - start;
    int order[MAXSOLVER];
    benchRoundOrder(order, n, round);
    for (int k=0; k < n; k++) {
      threadSteps(job, order[k], m, d[order[k]], ctx[order[k]], count, 1);
    }
  }
  for (int j=0; j < n; j++) {
    mju_copy(job->qpos + j*m->nq, d[j]->qpos, m->nq);
    acs_deleteContext(ctx[j]);
    mj_deleteData(d[j]);
  }
  return NULL;
}


// one repeat at nthread threads: the figures of every run (rate 0 where a run failed, with its
// first error in errors). qpos: every run's final qpos, from the first measurement (NaN before):
// each simulation of a run, on every thread and at every count, must end there bit for bit, as
// they take the same steps from the same state; one that does not is a failure (state shared
// between contexts or threads)
static void measure(threadResult* res, int rep, const mjModel* m, const benchArgs* args,
                    int nrun, const acsSettings* settings, const int* plain, int nthread,
                    int* failed, char (*errors)[acsNERROR], mjtNum* qpos) {
  threadJob* jobs = calloc(nthread, sizeof(threadJob));
  mjtNum* final = malloc(sizeof(mjtNum) * nthread * nrun * m->nq);
  pthread_t tid[MAXTHREAD];
  pthread_barrier_t ready;
  if (!jobs || !final) {
    fprintf(stderr, "acs-bench: out of memory\n");
    exit(1);
  }
  pthread_barrier_init(&ready, NULL, nthread);
  for (int t=0; t < nthread; t++) {
    jobs[t] = (threadJob){.m = m, .args = args, .nrun = nrun, .settings = settings,
                          .plain = plain, .ready = &ready, .qpos = final + t*nrun*m->nq};
    if (pthread_create(tid + t, NULL, threadRun, jobs + t)) {
      // the barrier can never open: the process cannot go on
      fprintf(stderr, "acs-bench: cannot start thread %d of %d\n", t + 1, nthread);
      exit(1);
    }
  }
  for (int t=0; t < nthread; t++) {
    pthread_join(tid[t], NULL);
  }
  pthread_barrier_destroy(&ready);

  double steps = args->steps;
  for (int j=0; j < nrun; j++) {
    double rate = 0, time = 0, constraint = 0, converged = 0;
    for (int t=0; t < nthread; t++) {
      if (jobs[t].failed[j] && !failed[j]) {
        snprintf(errors[j], acsNERROR, "thread %d: %s", t, jobs[t].error[j]);
      }
      failed[j] |= jobs[t].failed[j];
      rate += steps / (1e-6*jobs[t].time[j]);
      time += jobs[t].time[j];
      constraint += jobs[t].constraint[j];
      converged += jobs[t].converged[j];
    }
    for (int t=0; t < nthread && !failed[j]; t++) {
      const mjtNum* q = jobs[t].qpos + j*m->nq;
      if (mju_isBad(qpos[j*m->nq])) {
        mju_copy(qpos + j*m->nq, q, m->nq);
      } else if (memcmp(q, qpos + j*m->nq, sizeof(mjtNum) * m->nq)) {
        snprintf(errors[j], acsNERROR, "the simulation on thread %d of %d ended in another state "
                 "than the first (shared state between simulations?)", t, nthread);
        failed[j] = 1;
      }
    }
    if (failed[j]) {
      continue;
    }
    if (rate > res[j].rate) {
      res[j].rate = rate;
      res[j].step_us = time / (nthread*steps);
      res[j].constraint_us = constraint / (nthread*steps);
      res[j].converged = converged / (nthread*steps);
    }
    res[j].ratio[rep] = time;   // made a ratio below, once the mujoco run's time is known
  }
  int ref = -1;
  for (int j=0; j < nrun; j++) {
    ref = plain[j] && !failed[j] ? j : ref;
  }
  for (int j=0; j < nrun; j++) {
    if (ref >= 0 && j != ref) {
      res[j].ratio[rep] /= res[ref].ratio[rep];
    }
  }
  if (ref >= 0) {
    res[ref].ratio[rep] = 1;
  }
  free(final);
  free(jobs);
}


// the --threads mode: every solver at every thread count, --repeat times; a table (and --csv)
int benchThreads(const mjModel* m, const benchArgs* args) {
  char list[1024];
  const char* names[MAXSOLVER];
  int nrun = benchSolverList(names, list, sizeof(list), args->solvers);
  if (args->repeat > 64) {
    fprintf(stderr, "acs-bench: --threads takes at most 64 repeats\n");
    return 2;
  }

  // every run's settings, checked before any thread starts
  acsSettings settings[MAXSOLVER];
  int plain[MAXSOLVER], ref = -1;
  for (int j=0; j < nrun; j++) {
    char error[acsNERROR];
    int solver = benchSolver(names[j], error, sizeof(error));
    plain[j] = !strcmp(names[j], "mujoco");
    ref = plain[j] ? j : ref;
    if (solver < 0 || benchSettings(settings + j, m, args, solver, error, sizeof(error))) {
      fprintf(stderr, "acs-bench: %s: %s\n", names[j], error);
      return 2;
    }
  }

  int nt = args->nthreads;
  static threadResult res[MAXTHREADCOUNT][MAXSOLVER];
  memset(res, 0, sizeof(res));
  int failed[MAXSOLVER] = {0};
  char errors[MAXSOLVER][acsNERROR];
  mjtNum* qpos = malloc(sizeof(mjtNum) * nrun * m->nq);
  if (!qpos) {
    fprintf(stderr, "acs-bench: out of memory\n");
    return 1;
  }
  for (int i=0; i < nrun * m->nq; i++) {
    qpos[i] = NAN;
  }
  for (int rep=0; rep < args->repeat; rep++) {
    for (int k=0; k < nt; k++) {
      measure(res[k], rep, m, args, nrun, settings, plain, args->threads[k], failed, errors,
              qpos);
    }
  }
  free(qpos);

  // x mujoco: the median over repeats
  double ratio[MAXTHREADCOUNT][MAXSOLVER];
  for (int k=0; k < nt; k++) {
    for (int j=0; j < nrun; j++) {
      double* v = res[k][j].ratio;
      int n = args->repeat;
      qsort(v, n, sizeof(double), compareDouble);
      ratio[k][j] = ref < 0 || failed[ref] ? NAN : (n % 2 ? v[n/2] : 0.5*(v[n/2-1] + v[n/2]));
    }
  }

  FILE* csv = NULL;
  if (args->csv && !(csv = fopen(args->csv, "w"))) {
    fprintf(stderr, "acs-bench: cannot write %s\n", args->csv);
  }
  if (csv) {
    fprintf(csv, "solver,threads,steps_per_s,step_us,constraint_us,scaling,x_mujoco,vs_mujoco,"
            "converged\n");
  }
  // the table (--quiet: errors only)
  FILE* out = args->quiet ? NULL : stdout;
  if (out) {
    fprintf(out, "%s, MuJoCo %s, %ld CPUs online: %d steps after %d per simulation and thread, "
            "rounds of %d, %d repeats\n", args->model, mj_versionString(),
            sysconf(_SC_NPROCESSORS_ONLN), args->steps, args->warmup, args->chunk, args->repeat);
    fprintf(out, "%-9s %7s %12s %9s %13s %8s %9s %10s %6s\n", "solver", "threads", "steps/s",
            "step_us", "constraint_us", "scaling", "x mujoco", "vs_mujoco", "conv%");
  }
  for (int j=0; j < nrun; j++) {
    if (failed[j]) {
      fprintf(out ? out : stderr, "%-9s error: %s\n", names[j], errors[j]);
      continue;
    }
    for (int k=0; k < nt; k++) {
      const threadResult* r = &res[k][j];
      double scaling = r->rate / res[0][j].rate;
      double vs = ratio[0][j] / ratio[k][j];
      char conv[16] = "-";
      if (!plain[j]) {
        snprintf(conv, sizeof(conv), "%.0f", 100*r->converged);
      }
      if (out) {
        fprintf(out, "%-9s %7d %12.0f %9.2f %13.2f %8.2f %9.2f %10.2f %6s\n", names[j],
                args->threads[k], r->rate, r->step_us, r->constraint_us, scaling, ratio[k][j],
                vs, conv);
      }
      if (csv) {
        fprintf(csv, "%s,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s\n", names[j], args->threads[k],
                r->rate, r->step_us, r->constraint_us, scaling, ratio[k][j], vs,
                plain[j] ? "" : conv);
      }
    }
  }
  int ioerr = csv && fclose(csv);
  for (int j=0; j < nrun; j++) {
    if (failed[j]) {
      return 1;
    }
  }
  return ioerr ? 1 : 0;
}
