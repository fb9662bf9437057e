// Copyright 2026 The acs authors.
//
// Types of acs, the alternative contact solvers for MuJoCo: enums, the contact problem, settings
// and statistics. Units are SI. Solvers work on forces (impulse / timestep), so tolerances do not
// depend on the timestep.

#ifndef ACS_ACS_TYPES_H_
#define ACS_ACS_TYPES_H_

#include <stddef.h>

#include <mujoco/mujoco.h>

#define acsNHISTORY 200           // per-iteration residuals recorded in acsStats (like mjNSOLVER)
#define acsNERROR   512           // size of error message buffers
#define acsCOOKIE   0x61637331    // set by acs_defaultSettings, checked by every consumer


//---------------------------------- enums ---------------------------------------------------------

typedef enum acstSolver_ {        // contact model and solver
  acsSOL_NATIVE = 0,              // MuJoCo's own mj_fwdConstraint (soft convex model)
  acsSOL_PGS,                     // NCP with De Saxce correction, projected Gauss-Seidel
  acsSOL_ADMM,                    // NCP with De Saxce fixed point, ADMM (spectral penalty)
  acsSOL_RAISIM,                  // RaiSim: per-contact root search on the sliding ellipse
  acsSOL_LCP_PGS,                 // LCP (box-linearized cone), projected Gauss-Seidel
  acsSOL_CCP_PGS,                 // CCP (convex relaxation), projected Gauss-Seidel
  acsSOL_CCP_ADMM,                // CCP (convex relaxation), ADMM
  acsSOL_LAGGED,                  // Irrotational Contact Fields, Lagged model (Newton)
  acsSOL_SIMILAR,                 // Irrotational Contact Fields, Similar model (Newton)

  acsNSOLVER                      // number of solvers
} acstSolver;

typedef enum acstModel_ {         // contact law a solution is checked against
  acsMODEL_NCP = 0,               // K ∋ f _|_ a + Gamma(a) ∈ K*  (Signorini, Coulomb, max. dissipation)
  acsMODEL_CCP,                   // K ∋ f _|_ a ∈ K*            (convex relaxation: gliding)
  acsMODEL_LCP,                   // box cone |f_k| <= mu_k f_n with the L1 De Saxce term
  acsMODEL_COMPLIANT,             // compliant potentials (lagged, similar): no complementarity;
                                  //   residuals are reported against the NCP

  acsNMODEL                       // number of models
} acstModel;

typedef enum acstStatus_ {        // outcome of a solve or a step
  acsSTATUS_CONVERGED = 0,        // residual <= tolerance
  acsSTATUS_MAXITER,              // iteration budget used up (forces are the last iterate)
  acsSTATUS_STALLED,              // relative change <= rel_tolerance before reaching tolerance
  acsSTATUS_EMPTY,                // no constraint rows: nothing to solve
  acsSTATUS_NATIVE,               // MuJoCo's solver ran (its own convergence test)
  acsSTATUS_DIVERGED,             // non-finite iterate or input: forces set to zero
  acsSTATUS_ERROR,                // step refused (see acs_lastError): state unchanged

  acsNSTATUS                      // number of status values
} acstStatus;

typedef enum acstMetrics_ {       // what a step measures (settings.metrics)
  acsMETRICS_OFF = 0,             // nothing: no metric work in the step; the metrics are NaN
  acsMETRICS_CHEAP,               // what the step already has: the solver's final NCP residual
                                  //   (dual solvers), the contact count and the deepest penetration
  acsMETRICS_FULL,                // every criterion of acsStats and the energy (one more product
                                  //   with J and M^-1 J', and MuJoCo's energy)

  acsNMETRICS                     // number of levels
} acstMetrics;

typedef enum acstOption_ {        // type of an option (acs_optionType)
  acsOPTION_SOLVER = 0,           // solver name (text)
  acsOPTION_INT,                  // integer
  acsOPTION_NUM,                  // number
  acsOPTION_BOOL,                 // 0 or 1

  acsNOPTIONTYPE                  // number of option types
} acstOption;

