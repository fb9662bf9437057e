// Copyright 2026 The acs authors.
//
// acs-bench: speed and physical correctness of contact solvers, measured the same way for every
// solver. "mujoco" is plain mj_step (no acs code in the step; the metrics are evaluated after it
// with acs_evaluate, outside the timing); "native" is acs's pipeline with MuJoCo's solver; every
// other name is an acs solver. All runs start from the same state (keyframe 0 if the model has
// one) in one process.
//
//   acs-bench MODEL.xml [--solvers mujoco,native,pgs] [--steps N] [--warmup K]
//             [--integrator NAME] [--set key=value]... [--json FILE] [--csv FILE] [--quiet]
//   acs-bench --suite [--solvers LIST] [--quick] [--out DIR] [--scenes LIST]
//
// --suite runs the evidence suite (bench/suite.py, with the Python of the project's virtual
// environment, or $ACS_PYTHON): every scene of the suite with every solver, measured with this
// bench and the acs Python package, written as JSON, CSV, a Markdown report and plots.
//
// Times are wall-clock microseconds per step; the metrics evaluation is excluded from step_us.

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

#include "runs.h"
#include "threads.h"

typedef struct {
  double mean, max;
} meanMax;

typedef struct {
  char   solver[64];
  int    ok;
  char   error[acsNERROR];
  int    nstep;                   // recorded steps
  int    npooled;                 // recorded steps over the repeats (nstatus counts them)
  double *step_us, *solve_us;     // per recorded step
  double step_med, step_mean, step_p90, solve_med, solve_mean, solve_p90;
  meanMax iterations, contacts, residual, signorini, coulomb, mdp, slip;
  meanMax metrics_us;             // the step's metrics (acsStats.time_metrics), not in step_us
  int    metrics;                 // the metrics level (acstMetrics; 0: none)
  double penetration_max;
  double energy_initial, energy_final;   // the first repeat's
  mjtNum *qpos_initial, *qpos_final;      // the first repeat's
  int    nonfinite;               // a state became non-finite or MuJoCo reset it (any step)
  int    ndiverged;               // steps with status diverged (any step, warm-up included),
                                  //   over the repeats
  int    nstatus[acsNSTATUS];     // recorded steps per status, over the repeats
  long   peak_rss_kb;
  double ratio;                   // x mujoco: mean step time over the mujoco run's, the same
                                  //   rounds; NaN without a mujoco run
  double ratio_lo, ratio_hi;      // its spread over repeats (min, max; equal with one repeat)
  double mean_lo, mean_hi;        // the spread of the mean step time over repeats

  // the run in progress
  int           plain;            // plain mj_step (the mujoco run)
  acsSettings   settings;
  acsContext*   ctx;              // the solver's (acs runs) or an evaluator (mujoco run)
  mjData*       d;
  int           done;             // steps taken, warm-up included
} runResult;



//---------------------------------- utilities -----------------------------------------------------

static double nowMicro(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6*(double)t.tv_sec + 1e-3*(double)t.tv_nsec;
}


// MuJoCo's timers (mjTIMER_CONSTRAINT of the mujoco runs) in microseconds
static mjtNum timerMicro(void) {
  return nowMicro();
}


static int compareDouble(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}


// median, mean and 90th percentile of n values (sorts a copy)
static void summarize(double* med, double* mean, double* p90, const double* v, int n) {
  if (n == 0) {
    *med = *mean = *p90 = NAN;
    return;
  }
  double* s = malloc(n * sizeof(double));
  memcpy(s, v, n * sizeof(double));
  qsort(s, n, sizeof(double), compareDouble);
  double sum = 0;
  for (int i=0; i < n; i++) {
    sum += s[i];
  }
  *mean = sum / n;
  *med = (n % 2) ? s[n/2] : 0.5*(s[n/2-1] + s[n/2]);
  *p90 = s[(int)floor(0.9*(n-1) + 0.5)];
  free(s);
}


static void accumulate(meanMax* acc, double v, int n) {
  acc->mean += (v - acc->mean) / n;   // running mean over n samples
  if (n == 1 || v > acc->max) {
    acc->max = v;
  }
}


// energy of the state of d (potential + kinetic), computed on a copy
static double stateEnergy(const mjModel* m, const mjData* d) {
  mjData* tmp = mj_copyData(NULL, m, d);
  mj_fwdPosition(m, tmp);
  mj_fwdVelocity(m, tmp);
  mj_energyPos(m, tmp);
  mj_energyVel(m, tmp);
  double e = tmp->energy[0] + tmp->energy[1];
  mj_deleteData(tmp);
  return e;
}


// reset the peak resident set size of the process (Linux); return 0 on success
static void resetPeakRss(void) {
  FILE* f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
}


static long peakRssKb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof(line), f)) {
    if (!strncmp(line, "VmHWM:", 6)) {
      kb = atol(line + 6);
    }
  }
  fclose(f);
  return kb;
}


