// Copyright 2026 The acs authors.
//
// A steady-state step makes no heap allocation. This executable interposes malloc, calloc and
// realloc (glibc's __libc_* entry points), so every allocation of the process is counted,
// MuJoCo's included. Under AddressSanitizer, which owns malloc, only the context's own count is
// checked.

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__)
  #define ACST_INTERPOSE 0
#elif defined(__has_feature)
  #if __has_feature(address_sanitizer)
    #define ACST_INTERPOSE 0
  #endif
#endif
#ifndef ACST_INTERPOSE
  #define ACST_INTERPOSE 1
#endif

static long nmalloc = 0;

#if ACST_INTERPOSE
extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t n, size_t size);
extern void* __libc_realloc(void* ptr, size_t size);

void* malloc(size_t size);
void* calloc(size_t n, size_t size);
void* realloc(void* ptr, size_t size);

void* malloc(size_t size) {
  nmalloc++;
  return __libc_malloc(size);
}


void* calloc(size_t n, size_t size) {
  nmalloc++;
  return __libc_calloc(n, size);
}


void* realloc(void* ptr, size_t size) {
  nmalloc++;
  return __libc_realloc(ptr, size);
}
#endif


// run the same trajectory twice; the second pass must not allocate (the first sized buffers)
static void steadyStateModel(mjModel* m, const char* model, const char* solver, int nstep) {
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, solver);
  for (int i=0; i < nstep; i++) {
    acs_step(m, d, ctx);
  }
  if (m->nkey) {
    mj_resetDataKeyframe(m, d, 0);
  } else {
    mj_resetData(m, d);
  }
  acs_resetContext(ctx);

  long before = nmalloc;
  int nalloc = ctx->mem.nalloc;
  for (int i=0; i < nstep; i++) {
    acs_step(m, d, ctx);
  }
  ENSURE(ctx->mem.nalloc == nalloc);
  if (ACST_INTERPOSE) {
    if (nmalloc != before) {
      fprintf(stderr, "%s/%s: %ld heap allocations in %d steady-state steps\n", model, solver,
              nmalloc - before, nstep);
      acst_failures++;
    }
  }
  acs_deleteContext(ctx);
  mj_deleteData(d);
}


static void steadyState(const char* model, int shared, const char* solver, int nstep) {
  mjModel* m = shared ? acst_loadSharedModel(model) : acst_loadTestModel(model);
  if (!m) return;
  steadyStateModel(m, model, solver, nstep);
  mj_deleteModel(m);
}


// a chain of 260 hinges, friction loss on the last 100: one island of rows of their own on a long
// chain, whose G is formed by the columns of B over 260 dofs (a sort of 260 columns: glibc's
// qsort took its buffer from the heap past 255 ints, once a step)
static void chainSteadyState(const char* solver) {
  mjModel* m = acst_loadChain(260, 100, 0, 1);
  if (!m) return;
  steadyStateModel(m, "260-hinge chain", solver, 50);
  mj_deleteModel(m);
}


static void testInterposition(void) {
  // the counter sees allocations (otherwise the test below could not fail)
  if (ACST_INTERPOSE) {
    long before = nmalloc;
    void* volatile p = malloc(16);
    free(p);
    ENSURE(nmalloc == before + 1);
  }
}


static void testNoAllocation(void) {
  steadyState("humanoid.xml", 1, "pgs", 500);
  steadyState("humanoid.xml", 1, "native", 500);
  steadyState("four_bar.xml", 0, "pgs", 500);
  steadyState("box_plane.xml", 0, "pgs", 500);
  chainSteadyState("admm");
  chainSteadyState("pgs");
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testInterposition),
    TEST(testNoAllocation),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
