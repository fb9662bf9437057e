// Copyright 2026 The acs authors.
//
// Integrators acs runs itself because MuJoCo's would call its own constraint solver: RK4, and the
// final update of the discrete integrator.

#ifndef ACS_PLUGIN_INTEGRATOR_H_
#define ACS_PLUGIN_INTEGRATOR_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>
#include "util_errmem.h"

// the forward of a Runge-Kutta stage (position, velocity, acceleration and constraint stages,
// sensors and energy skipped) with the caller's arg; return 0, or -1 if the step must be refused
typedef int (*acsfStage)(const mjModel* m, mjData* d, void* arg);

// Can acs's final update (acs_advance) advance model m as MuJoCo's does (no history buffers,
// sleep, plastic state, DC motor or PID activations, rotational setpoints); name: the integrator,
// for the message. Return 0, or -1 with a message.
int acs_advanceSupported(const mjModel* m, const char* name, char* error, int error_sz);

// MuJoCo's mj_advance for the models acs_advanceSupported accepts: activations with act_dot,
// qvel += h qacc, qpos integrated with qvel (if given) or the new d->qvel, time, plugin states,
// qacc_warmstart
void acs_advance(const mjModel* m, mjData* d, const mjtNum* act_dot, const mjtNum* qacc,
                 const mjtNum* qvel);

// One RK4 step (mj_RungeKutta(m, d, 4) with stage(m, d, arg) at the three intermediate stages),
// after the step's forward; work: the stages' buffer (grown through mem). Return 0, or -1 if a
// stage was refused or memory ran out (the state is the step's start, nothing integrated; out
// of memory: a message in error).
int acs_rungeKutta(const mjModel* m, mjData* d, acsBuffer* work, acsBufferStats* mem,
                   char* error, int error_sz, acsfStage stage, void* arg);

#endif  // ACS_PLUGIN_INTEGRATOR_H_
