// Copyright 2026 The acs authors.
//
// What differs between the MuJoCo versions acs supports (4.0, the default, and 3.12), in one
// place, behind MuJoCo's own version macro mjVERSION_HEADER (3012000 is 3.12.0). The rest of the
// code asks these helpers instead of testing versions.

#ifndef ACS_PLUGIN_MJCOMPAT_H_
#define ACS_PLUGIN_MJCOMPAT_H_

#include <mujoco/mujoco.h>

#if mjVERSION_HEADER < 3012000
  #error "acs needs MuJoCo 3.12 or later"
#endif

// integrator="discrete" (MuJoCo 3.13): the step map M^ a = f + J'f_c, M^ = M + hD + h^2 K
#define acsMJ_DISCRETE (mjVERSION_HEADER >= 3013000)

// <flag speculative="enable"/> (4.0): contacts that may close within the step, with a synthetic
// distance derived from MuJoCo's soft model
#define acsMJ_SPECULATIVE (mjVERSION_HEADER >= 4000000)

// plastic state (mjModel.nplastic, 4.0)
#define acsMJ_PLASTIC (mjVERSION_HEADER >= 4000000)

// after an RK4 step qacc holds the step's acceleration, the weighted stages (4.0); 3.12 leaves the
// last stage's
#define acsMJ_RK4_STEP_QACC (mjVERSION_HEADER >= 4000000)

// the model uses the discrete integrator
static inline int acs_mjDiscrete(const mjModel* m) {
#if acsMJ_DISCRETE
  return m->opt.integrator == mjINT_DISCRETE;
#else
  (void)m;
  return 0;
#endif
}


// the model makes speculative contacts
static inline int acs_mjSpeculative(const mjModel* m) {
#if acsMJ_SPECULATIVE
  return (m->opt.enableflags & mjENBL_SPECULATIVE) != 0;
#else
  (void)m;
  return 0;
#endif
}


// the model uses MuJoCo's IPC flex contact mode (4.0; MuJoCo's own solver is then skipped)
static inline int acs_mjIPC(const mjModel* m) {
#if mjVERSION_HEADER >= 4000000
  return (m->opt.enableflags & mjENBL_IPC) != 0;
#else
  (void)m;
  return 0;
#endif
}

#endif  // ACS_PLUGIN_MJCOMPAT_H_
