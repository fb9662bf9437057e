// Copyright 2026 The acs authors.
//
// Integrators acs runs itself because MuJoCo's would call its own constraint solver: RK4.

#ifndef ACS_PLUGIN_INTEGRATOR_H_
#define ACS_PLUGIN_INTEGRATOR_H_

#include <mujoco/mujoco.h>
#include <acs/acs_types.h>

// the forward of a Runge-Kutta stage (position, velocity, acceleration and constraint stages,
// sensors and energy skipped); return 0, or -1 if the step must be refused
typedef int (*acsfStage)(const mjModel* m, mjData* d, acsContext* ctx);

// Can acs's RK4 advance model m as MuJoCo's does (no history buffers, sleep, plastic state, DC
// motor or PID activations, rotational setpoints). Return 0, or -1 with a message.
int acs_rk4Supported(const mjModel* m, char* error, int error_sz);

// One RK4 step (mj_RungeKutta(m, d, 4) with stage() at the three intermediate stages), after the
// step's forward. Return 0, or -1 if a stage was refused (reason in ctx->error; the state is the
// step's start, nothing integrated).
int acs_rungeKutta(const mjModel* m, mjData* d, acsContext* ctx, acsfStage stage);

#endif  // ACS_PLUGIN_INTEGRATOR_H_