typedef enum acstBlock_ {         // kind of a block of constraint rows
  acsBLOCK_EQUALITY = 0,          // bilateral: the rows of one equality constraint, force free
  acsBLOCK_FRICTION,              // friction loss (dof or tendon): |f| <= frictionloss, 1 row
  acsBLOCK_LIMIT,                 // joint or tendon limit: f >= 0, 1 row
  acsBLOCK_CONTACT,               // contact: 1, 3, 4 or 6 rows in the contact frame, normal first

  acsNBLOCK                       // number of block kinds
} acstBlock;


//---------------------------------- problem -------------------------------------------------------

// The constraint problem of one step, in force units:
//   find f (N, or N m for rotational rows) such that, with  a = G f + b,  G = J M^-1 J' + diag(R),
//   every block satisfies its law:  equality a = 0;  friction loss  f in [-fl, fl] and a in the
//   normal cone of that box;  limit  0 <= f  _|_  a >= 0;  contact  K ∋ f _|_ a + Gamma(a) ∈ K*
//   where K = {f : ||(f_k / mu_k)_k|| <= f_n} and Gamma(a) = (||(mu_k a_k)_k||, 0, ..., 0).
// a is the biased constraint velocity divided by the timestep: a = (J v+ - v*) / h.
// G is never formed: J (rows of the Jacobian) and Y = (M^-1 J')' are given as sparse rows, so
// G_ij = J_i . Y_j. A hand-built problem with a given SPD G can use J = Y = chol(G), nv = nefc.
// All arrays are owned by the caller (acsContext or a test); the problem only points at them.
typedef struct acsProblem_ {
  int nv;                         // number of degrees of freedom
  int nefc;                       // number of constraint rows
  int nblock;                     // number of blocks
  mjtNum timestep;                // time step (s)
  int pyramid;                    // contact forces come from MuJoCo's pyramidal cone (native
                                  //   solver): the sticking test of the slip metric uses it

  // blocks
  const int*    block_type;       // block kind (acstBlock)                           (nblock x 1)
  const int*    block_dim;        // rows in block: equality 1..6, contact 1/3/4/6    (nblock x 1)
  const int*    block_adr;        // first row of block                               (nblock x 1)
  const int*    block_id;         // MuJoCo id: eq, dof/tendon, joint/tendon, contact (nblock x 1)
  const mjtNum* block_mu;         // contact friction (tangent1, tangent2, spin, roll1, roll2)
                                  //   used: the first dim-1 entries                (nblock x 5)
  const mjtNum* block_floss;      // friction-loss bound (N or N m); unused otherwise (nblock x 1)
  const mjtNum* block_pos;        // signed distance (contact, limit; < 0: penetration) or
                                  //   violation norm (equality), m or rad          (nblock x 1)

  // islands: groups of blocks coupled through shared kinematic trees (G is block-diagonal
  // over islands, and the rows of two islands touch no dof in common: the solvers keep each
  // island's products on its own dofs). Nullable: block_island NULL means one island holding
  // every block
  int           nisland;          // number of islands
  const int*    block_island;     // island of block                                (nblock x 1)
  const int*    island_nefc;      // rows in island                                 (nisland x 1)

  // compliant contact (lagged, similar); Nullable: the settings' defaults
  const mjtNum* block_stiffness;  // contact stiffness, N/m                         (nblock x 1)
  const mjtNum* block_dissipation;  // Hunt & Crossley dissipation, s/m            (nblock x 1)

  // rows
  const mjtNum* b;                // free acceleration including the bias:  a = G f + b (nefc x 1)
  const mjtNum* R;                // compliance added to diag(G); Nullable: zero      (nefc x 1)
  const mjtNum* vel;              // constraint velocity at the start of the step J qvel, m/s
                                  //   (MuJoCo's efc_vel: includes surface velocity)  (nefc x 1)
  const mjtNum* vfree;            // free constraint velocity after the step J v*, m/s,
                                  //   v* = qvel + h qacc_smooth (no bias)             (nefc x 1)
  const mjtNum* pos;              // constraint violation: signed distance (contact and limit
                                  //   normal rows), residual (equality), 0 otherwise (nefc x 1)

  // sparse Jacobian J (CSR) and Y = M^-1 J' stored by rows (CSR); the rows of a block share
  // their column pattern. Y is Nullable: only the dual solvers (pgs, admm, raisim and their
  // relaxations) and acs_evaluateProblem use it, and B (below) replaces it. nnzJ, nnzY: the length
  // of the value and index arrays (every row must lie inside them)
  int           nnzJ;             // entries in J_colind and J
  int           nnzY;             // entries in Y_colind and Y
  const int*    J_rownnz;         // non-zeros in row                                 (nefc x 1)
  const int*    J_rowadr;         // row address in J_colind and J                    (nefc x 1)
  const int*    J_colind;         // column (dof) indices                             (nnzJ x 1)
  const mjtNum* J;                // values                                           (nnzJ x 1)
  const int*    Y_rownnz;         // non-zeros in row of Y                            (nefc x 1)
  const int*    Y_rowadr;         // row address in Y_colind and Y                    (nefc x 1)
  const int*    Y_colind;         // column (dof) indices                             (nnzY x 1)
  const mjtNum* Y;                // values                                           (nnzY x 1)

  // factor-space rows B = D^-1/2 L^-T J' by rows, with M = L' D L the factor of the step's matrix
  // (MuJoCo's qLD layout): G = B B' + diag(R). Sparser than Y: a row covers the ancestors of its
  // dofs, not their whole trees. Nullable: when given, the dual solvers and acs_problemResidual /
  // acs_evaluateProblem use B for G (and need neither J nor Y for it); acs_step gives it to them
  int           nnzB;             // entries in B_colind and B
  const int*    B_rownnz;         // non-zeros in row of B                            (nefc x 1)
  const int*    B_rowadr;         // row address in B_colind and B                    (nefc x 1)
  const int*    B_colind;         // column (dof) indices                             (nnzB x 1)
  const mjtNum* B;                // values                                           (nnzB x 1)

  // mass matrix, lower triangle in MuJoCo's sparse layout (row i: ancestors of dof i, then i,
  // rows stored one after the other); needed by the primal solvers (lagged, similar); Nullable
  // otherwise
  int           nnzM;             // entries in M_colind and M
  const int*    M_rownnz;         // non-zeros in row                                 (nv x 1)
  const int*    M_rowadr;         // row address                                      (nv x 1)
  const int*    M_colind;         // column indices, ascending, diagonal last         (nC x 1)
  const mjtNum* M;                // values                                           (nC x 1)

  // for the primal solvers (lagged, similar), Nullable: the factor M = L' D L in M's layout
  // (MuJoCo's qLD: L's strictly lower entries, D on the diagonal) with D^-1; not given, they
  // factor M themselves. And the velocity change that keeps the start-of-step velocities,
  // qvel - v* = -h qacc_smooth: their warm start when it costs less than the previous forces'
  const mjtNum* M_LD;             // the factor's values, M's pattern                 (nC x 1)
  const mjtNum* M_Dinv;           // D^-1                                             (nv x 1)
  const mjtNum* u0;               // qvel - v*                                        (nv x 1)
} acsProblem;


