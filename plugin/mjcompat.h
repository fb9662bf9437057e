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

// MuJoCo's RK4 combines the stage angular velocities of ball and free joints with a
// Runge-Kutta-Munthe-Kaas correction (4.0), internal to MuJoCo: acs's RK4 does not
#define acsMJ_RK4_RKMK (mjVERSION_HEADER >= 4000000)

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

// acs runs the discrete integrator with its own solvers on MuJoCo 4.0 (the effective-metric fields
// it reads are 4.0's); on 3.13 to 3.17 only native runs it
#define acsMJ_DISCRETE_ACS (mjVERSION_HEADER >= 4000000)


// The factor L'DL of the matrix the step solves with: M (qLD), or under the discrete integrator
// the effective metric M^ = M + hD + h^2 K, whose backbone MuJoCo factors in qH (when the model
// has terms in it; otherwise M^ = M)
static inline void acs_mjStepFactor(const mjtNum** L, const mjtNum** Dinv, const mjModel* m,
                                    const mjData* d) {
#if acsMJ_DISCRETE_ACS
  if (acs_mjDiscrete(m) && d->efm_active && d->efm_diag) {
    *L = d->qH;
    *Dinv = d->qHDiagInv;
    return;
  }
#else
  (void)m;
#endif
  *L = d->qLD;
  *Dinv = d->qLDiagInv;
}


// Euler with implicit joint damping: MuJoCo's Euler step integrates v+ = v + h (M + hB)^-1
// (qfrc_smooth + qfrc_constraint), B the diagonal of dof_damping, unless its eulerdamp or damper
// flags are disabled or no dof is damped
static inline int acs_mjEulerDamped(const mjModel* m) {
  if (m->opt.integrator != mjINT_EULER ||
      (m->opt.disableflags & (mjDSBL_EULERDAMP | mjDSBL_DAMPER))) {
    return 0;
  }
  for (int i=0; i < m->nv; i++) {
    if (m->dof_damping[i] > 0) {
      return 1;
    }
  }
  return 0;
}


// discrete integrator: the backbone's additions to the diagonal of M (nv)
static inline const mjtNum* acs_mjMetricDiagonal(const mjData* d) {
#if acsMJ_DISCRETE_ACS
  return d->efm_sdiag;
#else
  (void)d;
  return NULL;
#endif
}


// Under the discrete integrator, is MuJoCo's factored backbone (qH) the whole effective metric?
// Its diagonal terms (joint damping and stiffness) are; a tendon's or an actuator's rank-1 term
// only when it acts on one dof, and flex terms never. Return NULL if it is, else the reason
static inline const char* acs_mjMetricInexact(const mjModel* m, const mjData* d) {
#if acsMJ_DISCRETE_ACS
  if (!acs_mjDiscrete(m) || !d->efm_active) {
    return NULL;
  }
  if (d->efm_active == 2 || d->nefmK || d->nefmcon || d->nefmdof) {
    return "flex terms in the effective metric";
  }
  if (d->efm_fluid) {
    return "fluid drag in the effective metric";
  }
  for (int k=0; k < d->nefmT; k++) {
    if (m->ten_J_rownnz[d->efm_tid[k]] > 1) {
      return "a tendon spanning several dofs with stiffness or damping";
    }
  }
  for (int k=0; k < d->nefmA; k++) {
    int a = d->efm_aid[k];
    for (int o=m->actuator_outadr[a]; o < m->actuator_outadr[a] + m->actuator_outnum[a]; o++) {
      if (d->moment_rownnz[o] > 1) {
        return "an actuator with a position or velocity gain acting on several dofs";
      }
    }
  }
#else
  (void)m;
  (void)d;
#endif
  return NULL;
}

#endif  // ACS_PLUGIN_MJCOMPAT_H_