// MuJoCo's bad-state warnings so far
static int badWarnings(const mjData* d) {
  return d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number +
         d->warning[mjWARN_BADQACC].number;
}


static int stateFinite(const mjModel* m, const mjData* d) {
  for (int i=0; i < m->nq; i++) {
    if (!isfinite(d->qpos[i])) return 0;
  }
  for (int i=0; i < m->nv; i++) {
    if (!isfinite(d->qvel[i])) return 0;
  }
  return 1;
}


// the status of a run: "error" (refused), "diverged" (a step diverged or a state was not finite
// or reset by MuJoCo), else "ok"
static const char* runStatus(const runResult* r) {
  return !r->ok ? "error" : (r->ndiverged || r->nonfinite) ? "diverged" : "ok";
}


//---------------------------------- one run -------------------------------------------------------

// every dof's speed raised by a uniform draw in [-amp, amp], the draw seeded by seed (a linear
// congruential generator: the same draws on every machine)
static void perturbSpeeds(const mjModel* m, mjData* d, mjtNum amp, unsigned seed) {
  unsigned long long x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (int i=0; i < m->nv; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    d->qvel[i] += amp * (2 * ((x >> 11) / 9007199254740992.0) - 1);
  }
}


// start run r of repeat rep: its settings, context and data (r->ok 0 with a message if it cannot
// run); its initial state keyframe 0 if the model has one, every dof's speed perturbed by the
// repeat's draw with --perturb
static void runStart(runResult* r, const mjModel* m, const benchArgs* args, const char* name,
                     int rep) {
  memset(r, 0, sizeof(runResult));
  snprintf(r->solver, sizeof(r->solver), "%s", name);
  r->step_us = calloc(args->steps, sizeof(double));
  r->solve_us = calloc(args->steps, sizeof(double));
  r->qpos_initial = calloc(m->nq, sizeof(mjtNum));
  r->qpos_final = calloc(m->nq, sizeof(mjtNum));
  r->ok = 1;

  int plain = !strcmp(name, "mujoco");
  int solver = benchSolver(name, r->error, sizeof(r->error));
  if (solver < 0) {
    r->ok = 0;
    return;
  }

  // context: the solver's (acs runs) or an evaluator (mujoco run)
  acsSettings s;
  acsContext* ctx = NULL;
  r->plain = plain;
  if (benchSettings(&s, m, args, solver, r->error, sizeof(r->error)) == 0) {
    ctx = acs_makeContext(m, &s, r->error, sizeof(r->error));
  }
  r->settings = s;
  r->ctx = ctx;
  if (!ctx && !plain) {
    r->ok = 0;
    return;
  }
  r->metrics = ctx && s.metrics;
  if (plain) {
    r->error[0] = 0;   // the plain run works without acs; only its metrics need the context
  }

  mjData* d = mj_makeData(m);
  if (m->nkey > 0) {
    mj_resetDataKeyframe(m, d, 0);
  }
  if (args->perturb > 0) {
    perturbSpeeds(m, d, args->perturb, rep);
  }
  mju_copy(r->qpos_initial, d->qpos, m->nq);
  r->energy_initial = stateEnergy(m, d);
  r->d = d;
}


// the next n steps of a run (warm-up steps first, not recorded)
static void runSteps(runResult* r, const mjModel* m, const benchArgs* args, int count) {
  mjData* d = r->d;
  acsContext* ctx = r->ctx;
  const acsSettings s = r->settings;
  int plain = r->plain;
  int end = r->done + count;
  for (int i=r->done; r->ok && i < end; i++) {
    r->done = i + 1;

    int rec = i - args->warmup;
    double solve = 0;
    int status = acsSTATUS_NATIVE;
    int nwarn = badWarnings(d);
    double t0 = nowMicro();
    if (plain) {
      mjtNum tc = d->timer[mjTIMER_CONSTRAINT].duration;
      mj_step(m, d);
      double t1 = nowMicro();
      solve = d->timer[mjTIMER_CONSTRAINT].duration - tc;
      if (rec >= 0) {
        r->step_us[rec] = t1 - t0;
      }
      if (ctx && s.metrics) {
        acs_evaluate(m, d, ctx);   // the full metrics, whatever the level
      }
    } else {
      status = acs_step(m, d, ctx);
      double t1 = nowMicro();
      if (status == acsSTATUS_ERROR) {
        snprintf(r->error, sizeof(r->error), "step %d: %s", i, acs_lastError(ctx));
        r->ok = 0;
        break;
      }
      const acsStats* st = acs_getStats(ctx);
      solve = st->time_constraint;
      if (rec >= 0) {
        r->step_us[rec] = (t1 - t0) - st->time_metrics;
      }
    }
    if (badWarnings(d) != nwarn || !stateFinite(m, d)) {
      r->nonfinite = 1;
      status = acsSTATUS_DIVERGED;   // as acs_step reports it; plain mj_step reports nothing
    }
    if (status == acsSTATUS_DIVERGED && !r->ndiverged++) {
      snprintf(r->error, sizeof(r->error), "step %d: %s", i,
               plain ? "the state became non-finite or MuJoCo reset it" : acs_lastError(ctx));
    }
    if (rec < 0) {
      continue;
    }
    r->nstatus[status]++;
    r->npooled++;

    // record
    int n = rec + 1;
    r->solve_us[rec] = solve;
    r->nstep = n;
    int niter = 0, ncon = 0;
    for (int k=0; k < mjNISLAND; k++) {
      niter += d->solver_niter[k];
    }
    for (int k=0; k < d->ncon; k++) {
      ncon += d->contact[k].efc_address >= 0;
    }
    accumulate(&r->iterations, niter, n);
    accumulate(&r->contacts, ncon, n);
    accumulate(&r->metrics_us, ctx ? acs_getStats(ctx)->time_metrics : 0, n);
    if (r->metrics) {
      const acsStats* st = acs_getStats(ctx);
      accumulate(&r->residual, st->residual, n);
      accumulate(&r->signorini, st->signorini, n);
      accumulate(&r->coulomb, st->coulomb, n);
      accumulate(&r->mdp, st->mdp, n);
      accumulate(&r->slip, st->slip, n);
      if (n == 1 || st->penetration > r->penetration_max) {
        r->penetration_max = st->penetration;
      }
    }
  }
}


