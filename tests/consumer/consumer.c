// Copyright 2026 The acs authors.
//
// A program that uses acs as a C user would, built against an installed acs (CMake package or
// pkg-config) or through add_subdirectory: a box at rest on a 20 degree slope with friction 0.5
// (test_models/incline_stick.xml) stays put with pgs: it moves less than 1e-6 m in 1 s.

#include <math.h>
#include <stdio.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    printf("usage: consumer MODEL.xml\n");
    return 2;
  }
  char error[1000];
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("%s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  acsContext* ctx = acs_makeContext(m, NULL, error, sizeof(error));
  if (!ctx) {
    printf("%s\n", error);
    return 1;
  }
  mjtNum x0 = d->qpos[0];
  while (d->time < 1) {
    if (acs_step(m, d, ctx) == acsSTATUS_ERROR) {
      printf("%s\n", acs_lastError(ctx));
      return 1;
    }
  }
  mjtNum moved = fabs(d->qpos[0] - x0);
  printf("acs %s (ACS_VERSION %d), MuJoCo %s: the box moved %.3g m in 1 s\n", acs_versionString(),
         ACS_VERSION, mj_versionString(), moved);
  int ok = acs_version() == ACS_VERSION && moved < 1e-6;
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
  return ok ? 0 : 1;
}