//---------------------------------- settings ------------------------------------------------------

// Solver settings. Initialize with acs_defaultSettings; the model's <custom> fields and
// acs.solver plugin config override the defaults; acs_setOption overrides the model.
typedef struct acsSettings_ {
  int    solver;                  // contact solver (acstSolver)                   default: pgs
  int    maxiter;                 // maximum iterations per solve, [0, 1e6]; 0: the
                                  //   solver's budget (acs_maxiter)                default: 0
  mjtNum tolerance;               // stop when the NCP residual <= tolerance, >= 0  default: 1e-6
                                  //   (force-scaled units: N * m/s^2)
  mjtNum rel_tolerance;           // stop when max|f_k - f_k-1| <= rel_tolerance max|f_k|,
                                  //   >= 0; 0 disables                             default: 1e-12
  mjtNum omega;                   // over-relaxation: Gauss-Seidel step, ADMM x <- omega x +
                                  //   (1 - omega) y, (0, 2)                        default: 1
  int    subspace;                // subspace minimization, a Newton step on the rows held with
                                  //   equality (sticking contacts) once the active set settles:
                                  //   0 off, 1 pgs, 2 pgs and raisim               default: 2
  mjtNum baumgarte;               // fraction of penetration (beyond slop) and of equality
                                  //   violation removed per step, [0, 1]           default: 0.2
  mjtNum slop;                    // penetration of contacts and limits left uncorrected, m
                                  //   (rad for angular limits), >= 0; keeps resting contacts
                                  //   from separating and re-colliding             default: 1e-4
  mjtNum max_correction;          // cap of the stabilization velocity baumgarte * violation / h,
                                  //   m/s (rad/s for angular rows), > 0 (inf: no cap)
                                  //                                            default: 1
  int    consistent_stabilization;  // make the recovery velocities of a body pair's contacts
                                  //   those of one motion (a foot on four capsule ends), 0/1
                                  //                                                default: 1
  mjtNum restitution;             // Newton restitution coefficient of contacts, [0, 1] default: 0
  mjtNum restitution_vel;         // minimum approach speed for restitution, m/s, >= 0 default: 0.01
  mjtNum compliance;              // R = compliance * diag(J M^-1 J'), dimensionless, >= 0;
                                  //   0: hard constraints                          default: 0
  int    warmstart;               // start from the matched forces of the previous step, 0/1
                                  //                                                default: 1
  mjtNum warmstart_radius;        // contacts of one geom pair match when their positions are
                                  //   closer than this, m, > 0                     default: 0.02
  int    metrics;                 // metrics every step (acstMetrics): 0 off, 1 cheap, 2 full
                                  //                                                default: 2

  // ADMM (admm, ccp-admm); it runs on the problem scaled to a unit Delassus diagonal, so its
  // penalties are dimensionless
  mjtNum admm_rho;                // initial penalty; 0: spectral rule sqrt(L m) (L/m)^power
                                  //   with L = lambda_max(G~), m = admm_prox    default: 0
  mjtNum admm_prox;               // proximal weight eta, > 0                   default: 1e-6
  mjtNum admm_power;              // exponent of the spectral initial penalty   default: 0.2
  mjtNum admm_factor;             // penalty update: rho *= (L/m)^factor, >= 0  default: 0.05
  int    admm_anderson;           // Anderson acceleration of the ADMM iteration from its 10th
                                  //   iteration on: differences kept, [0, 5]; 0 off  default: 5
  mjtNum admm_ratio;              // primal/dual residual ratio triggering an update, > 1
                                  //                                            default: 10
  int    admm_subspace;           // admm: first the subspace step of the Gauss-Seidel driver on
                                  //   the warm start, its least change of the forces kept if it
                                  //   converges; 0 off, 1 on                       default: 1
  int    admm_check;              // iterations per residual test and penalty update, [1, 10]
                                  //                                            default: 2
  int    admm_polish;             // admm: the subspace step on the iterate every this-many
                                  //   iterations once the residual is below 1000 tolerances (at
                                  //   most 2 a solve), and on the last iteration, kept if it
                                  //   converges; [0, 1000], 0 off                 default: 10

  // Irrotational Contact Fields (lagged, similar): compliant Hunt & Crossley contact
  mjtNum stiffness;               // contact stiffness k, N/m, > 0 (per-geom overrides:
                                  //   <custom> numeric acs_stiffness@GEOM)         default: 1e6
  mjtNum dissipation;             // Hunt & Crossley dissipation d, s/m, >= 0 (per geom:
                                  //   acs_dissipation@GEOM)                       default: 10
  mjtNum stiction_tolerance;      // regularization velocity of friction v_s, m/s, > 0
                                  //                                            default: 1e-4
  int    near_rigid;              // clamp stiffness to the near-rigid limit 4 pi^2 / (w h^2), 0/1
                                  //                                            default: 0
  mjtNum newton_tolerance;        // relative momentum residual ending the Newton iterations
                                  //                                            default: 1e-5

  // RaiSim (raisim)
  mjtNum raisim_alpha;            // initial relaxation of the contact update, (0, 1] default: 1
  mjtNum raisim_alpha_min;        // its floor, (0, 1]                          default: 0.1
  mjtNum raisim_gamma;            // its decay per sweep: a <- g a + (1-g) a_min, [0, 1] default: 0.99
  mjtNum raisim_bisection_tol;    // root search stop: bracket width, N, > 0  default: 1e-8
  int    raisim_desaxce;          // 1: RAISIM-DS, the slide step with the De Saxce correction
                                  //   (converges to the NCP), 0: RaiSim's own  default: 0

  int    cookie;                  // set by acs_defaultSettings; do not set
} acsSettings;


