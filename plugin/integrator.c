// Copyright 2026 The acs authors.
//
// The Runge-Kutta integrator with acs's constraint stage. MuJoCo's mj_RungeKutta evaluates its
// three intermediate stages with its own mj_forwardSkip, constraint solver included, and has no
// hook for another solver; acs runs the same scheme with its own forward at each stage:
//
//   X0 = (qpos, qvel, act), F0 = (qacc, act_dot) of the step's forward
//   stage i = 1..3:  dX = sum_j<i A_ij (V_j, F_j),  X_i = X0 (+) h dX (qpos on the manifold),
//                    time t0 + c_i h, forward (sensors and energy skipped): F_i = (qacc, act_dot)
//   final:           dX = sum_j B_j (V_j, F_j); from X0, qvel += h dX_acc, qpos (+)= h dX_vel,
//                    act advanced with dX_act; time += h
//
// with the classical tableau A = diag(1/2, 1/2, 1), B = (1/6, 1/3, 1/3, 1/6), c = (1/2, 1/2, 1),
// the same operations in the same order as MuJoCo 3.12's mj_RungeKutta (so with MuJoCo's own
// solver at the stages it reproduces mj_step bit for bit). MuJoCo 4.0 combines the stage angular
// velocities of ball and free joints with a Runge-Kutta-Munthe-Kaas correction (fourth-order
// orientations), whose code is internal to MuJoCo: acs keeps the classical combination, so on 4.0
// the orientations of ball and free joints integrate to second order (hinges and slides, and
// every joint on 3.12, as MuJoCo). After the step 4.0 leaves in qacc the step's acceleration (the
// weighted stages), 3.12 the last stage's: acs does the same (mjcompat.h).
//
// The final update is MuJoCo's mj_advance (internal) for what acs's scheme supports: activations
// (every dynamics type but DC motors and PID controllers, which keep internal state; and not the
// rotational setpoints MuJoCo re-wraps), plugin states, and qacc_warmstart. Models with actuator or
// sensor history buffers, sleep or plastic state are refused for it (acs_advanceSupported). The
// discrete integrator's step is this final update with the step's qacc.

#include "integrator.h"

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "mjcompat.h"
#include "util_errmem.h"

// RK4 tableau (mj_RungeKutta's): A (3 x 3, lower), B (4)
static const mjtNum kA[9] = {
  0.5, 0,   0,
  0,   0.5, 0,
  0,   0,   1
};
static const mjtNum kB[4] = {1.0/6.0, 1.0/3.0, 1.0/3.0, 1.0/6.0};


//---------------------------------- what acs's scheme supports -------------------------------------

// can acs's RK4 advance activation j of actuator i as MuJoCo does
static int activationSupported(const mjModel* m, int i) {
  int dyn = m->actuator_dyntype[i];
  if (dyn == mjDYN_DCMOTOR || dyn == mjDYN_PID) {
    return 0;   // internal slots (current, integral, slew, bristle)
  }
  if (dyn != mjDYN_NONE && dyn != mjDYN_INTEGRATOR && dyn != mjDYN_FILTER &&
      dyn != mjDYN_FILTEREXACT && dyn != mjDYN_MUSCLE && dyn != mjDYN_USER) {
    return 0;   // a dynamics type newer than acs
  }
  if (dyn == mjDYN_INTEGRATOR && m->actuator_actnum[i] > 0) {
    // rotational setpoints: MuJoCo wraps them to a representative at integration time
    int trn = m->actuator_trntype[i];
    const mjtNum* gear = m->actuator_gear + 6*i;
    if (m->actuator_gaintype[i] == mjGAIN_SO3 ||
        (trn == mjTRN_SITE && m->actuator_trnid[2*i+1] >= 0 && !gear[0] && !gear[1] && !gear[2]) ||
        ((trn == mjTRN_JOINT || trn == mjTRN_JOINTINPARENT) &&
         m->jnt_type[m->actuator_trnid[2*i]] == mjJNT_BALL)) {
      return 0;
    }
  }
  return 1;
}


int acs_advanceSupported(const mjModel* m, const char* name, char* error, int error_sz) {
  if (m->nhistory > 0) {
    acs_formatError(error, error_sz, "integrator %s with the acs solvers: actuator or sensor "
                    "history buffers (delays) are not supported; use Euler, implicit or "
                    "implicitfast, or the native solver", name);
    return -1;
  }
  if (m->opt.enableflags & mjENBL_SLEEP) {
    acs_formatError(error, error_sz, "integrator %s with the acs solvers: sleep is not supported "
                    "(MuJoCo puts trees to sleep inside its own integrator); use Euler, implicit "
                    "or implicitfast, or the native solver", name);
    return -1;
  }
#if acsMJ_PLASTIC
  if (m->nplastic > 0) {
    acs_formatError(error, error_sz, "integrator %s with the acs solvers: plastic state is not "
                    "supported; use Euler, implicit or implicitfast, or the native solver", name);
    return -1;
  }
#endif
  for (int i=0; i < m->nu; i++) {
    if (!activationSupported(m, i)) {
      acs_formatError(error, error_sz, "integrator %s with the acs solvers: actuator %d has "
                      "activation dynamics acs cannot advance as MuJoCo does (DC motor, PID or a "
                      "rotational setpoint); use Euler, implicit or implicitfast, or the native "
                      "solver", name, i);
      return -1;
    }
  }
  return 0;
}


//---------------------------------- final update ---------------------------------------------------

// is actuator i disabled by its group (mjOption.disableactuator)
static int actuatorDisabled(const mjModel* m, int i) {
  int group = m->actuator_group[i];
  return group >= 0 && group <= 30 && (m->opt.disableactuator & (1 << group));
}


