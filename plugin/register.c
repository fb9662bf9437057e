// Copyright 2026 The acs authors.
//
// The engine plugin "acs.solver". MuJoCo has no plugin capability for the constraint solver, so
// this plugin only carries configuration: its <config> keys are the option names (solver,
// tolerance, maxiter, ...), read by acs_modelSettings. It has no capability, no state and no
// callbacks; an unknown key is refused by MuJoCo's compiler ("unrecognized attribute").

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "settings.h"
#include "version.h"

static const char* kAttributes[64];

static int nstate(const mjModel* m, int instance) {
  (void)m;
  (void)instance;
  return 0;
}


int acs_registerPlugin(void) {
  if (!acs_mujocoVersionMatches()) {
    return -1;   // another MuJoCo's mjpPlugin layout: leave its registry alone
  }
  int slot = -1;
  if (mjp_getPlugin(acsPLUGIN_NAME, &slot)) {
    return slot;
  }
  int n = acs_optionCount();
  for (int i=0; i < n && i < 64; i++) {
    kAttributes[i] = acs_optionName(i);
  }
  mjpPlugin plugin;
  mjp_defaultPlugin(&plugin);
  plugin.name = acsPLUGIN_NAME;
  plugin.capabilityflags = 0;
  plugin.nattribute = n < 64 ? n : 64;
  plugin.attributes = kAttributes;
  plugin.nstate = nstate;
  return mjp_registerPlugin(&plugin);
}


// register when the library is loaded, so MJCF files using the plugin parse
__attribute__((constructor)) static void acs_registerAtLoad(void) {
  acs_registerPlugin();
}