// end a run: final state, summaries; free its context and data
static void runFinish(runResult* r, const mjModel* m) {
  if (r->d) {
    r->peak_rss_kb = peakRssKb();
    mju_copy(r->qpos_final, r->d->qpos, m->nq);
    r->energy_final = stateEnergy(m, r->d);
  }
  summarize(&r->step_med, &r->step_mean, &r->step_p90, r->step_us, r->nstep);
  summarize(&r->solve_med, &r->solve_mean, &r->solve_p90, r->solve_us, r->nstep);
  acs_deleteContext(r->ctx);
  mj_deleteData(r->d);
  r->ctx = NULL;
  r->d = NULL;
}


static void runFree(runResult* r) {
  free(r->step_us);
  free(r->solve_us);
  free(r->qpos_initial);
  free(r->qpos_final);
}


// a later repeat's run r pooled into the first repeat's (into; k earlier repeats): the steps per
// status, the iteration and contact counts and the physical criteria over every repeat's steps
// (the same number of steps each); with --perturb the repeats are different trajectories
static void mergeMeanMax(meanMax* into, meanMax v, int k) {
  into->mean += (v.mean - into->mean) / (k + 1);
  into->max = fmax(into->max, v.max);
}

static void runPool(runResult* into, const runResult* r, int k) {
  if (into->ok && !r->ok) {
    into->ok = 0;
    snprintf(into->error, sizeof(into->error), "repeat %d: %s", k + 1, r->error);
  }
  for (int s=0; s < acsNSTATUS; s++) {
    into->nstatus[s] += r->nstatus[s];
  }
  into->npooled += r->npooled;
  mergeMeanMax(&into->iterations, r->iterations, k);
  mergeMeanMax(&into->contacts, r->contacts, k);
  mergeMeanMax(&into->residual, r->residual, k);
  mergeMeanMax(&into->signorini, r->signorini, k);
  mergeMeanMax(&into->coulomb, r->coulomb, k);
  mergeMeanMax(&into->mdp, r->mdp, k);
  mergeMeanMax(&into->slip, r->slip, k);
  mergeMeanMax(&into->metrics_us, r->metrics_us, k);
  into->penetration_max = fmax(into->penetration_max, r->penetration_max);
  into->nonfinite |= r->nonfinite;
  if (into->ok && !into->ndiverged && r->ndiverged) {
    snprintf(into->error, sizeof(into->error), "repeat %d, %s", k + 1, r->error);
  }
  into->ndiverged += r->ndiverged;
}


// x mujoco of run r: its mean step time over the recorded steps divided by the mujoco run's (the
// ratio of what a pipeline pays). The runs took these steps in the same rounds, next to each
// other in time, so the machine's drift cancels
static double roundRatio(const runResult* r, const runResult* ref, const benchArgs* args) {
  if (!ref || !ref->ok || !r->ok || r->nstep < args->steps || ref->nstep < args->steps) {
    return NAN;
  }
  double sr = 0, sref = 0;
  for (int i=0; i < args->steps; i++) {
    sr += r->step_us[i];
    sref += ref->step_us[i];
  }
  return sr / sref;
}


//---------------------------------- output --------------------------------------------------------

static void jsonString(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') {
      fprintf(f, "\\%c", *s);
    } else if ((unsigned char)*s < 0x20) {
      fprintf(f, "\\u%04x", *s);
    } else {
      fputc(*s, f);
    }
  }
  fputc('"', f);
}


