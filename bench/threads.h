// Copyright 2026 The acs authors.
//
// acs-bench --threads (threads.c): independent simulations on separate threads.

#ifndef ACS_BENCH_THREADS_H_
#define ACS_BENCH_THREADS_H_

#include <mujoco/mujoco.h>
#include "runs.h"

// every run of --solvers at every count of --threads; a table (and --csv); the exit status
int benchThreads(const mjModel* m, const benchArgs* args);

#endif  // ACS_BENCH_THREADS_H_
