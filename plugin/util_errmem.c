// Copyright 2026 The acs authors.
//
// Error messages, growable buffers and the wall clock.

#define _POSIX_C_SOURCE 200809L

#include "util_errmem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double acs_timeMicro(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6*(double)t.tv_sec + 1e-3*(double)t.tv_nsec;
}


void acs_formatError(char* error, int error_sz, const char* format, ...) {
  if (!error || error_sz <= 0) {
    return;
  }
  va_list args;
  va_start(args, format);
  vsnprintf(error, error_sz, format, args);
  va_end(args);
}


int acs_bufferReserve(acsBufferStats* stats, acsBuffer* buf, size_t n, size_t elsize) {
  if (n <= buf->cap) {
    return 0;
  }
  if (stats->failafter > 0 && --stats->failafter == 0) {
    return -1;   // injected failure (tests)
  }
  size_t cap = buf->cap ? buf->cap : 16;
  while (cap < n) {
    cap *= 2;
  }
  if (elsize == 0 || cap > SIZE_MAX / elsize) {
    return -1;
  }
  void* ptr = realloc(buf->ptr, cap*elsize);
  if (!ptr) {
    return -1;
  }

  // zero the new part: a buffer read before it is written (a mark array compared with a stamp)
  // then reads zero, whatever the allocator recycled
  memset((char*)ptr + buf->cap*elsize, 0, (cap - buf->cap)*elsize);
  buf->ptr = ptr;
  buf->cap = cap;
  stats->nalloc++;
  return 0;
}


void acs_bufferFree(acsBuffer* buf) {
  free(buf->ptr);
  buf->ptr = NULL;
  buf->cap = 0;
}


void acs_assertFailed(const char* cond, const char* file, int line) {
  fprintf(stderr, "acs: internal invariant failed: %s (%s:%d)\n", cond, file, line);
  abort();
}


void* acs_arenaAlloc(acsArena* arena, size_t n, size_t elsize) {
  size_t start = (arena->used + 63) & ~(size_t)63;
  arena->used = start + n*elsize;
  return arena->base ? arena->base + start : NULL;
}