static void jsonNumber(FILE* f, double v) {
  if (isfinite(v)) {
    fprintf(f, "%.9g", v);
  } else {
    fputs("null", f);
  }
}


static void jsonMeanMax(FILE* f, const char* name, meanMax v, int valid) {
  fprintf(f, ", \"%s\": {\"mean\": ", name);
  jsonNumber(f, valid ? v.mean : NAN);
  fputs(", \"max\": ", f);
  jsonNumber(f, valid ? v.max : NAN);
  fputs("}", f);
}


static void jsonTiming(FILE* f, const char* name, double med, double mean, double p90) {
  fprintf(f, ", \"%s\": {\"median\": ", name);
  jsonNumber(f, med);
  fputs(", \"mean\": ", f);
  jsonNumber(f, mean);
  fputs(", \"p90\": ", f);
  jsonNumber(f, p90);
  fputs("}", f);
}


// an array of numbers, to the last bit (17 digits: two runs can be compared exactly)
static void jsonArray(FILE* f, const char* name, const mjtNum* v, int n) {
  fprintf(f, ", \"%s\": [", name);
  for (int i=0; i < n; i++) {
    if (i) fputs(", ", f);
    if (isfinite(v[i])) {
      fprintf(f, "%.17g", v[i]);
    } else {
      fputs("null", f);
    }
  }
  fputs("]", f);
}


static int writeJson(const char* path, const mjModel* m, const benchArgs* args,
                     const runResult* runs, int nrun) {
  FILE* f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "acs-bench: cannot write %s\n", path);
    return -1;
  }
  fputs("{\"model\": ", f);
  jsonString(f, args->model);
  fputs(", \"mujoco_version\": ", f);
  jsonString(f, mj_versionString());
  fprintf(f, ", \"timestep\": %.9g, \"steps\": %d, \"warmup\": %d, \"chunk\": %d, "
          "\"repeat\": %d, \"perturb\": %.9g, \"nv\": %d, \"runs\": [", m->opt.timestep,
          args->steps, args->warmup, args->chunk, args->repeat, args->perturb, (int)m->nv);
  for (int i=0; i < nrun; i++) {
    const runResult* r = runs + i;
    int valid = r->ok && r->nstep > 0;
    fputs(i ? ",\n  {" : "\n  {", f);
    fputs("\"solver\": ", f);
    jsonString(f, r->solver);
    fprintf(f, ", \"status\": \"%s\", \"error\": ", runStatus(r));
    if (!r->error[0]) {
      fputs("null", f);
    } else {
      jsonString(f, r->error);
    }
    if (!valid) {
      fputs("}", f);
      continue;
    }
    jsonTiming(f, "step_us", r->step_med, r->step_mean, r->step_p90);
    fputs(", \"step_us_mean_range\": [", f);
    jsonNumber(f, r->mean_lo);
    fputs(", ", f);
    jsonNumber(f, r->mean_hi);
    fputs("], \"x_mujoco\": {\"median\": ", f);
    jsonNumber(f, r->ratio);
    fputs(", \"min\": ", f);
    jsonNumber(f, r->ratio_lo);
    fputs(", \"max\": ", f);
    jsonNumber(f, r->ratio_hi);
    fputs("}", f);
    jsonTiming(f, "solve_us", r->solve_med, r->solve_mean, r->solve_p90);
    jsonMeanMax(f, "metrics_us", r->metrics_us, 1);
    fputs(", \"steps_status\": {", f);
    for (int k=0; k < acsNSTATUS; k++) {
      if (k == acsSTATUS_ERROR) continue;   // a refused step ends the run
      fprintf(f, "%s\"%s\": ", k ? ", " : "", acs_statusName(k));
      jsonNumber(f, (double)r->nstatus[k] / r->npooled);
    }
    fprintf(f, "}, \"diverged_steps\": %d", r->ndiverged);
    jsonMeanMax(f, "iterations", r->iterations, 1);
    jsonMeanMax(f, "contacts", r->contacts, 1);
    jsonMeanMax(f, "ncp_residual", r->residual, r->metrics);
    jsonMeanMax(f, "signorini", r->signorini, r->metrics);
    jsonMeanMax(f, "coulomb", r->coulomb, r->metrics);
    jsonMeanMax(f, "mdp", r->mdp, r->metrics);
    jsonMeanMax(f, "slip", r->slip, r->metrics);
    fputs(", \"penetration_max\": ", f);
    jsonNumber(f, r->metrics ? r->penetration_max : NAN);
    fputs(", \"energy\": {\"initial\": ", f);
    jsonNumber(f, r->energy_initial);
    fputs(", \"final\": ", f);
    jsonNumber(f, r->energy_final);
    fputs("}", f);
    jsonArray(f, "qpos_initial", r->qpos_initial, m->nq);
    jsonArray(f, "qpos_final", r->qpos_final, m->nq);
    fprintf(f, ", \"nonfinite\": %s, \"peak_rss_kb\": %ld}", r->nonfinite ? "true" : "false",
            r->peak_rss_kb);
  }
  fputs("\n]}\n", f);
  fclose(f);
  return 0;
}


