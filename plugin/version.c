// Copyright 2026 The acs authors.
//
// Versions. acs is compiled against one MuJoCo version (its headers' mjVERSION_HEADER): the layouts
// of mjData, mjModel and mjContact change between versions (3.12 to 4.0 moves almost every
// mjData field), so a library built for one version and loaded next to another would read the
// wrong fields. Every entry point that touches MuJoCo's structures checks the version first.

#include "version.h"

#include <acs/acs.h>
#include <mujoco/mujoco.h>
#include "util_errmem.h"

int acs_testMuJoCoVersion = 0;


int acs_version(void) {
  return ACS_VERSION;
}


const char* acs_versionString(void) {
  return ACS_VERSION_STRING;
}


// run-time MuJoCo version (mj_version(): 3012000 is 3.12.0)
static int runtimeVersion(void) {
  return acs_testMuJoCoVersion ? acs_testMuJoCoVersion : mj_version();
}


int acs_mujocoVersionMatches(void) {
  return runtimeVersion() == mjVERSION_HEADER;
}


int acs_checkMuJoCoVersion(char* error, int error_sz) {
  int run = runtimeVersion();
  if (run == mjVERSION_HEADER) {
    return 0;
  }
  acs_formatError(error, error_sz, "acs %s was built for MuJoCo %d.%d.%d, but MuJoCo %d.%d.%d is "
                  "loaded: build acs against the MuJoCo you run (their data layouts differ)",
                  ACS_VERSION_STRING, mjVERSION_HEADER / 1000000, mjVERSION_HEADER / 1000 % 1000,
                  mjVERSION_HEADER % 1000, run / 1000000, run / 1000 % 1000, run % 1000);
  return -1;
}
