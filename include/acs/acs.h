// Copyright 2026 The acs authors.
//
// acs: alternative contact solvers for MuJoCo. Public API.
//
// acs_step / acs_forward replace mj_step / mj_forward: they run MuJoCo's stages in MuJoCo's order
// and replace only the constraint stage (mj_fwdConstraint) by the selected contact solver. The
// outputs efc_force, qfrc_constraint and qacc are consistent with each other, so sensors,
// mj_contactForce, rendering and the Euler and implicit integrators work unchanged.

#ifndef ACS_ACS_H_
#define ACS_ACS_H_

#include <stddef.h>

#include <mujoco/mujoco.h>
#if mjVERSION_HEADER >= 3017000
#include <mujoco/mjbatch.h>
#endif
#include <acs/acs_export.h>
#include <acs/acs_types.h>
#include <acs/acs_version.h>

#ifdef __cplusplus
extern "C" {
#endif

//---------------------------------- settings ------------------------------------------------------

// Set settings to their default values.
ACS_API void acs_defaultSettings(acsSettings* settings);

// Apply the model's configuration: <custom> text/numeric fields named acs_* and the config of an
// acs.solver plugin instance. Return 0 on success; otherwise -1 with a message naming the field.
ACS_API int acs_modelSettings(acsSettings* settings, const mjModel* m, char* error, int error_sz);

// Set one option by name, as in the model: "acs_tolerance" or "tolerance", value as text.
// Return 0 on success; otherwise -1 with a message naming the field and its allowed values.
ACS_API int acs_setOption(acsSettings* settings, const char* key, const char* value,
                          char* error, int error_sz);

// Check every field. Return 0 if valid; otherwise -1 with a message naming the first bad field.
ACS_API int acs_validateSettings(const acsSettings* settings, char* error, int error_sz);

// The iteration budget of a solve with these settings: maxiter, or where it is 0 (the default)
// the solver's own budget (pgs, admm and ccp-admm 300, the others 100).
ACS_API int acs_maxiter(const acsSettings* settings);

// Write a one-line description of every option (name, unit, default, range) to buf.
ACS_API void acs_describeOptions(char* buf, int buf_sz);

// Number of options.
ACS_API int acs_optionCount(void);

// Name of option i without the acs_ prefix ("tolerance"), or NULL if out of range.
ACS_API const char* acs_optionName(int i);

// Type of option i (acstOption), or -1 if out of range.
ACS_API int acs_optionType(int i);

// Write the value of one option, named as for acs_setOption, as text to value: a solver name,
// an integer ("%d", booleans 0 or 1) or a number ("%.17g", exact when read back). Return 0 on
// success; otherwise -1 with a message naming the option.
ACS_API int acs_getOption(char* value, int value_sz, const acsSettings* settings, const char* key,
                          char* error, int error_sz);


//---------------------------------- context -------------------------------------------------------

// Make a context for model m (and its copies). settings: NULL for defaults overridden by the
// model's configuration. Return NULL and write a message to error if the settings or the model are
// not supported (the message names what: for example RK4 with sleep, with the acs solvers).
// Nullable: settings, error
ACS_API acsContext* acs_makeContext(const mjModel* m, const acsSettings* settings,
                                    char* error, int error_sz);

// Free a context.
// Nullable: ctx
ACS_API void acs_deleteContext(acsContext* ctx);

// Replace the settings of a context. Return 0 on success; -1 with a message if invalid.
ACS_API int acs_setSettings(acsContext* ctx, const acsSettings* settings,
                            char* error, int error_sz);

// Settings of a context (NULL if ctx is NULL).
ACS_API const acsSettings* acs_getSettings(const acsContext* ctx);

// Forget the warm-start cache (call after mj_resetData or when setting a new state).
ACS_API void acs_resetContext(acsContext* ctx);

// Statistics of the last step, forward or evaluate (NULL if ctx is NULL).
ACS_API const acsStats* acs_getStats(const acsContext* ctx);

// Reason of the last step that was refused (acsSTATUS_ERROR) or diverged (acsSTATUS_DIVERGED);
// "" otherwise.
ACS_API const char* acs_lastError(const acsContext* ctx);


//---------------------------------- simulation ----------------------------------------------------

// Advance the simulation with the context's solver (replaces mj_step). Return an acstStatus.
// acsSTATUS_ERROR: the step was refused (a model the context was not made for, a model acs cannot
// run, out of memory; reason in acs_lastError): it did not integrate, and the state of d
// (mjSTATE_INTEGRATION), qacc, qfrc_constraint and the warnings are as they were (efc_force is
// zero). acsSTATUS_DIVERGED: the input, the problem, the forces or the resulting state were not
// finite, or MuJoCo's bad-acceleration check fired (reason in acs_lastError; MuJoCo's checks reset
// a bad state, as in mj_step).
ACS_API int acs_step(const mjModel* m, mjData* d, acsContext* ctx);

// Forward dynamics with the context's solver (replaces mj_forward). Return an acstStatus, as
// acs_step.
ACS_API int acs_forward(const mjModel* m, mjData* d, acsContext* ctx);

// Compute the metrics of the constraint forces currently in d (for example after a plain mj_step
// or mj_forward), with the same code as for every acs solver. The energy is that of the state in d.
ACS_API int acs_evaluate(const mjModel* m, mjData* d, acsContext* ctx);


//---------------------------------- batches (MuJoCo >= 3.17) -------------------------------------

#if mjVERSION_HEADER >= 3017000
// Step simulations of a MuJoCo batch (mjbatch.h) nstep times with acs, on the batch's thread pool
// (mjb_apply), saving their state rows as mjb_step does. ctx: one context per simulation (nsim;
// a simulation keeps its warm start in its context, so results do not depend on the threads).
// ids: the simulations (sorted, unique), NULL for all (nid ignored). control: NULL, or
// (n x nstep x mj_stateSize(m, control_spec)) values set with mj_setState before each step, n the
// number of simulations of the call; control_spec: mjtState bits within mjSTATE_USER. status
// (nsim, Nullable): each stepped simulation's last acstStatus; a simulation stops at a refused
// step (acsSTATUS_ERROR). Return the number of simulations stopped by a refused step or a MuJoCo
// error, or -1 if the arguments are invalid (message in error).
// Nullable: status, ids, control, error
ACS_API int acs_batchStep(int* status, mjBatch* b, acsContext* const* ctx, const int* ids,
                          int nid, int nstep, const mjtNum* control, int control_spec,
                          char* error, int error_sz);
#endif


//---------------------------------- stand-alone problems ------------------------------------------

// Workspace in bytes needed by acs_solve for problem p; 0 if p or settings is NULL or invalid (then
// acs_solve says why).
// Nullable: p, settings
ACS_API size_t acs_workspaceSize(const acsProblem* p, const acsSettings* settings);

// Solve problem p with settings->solver (not native). force: warm start on input (finite),
// solution on output (nefc). work: at least acs_workspaceSize bytes. state: carried between
// solves (may be NULL; initialize with acs_defaultSolverState). The problem, the settings and the
// arguments are checked first (acs_checkProblem and what the solver needs): a bad input returns
// acsSTATUS_ERROR with a message naming the field in error, and force is left as it was. Return an
// acstStatus; stats may be NULL.
// Nullable: stats, state, error
ACS_API int acs_solve(mjtNum* force, acsStats* stats, acsSolverState* state, const acsProblem* p,
                      const acsSettings* settings, void* work, size_t work_sz,
                      char* error, int error_sz);

// Reset a solver state (no information from a previous solve).
ACS_API void acs_defaultSolverState(acsSolverState* state);

// Contact law solver s solves (NCP, CCP or LCP), or -1 for native or out of range.
ACS_API int acs_solverModel(int solver);

// Residual of force on problem p for a contact law (acstModel); acsMODEL_NCP gives
// acsStats.residual. scratch: nv + nefc numbers. NaN if an input is invalid (a NULL pointer, a
// model out of range, a problem acs_checkProblem refuses or without Y).
ACS_API mjtNum acs_problemResidual(mjtNum* scratch, const mjtNum* force, const acsProblem* p,
                                   int model);

// Fill the physical criteria of stats (residual, signorini, coulomb, mdp, penetration, slip) for
// force on problem p. scratch: nv + nefc numbers. If an input is invalid (as for
// acs_problemResidual) the criteria are NaN and stats->status is acsSTATUS_ERROR.
// Nullable: stats
ACS_API void acs_evaluateProblem(acsStats* stats, mjtNum* scratch, const mjtNum* force,
                                 const acsProblem* p);

// Check a problem for consistent sizes and finite values. Return 0 if valid; otherwise -1 with a
// message naming the field.
ACS_API int acs_checkProblem(const acsProblem* p, char* error, int error_sz);


//---------------------------------- versions ------------------------------------------------------

// Version of the acs library loaded at run time (ACS_VERSION of the headers it was built with).
ACS_API int acs_version(void);

// The same as text, "0.2.0".
ACS_API const char* acs_versionString(void);

// Check that the MuJoCo library loaded at run time is the version acs was built against (its
// mjVERSION_HEADER). Return 0 if it is; otherwise -1 with a message naming both versions.
// acs_makeContext calls it.
ACS_API int acs_checkMuJoCoVersion(char* error, int error_sz);


//---------------------------------- names ---------------------------------------------------------

// Name of a solver ("native", "pgs", "admm", "raisim", "lcp-pgs", "ccp-pgs", "ccp-admm",
// "lagged", "similar"), or NULL.
ACS_API const char* acs_solverName(int solver);

// One-line description of a solver (contact law and method), or NULL.
ACS_API const char* acs_solverDescription(int solver);

// Solver with the given name, or -1 if unknown.
ACS_API int acs_solverId(const char* name);

// Name of a status value, or NULL if out of range.
ACS_API const char* acs_statusName(int status);

// Register the engine plugin "acs.solver" (configuration carrier) with MuJoCo. Idempotent; runs
// automatically when the library is loaded. Return the plugin slot, or -1 if the MuJoCo loaded is
// not the version acs was built for.
ACS_API int acs_registerPlugin(void);

#ifdef __cplusplus
}
#endif

#endif  // ACS_ACS_H_