// a CSV field (RFC 4180): quoted, with inner quotes doubled
static void csvString(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') {
      fputc('"', f);
    }
    fputc(*s, f);
  }
  fputc('"', f);
}


static int writeCsv(const char* path, const benchArgs* args, const runResult* runs, int nrun) {
  FILE* f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "acs-bench: cannot write %s\n", path);
    return -1;
  }
  fputs("model,solver,status,steps,step_us_median,step_us_mean,step_us_p90,x_mujoco,"
        "x_mujoco_min,x_mujoco_max,solve_us_median,"
        "solve_us_mean,solve_us_p90,iterations_mean,iterations_max,contacts_mean,contacts_max,"
        "ncp_residual_mean,ncp_residual_max,signorini_mean,signorini_max,coulomb_mean,"
        "coulomb_max,mdp_mean,mdp_max,slip_mean,slip_max,penetration_max,energy_initial,"
        "energy_final,nonfinite,diverged_steps", f);
  for (int k=0; k < acsNSTATUS; k++) {
    if (k != acsSTATUS_ERROR) {
      fprintf(f, ",share_%s", acs_statusName(k));
    }
  }
  fputs(",metrics_us_mean,peak_rss_kb,error\n", f);
  for (int i=0; i < nrun; i++) {
    const runResult* r = runs + i;
    double nan = NAN;
    double met = r->metrics ? 1 : nan;
    csvString(f, args->model);
    fprintf(f, ",%s,%s,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,"
            "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.9g,%.9g,%d,%d",
            r->solver, runStatus(r), r->nstep,
            r->step_med, r->step_mean, r->step_p90, r->ratio, r->ratio_lo, r->ratio_hi,
            r->solve_med, r->solve_mean, r->solve_p90,
            r->iterations.mean, r->iterations.max, r->contacts.mean, r->contacts.max,
            met*r->residual.mean, met*r->residual.max, met*r->signorini.mean,
            met*r->signorini.max, met*r->coulomb.mean, met*r->coulomb.max, met*r->mdp.mean,
            met*r->mdp.max, met*r->slip.mean, met*r->slip.max, met*r->penetration_max,
            r->energy_initial, r->energy_final, r->nonfinite, r->ndiverged);
    for (int k=0; k < acsNSTATUS; k++) {
      if (k != acsSTATUS_ERROR) {
        fprintf(f, ",%.6g", r->npooled ? (double)r->nstatus[k] / r->npooled : nan);
      }
    }
    fprintf(f, ",%.6g,%ld,", r->metrics_us.mean, r->peak_rss_kb);
    csvString(f, r->error);
    fputc('\n', f);
  }
  fclose(f);
  return 0;
}


static void printTable(const mjModel* m, const benchArgs* args, const runResult* runs, int nrun) {
  printf("model %s  (MuJoCo %s, nv %d, timestep %g s, %d steps after %d warm-up, rounds of %d, "
         "%d repeat%s", args->model, mj_versionString(), (int)m->nv, m->opt.timestep,
         args->steps, args->warmup, args->chunk, args->repeat, args->repeat > 1 ? "s" : "");
  if (args->perturb > 0) {
    printf(", initial speeds perturbed by up to %g", args->perturb);
  }
  printf(")\n");
  printf("%-8s %-8s %9s %9s %9s %8s %7s %9s %7s %6s %7s %10s %10s %10s %10s %10s\n",
         "solver", "status", "step_us", "median", "p90", "x mujoco", "spread", "solve_us",
         "iters", "conv%", "contacts", "ncp_mean", "ncp_max", "pen_max_m", "slip_max", "dE_J");
  for (int i=0; i < nrun; i++) {
    const runResult* r = runs + i;
    if (!r->ok) {
      printf("%-8s error    %s\n", r->solver, r->error);
      continue;
    }
    char conv[16] = "-", ratio[16] = "-", spread[16] = "-";
    if (strcmp(r->solver, "mujoco") && strcmp(r->solver, "native")) {
      snprintf(conv, sizeof(conv), "%.0f", 100.0 *
               (r->nstatus[acsSTATUS_CONVERGED] + r->nstatus[acsSTATUS_EMPTY]) / r->npooled);
    }
    if (isfinite(r->ratio)) {
      snprintf(ratio, sizeof(ratio), "%.2f", r->ratio);
    }
    if (args->repeat > 1) {
      snprintf(spread, sizeof(spread), "%.1f%%", 100 * (r->mean_hi - r->mean_lo) / r->step_mean);
    }
    printf("%-8s %-8s %9.2f %9.2f %9.2f %8s %7s %9.2f %7.1f %6s %7.1f", r->solver,
           runStatus(r), r->step_mean, r->step_med, r->step_p90, ratio, spread, r->solve_mean,
           r->iterations.mean, conv, r->contacts.mean);
    if (r->metrics) {
      printf(" %10.3g %10.3g %10.3g %10.3g", r->residual.mean, r->residual.max,
             r->penetration_max, r->slip.max);
    } else {
      printf(" %10s %10s %10s %10s", "-", "-", "-", "-");
    }
    printf(" %10.4g\n", r->energy_final - r->energy_initial);
  }
  for (int i=0; i < nrun; i++) {
    if (runs[i].ok && runs[i].ndiverged) {
      printf("%s diverged in %d steps, first at %s\n", runs[i].solver, runs[i].ndiverged,
             runs[i].error);
    }
  }
}