//---------------------------------- solver state --------------------------------------------------

// State a solver carries from one solve to the next (warm start beyond the forces).
typedef struct acsSolverState_ {
  mjtNum admm_rho;                // ADMM: penalty at the end of the last solve; NaN: none
} acsSolverState;


//---------------------------------- statistics ----------------------------------------------------

// Outcome of the last step: solver convergence and physical criteria, computed the same way for
// every solver (native included) from the same problem. Fixed size, no allocation.
typedef struct acsStats_ {
  int    status;                  // acstStatus
  int    solver;                  // acstSolver that produced the forces
  int    niter;                   // iterations performed, over every solve of the step (native:
                                  //   MuJoCo's solver_niter)
  int    nefc;                    // constraint rows (acs layout: contacts in the contact frame)
  int    ncontact;                // contact blocks
  int    nwarm;                   // blocks whose initial force came from the previous step
  int    nfactor;                 // matrix factorizations (ADMM: one per penalty change; pgs,
                                  //   raisim: subspace steps tried)
  int    nevaluation;             // line-search evaluations, an island's each (lagged, similar)
  int    unstabilized;            // 1: some islands were solved without their stabilization
                                  //   (Baumgarte, restitution): with it, their solve diverged
                                  //   (an overlap the model cannot resolve, a weld pulling a
                                  //   body into a floor make the biased problem infeasible)
  mjtNum rho;                     // ADMM penalty at the end of the solve, dimensionless: relative
                                  //   to the unit diagonal of the scaled Delassus matrix

  // physical criteria, by settings.metrics: full, all of them; cheap, residual, penetration and
  // ncontact, the others NaN; off, none (NaN, ncontact 0) but the residual. residual: with full,
  // evaluated on the forces returned; otherwise the solver's own residual of the forces it returned
  // (pgs, raisim, admm and their relaxations: part of their stopping test; lagged and similar: with
  // cheap only, with the velocity of the last Newton iterate, G f + b up to the Newton
  // tolerance), NaN where there is none (native)
  mjtNum residual;                // NCP residual with De Saxce correction, max over blocks
  mjtNum signorini;               // max |f_n a_n| over contacts and limits
  mjtNum coulomb;                 // max distance of a contact force to its friction cone (N)
  mjtNum mdp;                     // max maximum-dissipation gap f_t.a_t + f_n ||mu a_t||
  mjtNum penetration;             // max penetration depth over contacts (m)
  mjtNum slip;                    // max tangential speed of sticking contacts after the step (m/s)
  mjtNum energy;                  // kinetic + potential energy of the state (J)

  // timing, wall-clock microseconds
  mjtNum time_constraint;         // the whole constraint stage, metrics excluded
  mjtNum time_problem;            // building the problem and the warm start
  mjtNum time_solve;              // the solver (native: mj_fwdConstraint)
  mjtNum time_metrics;            // evaluating the metrics (native: includes building the problem)

  // per-iteration NCP residual of the solver (first acsNHISTORY iterations: a solve may run more,
  // as MuJoCo's past mjNSOLVER; the default budget of pgs, admm and ccp-admm is 300); NaN for an
  // iteration that did not measure it (pgs, raisim and their relaxations: after their first 10
  // sweeps, every 5th sweep measures it, the stopping test)
  int    nhistory;                // entries recorded
  mjtNum history[acsNHISTORY];    // residual after each iteration
} acsStats;


//---------------------------------- context -------------------------------------------------------

// Per-mjData state of acs: settings, buffers sized for the problem, warm-start cache, statistics.
// Opaque; create with acs_makeContext, free with acs_deleteContext. One context per mjData.
typedef struct acsContext_ acsContext;

#endif  // ACS_ACS_TYPES_H_
