// Copyright 2026 The acs authors.
//
// The bottom of the library: error messages, internal assertions, growable buffers, the workspace
// arena and the wall clock. Every other file may include this one; it includes nothing of acs
// but the public types.

#ifndef ACS_PLUGIN_UTIL_ERRMEM_H_
#define ACS_PLUGIN_UTIL_ERRMEM_H_

#include <stddef.h>

// a growable array: capacity in elements; memory beyond what was ever written reads as zero
typedef struct acsBuffer_ {
  void*  ptr;
  size_t cap;
} acsBuffer;

// the memory of buffer field name of obj as an array of type
#define acsBUF(obj, name, type) ((type*)(obj)->name.ptr)

// what a set of buffers has done so far, and a fault injector for tests
typedef struct acsBufferStats_ {
  int nalloc;                     // heap (re)allocations so far
  int failafter;                  // tests: > 0: the failafter-th growth from now fails; 0: off
} acsBufferStats;

// Make sure buf holds at least n elements of size elsize. New memory is zero-filled, so no
// buffer is ever read uninitialized. Return 0 on success, -1 when out of memory (buf unchanged).
int acs_bufferReserve(acsBufferStats* stats, acsBuffer* buf, size_t n, size_t elsize);

// free a buffer's memory
void acs_bufferFree(acsBuffer* buf);

// bump allocator over a caller-owned block; with base == NULL it only counts (workspace query)
typedef struct acsArena_ {
  char*  base;
  size_t used;
} acsArena;

// next 64-byte aligned chunk of n elements of size elsize (NULL when counting)
void* acs_arenaAlloc(acsArena* arena, size_t n, size_t elsize);

// wall-clock time in microseconds
double acs_timeMicro(void);

// write a formatted message into error (if error != NULL and error_sz > 0)
void acs_formatError(char* error, int error_sz, const char* format, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
;

// Internal invariants (what the code guarantees itself, never what a caller may get wrong: bad
// input gets a message). Checked in debug and sanitizer builds (ACS_ASSERTIONS, set by CMake),
// compiled out in release builds, like MuJoCo's mjASSERT.
#ifdef ACS_ASSERTIONS
  #define acsASSERT(cond) do {                                                              \
    if (!(cond)) {                                                                          \
      acs_assertFailed(#cond, __FILE__, __LINE__);                                          \
    }                                                                                       \
  } while (0)
#else
  #define acsASSERT(cond) ((void)0)
#endif

// print the failed invariant and abort
void acs_assertFailed(const char* cond, const char* file, int line);

#endif  // ACS_PLUGIN_UTIL_ERRMEM_H_