//---------------------------------- main ----------------------------------------------------------

static void usage(void) {
  char options[16384];
  acs_describeOptions(options, sizeof(options));
  printf("usage: acs-bench MODEL.xml [--solvers LIST] [--steps N] [--warmup K] [--chunk C]\n"
         "                 [--repeat R] [--perturb A] [--integrator NAME] [--set key=value]...\n"
         "                 [--json FILE] [--csv FILE] [--quiet] [--threads LIST]\n"
         "       acs-bench --suite [--solvers LIST] [--quick] [--out DIR] [--scenes LIST]\n"
         "  --suite    the evidence suite: every scene with every solver, into DIR (default\n"
         "             results/): JSON per scene, a CSV, a Markdown report and plots; --quick:\n"
         "             the same scenes, fewer steps (see --suite --help)\n"
         "  --solvers  comma-separated: mujoco (plain mj_step), native (acs pipeline with\n"
         "             MuJoCo's solver) and acs solvers; default mujoco,native,pgs\n"
         "  --steps    recorded steps (default 1000); --warmup: steps each run takes first, not\n"
         "             recorded (default 100)\n"
         "  --chunk    the runs take turns, C steps each (default 50), in an order balanced\n"
         "             over the rounds (each run at each place, after each other run, alike):\n"
         "             drift hits every run alike, whatever its place in --solvers\n"
         "  --repeat   repeat the whole measurement R times (default 1): step_us is the median\n"
         "             of the repeats' means, spread their range; conv%%, iters and contacts\n"
         "             pool every repeat's steps\n"
         "  --perturb  each repeat starts with every dof's speed raised by a uniform draw in\n"
         "             [-A, A] (rad/s, m/s), its own draw, the same for every run: the repeats\n"
         "             are then different trajectories (default 0: all the same). Where a\n"
         "             rounding-level change moves a run between contact configurations, one\n"
         "             trajectory's figures are a draw\n"
         "  step_us is the mean step time (what a pipeline pays), with the median and 90th\n"
         "  percentile; x mujoco is the ratio of mean step times to the mujoco run's over the\n"
         "  same rounds (with --repeat, the median over repeats)\n"
         "  --integrator  euler, rk4, implicit, implicitfast or discrete for every run (default:\n"
         "             the model's)\n"
         "  --threads  LIST of increasing thread counts, e.g. 1,2,4,8,16: instead of the\n"
         "             table above, independent simulations on separate threads (one mjData\n"
         "             and context each, the same state): steps/s of all threads together and\n"
         "             its scaling from the first count, every solver at every count once per\n"
         "             --repeat, the best repeat kept; --csv writes its rows\n"
         "  --set      an option for the acs runs, as in the model's <custom> acs_* fields;\n"
         "             wins over the model. Options:\n%s", options);
}


// --suite: replace this process by the suite's driver (bench/suite.py) with the project's Python,
// passing this binary's path and the other arguments; returns only if that fails
static int runSuite(int argc, char** argv) {
  const char* python = getenv("ACS_PYTHON") ? getenv("ACS_PYTHON") : ACS_SUITE_PYTHON;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    snprintf(self, sizeof(self), "%s", argv[0]);
  } else {
    self[n] = 0;
  }
  char** args = calloc(argc + 4, sizeof(char*));
  if (!args) {
    fprintf(stderr, "acs-bench: out of memory\n");
    return 1;
  }
  int k = 0;
  args[k++] = (char*)python;
  args[k++] = (char*)ACS_SUITE_SCRIPT;
  args[k++] = "--bench";
  args[k++] = self;
  for (int i=1; i < argc; i++) {
    if (strcmp(argv[i], "--suite")) {
      args[k++] = argv[i];
    }
  }
  execv(python, args);
  fprintf(stderr, "acs-bench: --suite runs %s with %s, which failed to start (run scripts/setup.sh, "
          "or set ACS_PYTHON to a Python with mujoco, numpy, matplotlib and the acs package)\n",
          ACS_SUITE_SCRIPT, python);
  free(args);
  return 1;
}