// activation act_adr of actuator i after one step with derivative act_dot: exact for the exact
// filter, Euler otherwise, clamped to actrange (MuJoCo's mj_nextActivation)
static mjtNum nextActivation(const mjModel* m, const mjData* d, int i, int act_adr,
                             mjtNum act_dot) {
  mjtNum act = d->act[act_adr];
  if (m->actuator_dyntype[i] == mjDYN_FILTEREXACT) {
    mjtNum tau = mju_max(mjMINVAL, m->actuator_dynprm[i*mjNDYN]);
    act = act + act_dot * tau * (1 - mju_exp(-m->opt.timestep / tau));
  } else {
    act = act + act_dot * m->opt.timestep;
  }
  if (m->actuator_actlimited[i]) {
    act = mju_clip(act, m->actuator_actrange[2*i], m->actuator_actrange[2*i+1]);
  }
  return act;
}


void acs_advance(const mjModel* m, mjData* d, const mjtNum* act_dot, const mjtNum* qacc,
                 const mjtNum* qvel) {
  if (m->na && !mjDISABLED(mjDSBL_ACTUATION)) {
    for (int i=0; i < m->nu; i++) {
      int adr = m->actuator_actadr[i], end = adr + m->actuator_actnum[i];
      for (int j=adr; j < end; j++) {
        d->act[j] = nextActivation(m, d, i, j, actuatorDisabled(m, i) ? 0 : act_dot[j]);
      }
    }
  }
  mju_addToScl(d->qvel, qacc, m->opt.timestep, m->nv);
  mj_integratePos(m, d->qpos, qvel ? qvel : d->qvel, m->opt.timestep);
  d->time += m->opt.timestep;
  for (int i=0; i < m->nplugin; i++) {
    const mjpPlugin* plugin = mjp_getPluginAtSlot(m->plugin[i]);
    if (plugin && plugin->advance) {
      plugin->advance(m, d, i);
    }
  }
  mju_copy(d->qacc_warmstart, d->qacc, m->nv);
}


//---------------------------------- RK4 ------------------------------------------------------------

int acs_rungeKutta(const mjModel* m, mjData* d, acsBuffer* work, acsBufferStats* mem,
                   char* error, int error_sz, acsfStage stage, void* arg) {
  int nq = m->nq, nv = m->nv, na = m->na, nx = nq + nv + na, nf = nv + na;
  mjtNum h = m->opt.timestep, time = d->time;
  if (acs_bufferReserve(mem, work, 4*nx + 4*nf + 2*nv + na + 1, sizeof(mjtNum))) {
    acs_formatError(error, error_sz, "out of memory for the RK4 stages");
    return -1;
  }
  mjtNum* X[4];
  mjtNum* F[4];
  mjtNum* buf = work->ptr;
  for (int i=0; i < 4; i++) {
    X[i] = buf + i*nx;
    F[i] = buf + 4*nx + i*nf;
  }
  mjtNum* dX = buf + 4*nx + 4*nf;

  // stage times t0 + c_i h, c_i the row sums of A
  mjtNum T[3];
  for (int i=1; i < 4; i++) {
    mjtNum c = 0;
    for (int j=0; j < i; j++) {
      c += kA[(i-1)*3+j];
    }
    T[i-1] = d->time + c*h;
  }

  // X0, F0: the step's forward was already run
  mju_copy(X[0], d->qpos, nq);
  mju_copy(X[0]+nq, d->qvel, nv);
  mju_copy(F[0], d->qacc, nv);
  if (na) {
    mju_copy(X[0]+nq+nv, d->act, na);
    mju_copy(F[0]+nv, d->act_dot, na);
  }

  // stages
  for (int i=1; i < 4; i++) {
    mju_zero(dX, 2*nv+na);
    for (int j=0; j < i; j++) {
      mju_addToScl(dX, X[j]+nq, kA[(i-1)*3+j], nv);
      mju_addToScl(dX+nv, F[j], kA[(i-1)*3+j], nv+na);
    }
    mju_copy(X[i], X[0], nx);
    mj_integratePos(m, X[i], dX, h);
    mju_addToScl(X[i]+nq, dX+nv, h, nv+na);
    mju_copy(d->qpos, X[i], nq);
    mju_copy(d->qvel, X[i]+nq, nv);
    if (na) {
      mju_copy(d->act, X[i]+nq+nv, na);
    }
    d->time = T[i-1];
    if (stage(m, d, arg)) {
      // refused at a stage: the state of the step's start, nothing integrated
      d->time = time;
      mju_copy(d->qpos, X[0], nq);
      mju_copy(d->qvel, X[0]+nq, nv);
      mju_copy(d->act, X[0]+nq+nv, na);
      return -1;
    }
    mju_copy(F[i], d->qacc, nv);
    if (na) {
      mju_copy(F[i]+nv, d->act_dot, na);
    }
  }

  // final update from X0 with the weighted stages
  mju_zero(dX, 2*nv+na);
  for (int j=0; j < 4; j++) {
    mju_addToScl(dX, X[j]+nq, kB[j], nv);
    mju_addToScl(dX+nv, F[j], kB[j], nv+na);
  }
  d->time = time;
  mju_copy(d->qpos, X[0], nq);
  mju_copy(d->qvel, X[0]+nq, nv);
  mju_copy(d->act, X[0]+nq+nv, na);
  acs_advance(m, d, dX+2*nv, dX+nv, dX);
#if acsMJ_RK4_STEP_QACC
  mju_copy(d->qacc, dX+nv, nv);
#endif
  return 0;
}