static int parseInt(const char* text, int* value) {
  char* end;
  long v = strtol(text, &end, 10);
  if (*end || v < 0 || v > 100000000) {
    return -1;
  }
  *value = (int)v;
  return 0;
}


// --threads LIST: increasing thread counts (the scaling is relative to the first)
static int parseThreads(benchArgs* args, const char* text) {
  char list[256];
  snprintf(list, sizeof(list), "%s", text);
  args->nthreads = 0;
  for (char* tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    int n;
    if (args->nthreads == MAXTHREADCOUNT || parseInt(tok, &n) || n < 1 || n > 256 ||
        (args->nthreads && n <= args->threads[args->nthreads - 1])) {
      return -1;
    }
    args->threads[args->nthreads++] = n;
  }
  return args->nthreads ? 0 : -1;
}


int main(int argc, char** argv) {
  benchArgs args = {NULL, "mujoco,native,pgs", 1000, 100, 0, 50, 1, {0}, 0, NULL, NULL, -1,
                    {0}, 0, 0};
  for (int i=1; i < argc; i++) {
    if (!strcmp(argv[i], "--suite")) {
      return runSuite(argc, argv);
    }
  }
  for (int i=1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i+1 < argc ? argv[i+1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage();
      return 0;
    } else if (!strcmp(a, "--quiet")) {
      args.quiet = 1;
    } else if (a[0] == '-' && !v) {
      fprintf(stderr, "acs-bench: %s needs a value\n", a);
      return 2;
    } else if (!strcmp(a, "--solvers")) {
      args.solvers = argv[++i];
    } else if (!strcmp(a, "--steps")) {
      if (parseInt(argv[++i], &args.steps) || args.steps < 1) {
        fprintf(stderr, "acs-bench: --steps must be a positive integer, got '%s'\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--warmup")) {
      if (parseInt(argv[++i], &args.warmup)) {
        fprintf(stderr, "acs-bench: --warmup must be a non-negative integer, got '%s'\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--chunk") || !strcmp(a, "--repeat")) {
      int* value = a[2] == 'c' ? &args.chunk : &args.repeat;
      if (parseInt(argv[++i], value) || *value < 1) {
        fprintf(stderr, "acs-bench: %s must be a positive integer, got '%s'\n", a, v);
        return 2;
      }
    } else if (!strcmp(a, "--perturb")) {
      char* end;
      args.perturb = strtod(argv[++i], &end);
      if (end == v || *end || !isfinite(args.perturb) || args.perturb < 0) {
        fprintf(stderr, "acs-bench: --perturb must be a finite number >= 0, got '%s'\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--integrator")) {
      static const char* names[] = {"euler", "rk4", "implicit", "implicitfast", "discrete"};
      args.integrator = -1;
      for (int k=0; k < 5; k++) {
        if (!strcmp(v, names[k])) {
          args.integrator = k;   // mjtIntegrator order
        }
      }
      i++;
      if (args.integrator < 0 || (args.integrator == 4 && mjVERSION_HEADER < 3013000)) {
        fprintf(stderr, "acs-bench: --integrator takes euler, rk4, implicit, implicitfast or "
                "discrete (MuJoCo >= 3.13), got '%s'\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--set")) {
      if (!strchr(v, '=') || args.nset == MAXSET) {
        fprintf(stderr, "acs-bench: --set takes key=value, got '%s'\n", v);
        return 2;
      }
      args.sets[args.nset++] = argv[++i];
    } else if (!strcmp(a, "--threads")) {
      if (parseThreads(&args, argv[++i])) {
        fprintf(stderr, "acs-bench: --threads takes increasing thread counts from 1 to 256, "
                "comma-separated (at most %d), got '%s'\n", MAXTHREADCOUNT, v);
        return 2;
      }
    } else if (!strcmp(a, "--json")) {
      args.json = argv[++i];
    } else if (!strcmp(a, "--csv")) {
      args.csv = argv[++i];
    } else if (a[0] == '-') {
      fprintf(stderr, "acs-bench: unknown option %s (see --help)\n", a);
      return 2;
    } else if (!args.model) {
      args.model = a;
    } else {
      fprintf(stderr, "acs-bench: more than one model given: %s\n", a);
      return 2;
    }
  }
  if (!args.model) {
    usage();
    return 2;
  }

  // check --set once, so a typo is an input error and not one error per run
  acsSettings check;
  char error[acsNERROR];
  acs_defaultSettings(&check);
  for (int i=0; i < args.nset; i++) {
    char key[128];
    const char* eq = strchr(args.sets[i], '=');
    snprintf(key, sizeof(key), "%.*s", (int)(eq - args.sets[i]), args.sets[i]);
    if (acs_setOption(&check, key, eq + 1, error, sizeof(error))) {
      fprintf(stderr, "acs-bench: --set %s: %s\n", args.sets[i], error);
      return 2;
    }
  }

  acs_registerPlugin();
  char loaderr[1024] = "";
  mjModel* m = mj_loadXML(args.model, NULL, loaderr, sizeof(loaderr));
  if (!m) {
    fprintf(stderr, "acs-bench: cannot load %s: %s\n", args.model, loaderr);
    return 2;
  }
  mjcb_time = timerMicro;
  if (args.integrator >= 0) {
    m->opt.integrator = args.integrator;
  }

  if (args.nthreads) {
    if (args.json) {
      fprintf(stderr, "acs-bench: --threads writes --csv, not --json\n");
      mj_deleteModel(m);
      return 2;
    }
    int status = benchThreads(m, &args);
    mj_deleteModel(m);
    return status;
  }

  // the runs, started in the order given, then stepped in rounds of --chunk steps: every run
  // takes its chunk of a round before any run takes the next round's, in an order that changes
  // from round to round (benchRoundOrder), so the machine's drift (up to 2x within seconds here) and
  // the caches a run finds hit every run alike, and no run's figure depends on its place in
  // --solvers. --repeat repeats
  // the whole measurement: the figures are the median over repeats, the spread their range
  char list[1024];
  const char* names[MAXSOLVER];
  int nrun = benchSolverList(names, list, sizeof(list), args.solvers);
  runResult runs[MAXSOLVER];
  // per run and repeat: mean, median and p90 step time, x mujoco
  int nrep = args.repeat;
  double* means = calloc((size_t)nrun * nrep, sizeof(double));
  double* meds = calloc((size_t)nrun * nrep, sizeof(double));
  double* p90s = calloc((size_t)nrun * nrep, sizeof(double));
  double* ratios = calloc((size_t)nrun * nrep, sizeof(double));
  resetPeakRss();
  for (int rep=0; rep < args.repeat; rep++) {
    runResult* cur = rep == 0 ? runs : malloc(sizeof(runResult) * nrun);
    for (int j=0; j < nrun; j++) {
      runStart(cur + j, m, &args, names[j], rep);
    }
    int total = args.warmup + args.steps;
    for (int start=0, round=0; start < total; start += args.chunk, round++) {
      int count = start + args.chunk < total ? args.chunk : total - start;
      int order[MAXSOLVER];
      benchRoundOrder(order, nrun, round);
      for (int j=0; j < nrun; j++) {
        runResult* r = cur + order[j];
        if (r->ok && r->d) {
          runSteps(r, m, &args, count);
        }
      }
    }
    const runResult* ref = NULL;
    for (int j=0; j < nrun; j++) {
      runFinish(cur + j, m);
      if (!strcmp(cur[j].solver, "mujoco") && cur[j].ok) {
        ref = cur + j;
      }
    }
    for (int j=0; j < nrun; j++) {
      means[j*nrep + rep] = cur[j].step_mean;
      meds[j*nrep + rep] = cur[j].step_med;
      p90s[j*nrep + rep] = cur[j].step_p90;
      ratios[j*nrep + rep] = roundRatio(cur + j, ref, &args);
    }
    if (rep > 0) {
      for (int j=0; j < nrun; j++) {
        runPool(runs + j, cur + j, rep);
        runFree(cur + j);
      }
      free(cur);
    }
  }
  int failed = 0;
  for (int j=0; j < nrun; j++) {
    runResult* r = runs + j;
    double* v[4] = {means + j*nrep, meds + j*nrep, p90s + j*nrep, ratios + j*nrep};
    double* out[4] = {&r->step_mean, &r->step_med, &r->step_p90, &r->ratio};
    for (int q=0; q < 4; q++) {
      double mean, p90;
      summarize(out[q], &mean, &p90, v[q], nrep);   // the median over repeats
    }
    r->mean_lo = r->mean_hi = r->step_mean;
    r->ratio_lo = r->ratio_hi = r->ratio;
    for (int k=0; k < nrep; k++) {
      r->mean_lo = fmin(r->mean_lo, means[j*nrep + k]);
      r->mean_hi = fmax(r->mean_hi, means[j*nrep + k]);
      r->ratio_lo = fmin(r->ratio_lo, ratios[j*nrep + k]);
      r->ratio_hi = fmax(r->ratio_hi, ratios[j*nrep + k]);
    }
    failed += !r->ok;
  }
  free(means);
  free(meds);
  free(p90s);
  free(ratios);

  if (!args.quiet) {
    printTable(m, &args, runs, nrun);
  }
  int ioerr = 0;
  if (args.json) ioerr |= writeJson(args.json, m, &args, runs, nrun);
  if (args.csv) ioerr |= writeCsv(args.csv, &args, runs, nrun);

  for (int i=0; i < nrun; i++) {
    runFree(runs + i);
  }
  mj_deleteModel(m);
  return (failed || ioerr) ? 1 : 0;
}
