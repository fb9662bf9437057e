// Copyright 2026 The acs authors.
//
// acs_step / acs_forward: MuJoCo's stages in MuJoCo's order (mj_step, mj_forwardSkip and
// mj_checkAcc of engine_forward.c, MuJoCo 3.12), with only the constraint stage replaced:
//
//   mjModel, mjData --MuJoCo stages--> contacts, efc rows, M factor, qacc_smooth
//     --problem.c--> acsProblem --warmstart.c--> initial forces --solver_*.c--> forces
//     --problem.c--> efc_force, qfrc_constraint, qacc --MuJoCo--> sensors, integrator
//
// A step that cannot be completed (out of memory, a model the context was not made for, a model
// acs cannot run) is refused: it returns acsSTATUS_ERROR with the reason in acs_lastError and does
// not integrate, so the state of mjData (everything mj_getState saves), qacc and qfrc_constraint
// are as they were. Everything that can fail inside the constraint stage happens before it writes
// to mjData.
//
// A step reports acsSTATUS_DIVERGED, with the reason in acs_lastError, when its input is not
// finite (MuJoCo's own checks reset the state, as in mj_step), its problem or solution is not
// finite (zero constraint forces), MuJoCo's bad-acceleration check fires, or the state it leaves
// is not finite.

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "forces.h"
#include "integrator.h"
#include "metrics.h"
#include "mjcompat.h"
#include "operator.h"
#include "problem.h"
#include "residual.h"
#include "solver.h"
#include "solver_util.h"
#include "sparse.h"
#include "util_errmem.h"
#include "warmstart.h"



//---------------------------------- metrics -------------------------------------------------------

// kinetic + potential energy of the state in d, leaving d->energy and its flags as they were
static mjtNum stateEnergy(const mjModel* m, mjData* d) {
  mjtNum e0 = d->energy[0], e1 = d->energy[1];
  mjtBool fp = d->flg_energypos, fv = d->flg_energyvel;
  mj_energyPos(m, d);
  mj_energyVel(m, d);
  mjtNum energy = d->energy[0] + d->energy[1];
  d->energy[0] = e0;
  d->energy[1] = e1;
  d->flg_energypos = fp;
  d->flg_energyvel = fv;
  return energy;
}


// metrics of the forces in ctx->force for the problem in ctx->problem; their velocity
// a = G f + b comes from MuJoCo's qacc = qacc_smooth + M^-1 J' f: J (qacc - qacc_smooth) + b
// (damped Euler: the step integrates with M + hB, so (M + hB)^-1 qfrc_constraint; a problem in
// factor space: B D^-1/2 L^-T qfrc_constraint with the step's factor)
static void evaluate(acsContext* ctx, const mjModel* m, mjData* d) {
  const acsProblem* p = &ctx->problem;
  mjtNum* w = acsBUF(ctx, scratch, mjtNum);
  mjtNum* a = w + p->nv;
  const mjtNum* force = acsBUF(ctx, force, mjtNum);
  if (p->B) {
    // the problem's rows are B = D^-1/2 L^-T J': w = D^-1/2 L^-T qfrc_constraint, so that B w =
    // J (step matrix)^-1 qfrc_constraint
    const mjtNum *qLD, *qLDiagInv;
    acs_mjStepFactor(&qLD, &qLDiagInv, m, d);
    qLD = ctx->damped ? acsBUF(ctx, Hfac, mjtNum) : qLD;
    mju_copy(w, d->qfrc_constraint, p->nv);
    acs_halfSolveLD(w, m->M_rownnz, m->M_rowadr, m->M_colind, qLD,
                    acsBUF(ctx, dof_sdinv, mjtNum), NULL, p->nv);
  } else if (ctx->damped) {
    mju_copy(w, d->qfrc_constraint, p->nv);
    acs_solveLD(w, m->M_rownnz, m->M_rowadr, m->M_colind, acsBUF(ctx, Hfac, mjtNum),
                acsBUF(ctx, Hdinv, mjtNum), 0, p->nv);
  } else {
    mju_sub(w, d->qacc, d->qacc_smooth, p->nv);
  }
  acs_velocity(a, p, w, force);
  acs_evaluateVelocity(&ctx->stats, force, a, p);
  ctx->stats.energy = stateEnergy(m, d);
}


// The metrics of a step at the level settings.metrics (acstMetrics). full: every criterion of the
// forces in ctx->force for ctx->problem (evaluate). cheap: what the step already has, the contact
// count and the deepest penetration (from the problem, or for MuJoCo's solver from d, its rows'
// distances), the solver's own residual kept. off: no work; the criteria not computed are NaN.
// problem: ctx->problem is this step's
static void measure(acsContext* ctx, const mjModel* m, mjData* d, int problem) {
  acsStats* st = &ctx->stats;
  if (ctx->settings.metrics == acsMETRICS_FULL) {
    evaluate(ctx, m, d);
    return;
  }
  st->signorini = st->coulomb = st->mdp = st->penetration = st->slip = st->energy = NAN;
  st->ncontact = 0;
  if (ctx->settings.metrics != acsMETRICS_CHEAP) {
    return;
  }
  mjtNum pen = 0;   // as the full metrics: the deepest penetration, 0 when none
  if (problem) {
    const acsProblem* p = &ctx->problem;
    for (int k=0; k < p->nblock; k++) {
      if (p->block_type[k] == acsBLOCK_CONTACT) {
        st->ncontact++;
        pen = mju_max(pen, -p->block_pos[k]);
      }
    }
  } else {
    for (int i=0; i < d->ncon; i++) {
      if (d->contact[i].efc_address >= 0) {
        st->ncontact++;
        pen = mju_max(pen, -d->efc_pos[d->contact[i].efc_address]);
      }
    }
  }
  st->penetration = pen;
}


// does the context's solver (or its settings) use G (the rows of B): the dual solvers (a contact law
// other than the compliant potentials; native has none), and compliance
static int needsY(const acsContext* ctx) {
  int model = acs_solverModel(ctx->settings.solver);
  return ctx->settings.compliance > 0 || (model >= 0 && model != acsMODEL_COMPLIANT);
}


//---------------------------------- constraint stage ----------------------------------------------

// an island's stabilization (drop, per island): kept, to be removed, removed
enum { kDropNone = 0, kDropPending, kDropDone };


// Did an unconverged solve diverge? Its law's residual (metrics.c) ended far above that of zero
// forces: the stabilization asks for a velocity the constraints cannot produce (an overlap the
// model cannot resolve, rows that barely move any dof, a weld pulling a gripper into the table it
// rests on), the biased problem has no solution, and the forces grow without bound (observed: 1e7
// to 1e23 times the residual of zero forces). A slow but sound solve can also end above zero
// forces' residual (the residual mixes forces, velocities and their product: a solve still
// building up a new contact's force, observed up to 5 times), hence the factor kDiverged. The
// test is island by island against zero forces' residual of the whole problem: an island at
// most kDiverged times that residual did not diverge, whatever the others did. Mark the islands
// that diverged in drop (nisland, see dropStabilization; those marked already are not tested),
// and return their number (0 without a test: a converged solve, a compliant law, whose problem
// always has a solution)
#define kDiverged 1e3
static int divergingIslands(int* drop, acsContext* ctx, const mjtNum* force) {
  const acsProblem* p = &ctx->problem;
  int model = acs_solverModel(ctx->settings.solver);
  if (ctx->stats.status == acsSTATUS_CONVERGED || model == acsMODEL_COMPLIANT) {
    return 0;
  }
  mjtNum* w = acsBUF(ctx, dofvec, mjtNum);
  mjtNum* a = acsBUF(ctx, scratch, mjtNum);
  const mjtNum zero[6] = {0};
  acs_mulYT(w, p, force);
  acs_velocity(a, p, w, force);
  mjtNum res0 = 0;
  for (int k=0; k < p->nblock; k++) {
    int adr = p->block_adr[k];
    res0 = mju_max(res0, acs_blockResidual(p, k, zero, p->b + adr, model));
  }
  int ndrop = 0;
  for (int k=0; k < p->nblock; k++) {
    int adr = p->block_adr[k], i = acs_blockIsland(p, k);
    if (!drop[i] && !(acs_blockResidual(p, k, force + adr, a + adr, model) <= kDiverged * res0)) {
      drop[i] = kDropPending;
      ndrop++;
    }
  }
  return ndrop;
}


// remove the stabilization from the bias of the islands marked kDropPending in drop (nisland),
// then marked kDropDone: b = ... - v* / h loses its Baumgarte and restitution part (what is left,
// zero or a gap closing within the step, is always feasible); their forces restart from the
// step's warm start (the last step's solution without stabilization, in a run of such steps), the
// other islands' stay
static void dropStabilization(mjtNum* force, acsContext* ctx, int* drop) {
  const acsProblem* p = &ctx->problem;
  const mjtNum* start = acsBUF(ctx, force_start, mjtNum);
  mjtNum* b = acsBUF(ctx, b, mjtNum);
  const mjtNum* vstab = acsBUF(ctx, vstab, mjtNum);
  mjtNum h = p->timestep;
  for (int k=0; k < p->nblock; k++) {
    if (drop[acs_blockIsland(p, k)] == kDropPending) {
      for (int r=p->block_adr[k]; r < p->block_adr[k] + p->block_dim[k]; r++) {
        b[r] += vstab[r] / h;
        force[r] = start[r];
      }
    }
  }
  for (int i=0; i < acs_islandCount(p); i++) {
    drop[i] = drop[i] ? kDropDone : kDropNone;
  }
}


// mark kDropPending in drop (nisland) the islands with a block whose (first) tree the last solve
// left without stabilization (ctx->tree_drop); return their number
static int knownDrops(int* drop, acsContext* ctx) {
  const acsProblem* p = &ctx->problem;
  const int* block_tree = acsBUF(ctx, block_tree, int);
  const int* tree_drop = acsBUF(ctx, tree_drop, int);
  int ndrop = 0;
  for (int k=0; k < p->nblock; k++) {
    int i = acs_blockIsland(p, k), t = block_tree[k];
    if (!drop[i] && t >= 0 && tree_drop[t]) {
      drop[i] = kDropPending;
      ndrop++;
    }
  }
  return ndrop;
}


// ctx->tree_drop: the (first) trees of the blocks of the islands marked in drop (nisland)
static void storeDrops(acsContext* ctx, const mjModel* m, const int* drop) {
  const acsProblem* p = &ctx->problem;
  const int* block_tree = acsBUF(ctx, block_tree, int);
  int* tree_drop = acsBUF(ctx, tree_drop, int);
  memset(tree_drop, 0, (m->ntree > 0 ? m->ntree : 1) * sizeof(int));
  for (int k=0; k < p->nblock; k++) {
    if (drop[acs_blockIsland(p, k)] && block_tree[k] >= 0) {
      tree_drop[block_tree[k]] = 1;
    }
  }
}


// solve the step's problem again from force (the rest of a probe's budget, the problem without
// some of its stabilization), adding the earlier solve's iterations, factorizations and time to
// the statistics
static void solveAgain(mjtNum* force, acsContext* ctx, const acsSettings* s) {
  acsStats before = ctx->stats;
  acs_solveProblem(force, &ctx->stats, &ctx->solver_state, &ctx->problem, s, ctx->work.ptr);
  ctx->stats.niter += before.niter;
  ctx->stats.nfactor += before.nfactor;
  ctx->stats.nevaluation += before.nevaluation;
  ctx->stats.time_solve += before.time_solve;
}


// MuJoCo's solver, with the same metrics as every acs solver; the metrics problem is built
// first, so that running out of memory refuses the step before MuJoCo's solver writes to d.
// Return 0, or -1 with the reason in ctx->error
static int fwdConstraintNative(const mjModel* m, mjData* d, acsContext* ctx) {
  acsStats* st = &ctx->stats;
  int metrics = ctx->settings.metrics == acsMETRICS_FULL && !ctx->stage;
  double t0 = acs_timeMicro();
  if (metrics && acs_buildProblem(ctx, m, d, needsY(ctx))) {
    acs_formatError(ctx->error, acsNERROR, "out of memory building the constraint problem "
                    "(nefc = %d)", d->nefc);
    return -1;
  }
  double t1 = acs_timeMicro();
  mj_fwdConstraint(m, d);
  double t2 = acs_timeMicro();
  st->time_solve = t2 - t1;
  st->status = d->nefc ? acsSTATUS_NATIVE : acsSTATUS_EMPTY;
  for (int i=0; i < mjNISLAND && i < (d->nisland > 0 ? d->nisland : 1); i++) {
    st->niter += d->solver_niter[i];
  }

  st->residual = NAN;   // MuJoCo's solver has no NCP residual of its own
  if (metrics) {
    ctx->problem.pyramid = mj_isPyramidal(m);
    acs_readForces(acsBUF(ctx, force, mjtNum), ctx, m, d);
    st->nefc = ctx->problem.nefc;
    evaluate(ctx, m, d);
  } else if (!ctx->stage) {
    measure(ctx, m, d, 0);
  }
  st->time_metrics = (t1 - t0) + (acs_timeMicro() - t2);
  return 0;
}


// A run of steps without (some of) their stabilization tries it again every kProbeRun-th step
// (a gripper's target raised off the table it was pulled into gets its weld's correction back at
// most kProbeRun steps late). That try is judged by kProbe iterations of a solver whose first
// iterations tell (probeSolver): with 5, pgs's residual on test_models/weld_into_floor.xml was
// not yet kDiverged times zero forces'. Measured on Fetch push (300 steps after 100): trying on
// every step (kProbe iterations, every 10th the whole budget) cost pgs 3.7x mj_step, trying every
// 10th step 1.8x
#define kProbe 10
#define kProbeRun 10

// the solver whose first kProbe iterations judge a try of the stabilization: Gauss-Seidel sweeps
// tell a problem without a solution; ADMM's first iterations from a poor penalty can sit 1e7
// times above zero forces' residual on a problem that has one (test_models/weld_into_floor.xml,
// Fetch push), so admm and ccp-admm are judged by the plain sweeps (omega 1) of their law (pgs,
// ccp-pgs), and then solve from where those stopped
static int probeSolver(int solver) {
  switch (solver) {
  case acsSOL_ADMM:
    return acsSOL_PGS;
  case acsSOL_CCP_ADMM:
    return acsSOL_CCP_PGS;
  default:
    return solver;
  }
}

// the constraint stage with an acs solver. Return 0, or -1 with the reason in ctx->error (then
// nothing was written to d)
static int fwdConstraintAcs(const mjModel* m, mjData* d, acsContext* ctx) {
  acsStats* st = &ctx->stats;

  // problem and warm start
  double t0 = acs_timeMicro();
  if (acs_buildProblem(ctx, m, d, needsY(ctx))) {
    acs_formatError(ctx->error, acsNERROR, "out of memory building the constraint problem "
                    "(nefc = %d)", d->nefc);
    return -1;
  }
  const acsProblem* p = &ctx->problem;
  mjtNum* force = acsBUF(ctx, force, mjtNum);
  int nwarm = acs_warmstart(force, ctx, m, d);
  double time_problem = acs_timeMicro() - t0;
  // a try of the stabilization after a run of steps without it (below): judged by probeSolver
  int dual = acs_solverModel(ctx->settings.solver) != acsMODEL_COMPLIANT;
  int run = ctx->unstabilized_run;
  int maxiter = acs_maxiter(&ctx->settings);
  int probe = dual && run && !(run % kProbeRun) && maxiter > kProbe;
  acsSettings budget = ctx->settings;
  budget.maxiter = maxiter;
  if (probe) {
    budget.maxiter = kProbe;
    budget.solver = probeSolver(ctx->settings.solver);
    if (budget.solver != ctx->settings.solver) {
      // the step's omega over-relaxes ADMM's x-update, not these sweeps; and the sweeps only
      // judge: the step's solver solves from where they stop, so they take no subspace step
      // (Fetch push: those took 200k instructions a try, 4% of admm's steps; the same verdicts)
      budget.omega = 1;
      budget.subspace = 0;
    }
  }
  size_t worksize = acs_workspaceBytes(p, &ctx->settings);
  if (budget.solver != ctx->settings.solver) {
    worksize = mjMAX(worksize, acs_workspaceBytes(p, &budget));
  }
  if (acs_bufferReserve(&ctx->mem, &ctx->work, worksize, 1)) {
    acs_formatError(ctx->error, acsNERROR, "out of memory for the solver workspace (%zu bytes)",
                    worksize);
    return -1;
  }

  // solve; a non-finite problem (NaN or infinity in the state or the forces) gets zero forces
  int finite = 1;
  for (int r=0; r < p->nefc && finite; r++) {
    finite = isfinite(p->b[r]);
  }
  if (!finite) {
    mju_zero(force, p->nefc);
    st->status = acsSTATUS_DIVERGED;
    acs_formatError(ctx->error, acsNERROR, "the constraint problem is not finite (time %g): "
                    "constraint forces set to zero", d->time);
  } else if (p->nefc == 0) {
    st->status = acsSTATUS_EMPTY;
  } else {
    // a run of steps whose stabilization could not be met: the islands on the trees of those
    // that went without it at the last step go without it again, but every kProbeRun-th step,
    // which tries it on every island. That step's stabilized problem first gets kProbe iterations
    // of probeSolver: a diverging solve ends there; else the solve goes on from where it stopped,
    // with the rest of the budget, or where probeSolver is another solver, the step's own with
    // its whole budget (such a try takes up to kProbe iterations more than maxiter, and the
    // islands found diverging then one more solve)
    int* drop = acsBUF(ctx, island_drop, int);
    memset(drop, 0, acs_islandCount(p) * sizeof(int));
    int nknown = 0;
    acsSolverState kept = ctx->solver_state;
    if (dual) {
      mju_copy(acsBUF(ctx, force_start, mjtNum), force, p->nefc);
      nknown = run % kProbeRun ? knownDrops(drop, ctx) : 0;
      if (nknown) {
        dropStabilization(force, ctx, drop);
      }
    }
    acs_solveProblem(force, st, &ctx->solver_state, p, &budget, ctx->work.ptr);
    int ndrop = divergingIslands(drop, ctx, force);
    if (probe && !ndrop &&
        (budget.solver != ctx->settings.solver || st->status == acsSTATUS_MAXITER)) {
      int other = budget.solver != ctx->settings.solver;
      budget = ctx->settings;
      budget.maxiter = mjMAX(maxiter - (other ? 0 : st->niter), 1);
      solveAgain(force, ctx, &budget);
      ndrop = divergingIslands(drop, ctx, force);
    }

    // the islands that diverged are solved again without their stabilization, from the step's
    // warm start and with the penalty the step started with (the diverging solve's is no
    // guide); the others start from their forces (a converged island stops at once)
    if (ndrop) {
      dropStabilization(force, ctx, drop);
      ctx->solver_state = kept;
      solveAgain(force, ctx, &ctx->settings);
    }
    st->unstabilized = nknown || ndrop;
    ctx->unstabilized_run = st->unstabilized ? run + 1 : 0;
    if (st->unstabilized) {   // read only by the next step of the run
      storeDrops(ctx, m, drop);
    }
    if (st->status == acsSTATUS_DIVERGED) {
      acs_formatError(ctx->error, acsNERROR, "solver %s diverged (time %g): constraint forces "
                      "set to zero", acs_solverName(ctx->settings.solver), d->time);
    }
  }
  st->solver = ctx->settings.solver;
  st->nefc = p->nefc;
  st->nwarm = nwarm;
  st->time_problem = time_problem;

  // warm start for the next step (the last thing that can fail), then the forces to MuJoCo and
  // MuJoCo's solver statistics
  if (acs_warmstore(ctx, m, d, force)) {
    acs_formatError(ctx->error, acsNERROR, "out of memory storing the warm start");
    return -1;
  }
  acs_writeForces(ctx, m, d, force);
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->solver_niter[0] = st->niter;
  for (int i=0; i < st->nhistory && i < mjNSOLVER; i++) {
    d->solver[i].improvement = st->history[i];
    d->solver[i].gradient = st->history[i];
  }

  if (!ctx->stage) {
    double t1 = acs_timeMicro();
    measure(ctx, m, d, 1);
    st->time_metrics = acs_timeMicro() - t1;
  }
  return 0;
}


static int fwdConstraint(const mjModel* m, mjData* d, acsContext* ctx) {
  memset(&ctx->stats, 0, sizeof(acsStats));
  ctx->stats.solver = ctx->settings.solver;
  double t0 = acs_timeMicro();
  int ret = ctx->settings.solver == acsSOL_NATIVE ? fwdConstraintNative(m, d, ctx) :
                                                    fwdConstraintAcs(m, d, ctx);
  ctx->stats.time_constraint = acs_timeMicro() - t0 - ctx->stats.time_metrics;
  return ret;
}


//---------------------------------- pipeline -------------------------------------------------------

// mj_forwardSkip with the constraint stage replaced. Return 0, or -1 if the constraint stage
// refused (then d's constraint outputs are as they were and efc_force is zero)
static int forwardSkip(const mjModel* m, mjData* d, acsContext* ctx, int skipstage,
                       int skipsensor) {
  // position-dependent
  if (skipstage < mjSTAGE_POS) {
    mj_fwdPosition(m, d);
    if (!skipsensor) {
      mj_sensorPos(m, d);
    }
    if (!d->flg_energypos) {
      if (mjENABLED(mjENBL_ENERGY)) {
        mj_energyPos(m, d);
      } else {
        d->energy[0] = d->energy[1] = 0;
      }
    }
  }

  // velocity-dependent
  if (skipstage < mjSTAGE_VEL) {
    mj_fwdVelocity(m, d);
    if (!skipsensor) {
      mj_sensorVel(m, d);
    }
    if (mjENABLED(mjENBL_ENERGY) && !d->flg_energyvel) {
      mj_energyVel(m, d);
    }
  }

  // acceleration-dependent. The discrete integrator builds and factors its effective metric, and
  // regularizes MuJoCo's constraints in it, in stages internal to MuJoCo: MuJoCo's own
  // acceleration stage runs (its solver included, whose qacc is kept for the trees no constraint
  // touches), then acs's constraint stage replaces its solve
  if (acs_mjDiscrete(m)) {
    if (acs_bufferReserve(&ctx->mem, &ctx->qacc_mj, m->nv > 0 ? m->nv : 1, sizeof(mjtNum))) {
      acs_formatError(ctx->error, acsNERROR, "out of memory for the discrete integrator");
      return -1;
    }
    mj_forwardSkip(m, d, mjSTAGE_VEL, 1);
    mju_copy(acsBUF(ctx, qacc_mj, mjtNum), d->qacc, m->nv);
    const char* inexact = acs_mjMetricInexact(m, d);
    if (inexact) {
      acs_formatError(ctx->error, acsNERROR, "integrator discrete with the acs solvers: %s is not "
                      "supported (acs solves with the metric's factored backbone); use another "
                      "integrator or the native solver", inexact);
      return -1;
    }
  } else {
    if (mjcb_control && !mjDISABLED(mjDSBL_ACTUATION)) {
      mjcb_control(m, d);
    }
    mj_fwdActuation(m, d);
    mj_fwdAcceleration(m, d);
  }
  if (fwdConstraint(m, d, ctx)) {
    mju_zero(d->efc_force, d->nefc);
    return -1;
  }
  if (!skipsensor) {
    d->flg_rnepost = 0;   // lazy mj_rnePostConstraint must see the new forces
    mj_sensorAcc(m, d);
  }
  return 0;
}


// mj_checkAcc with our forward on reset; return 1 if the check fired. Under sleep only the awake
// dofs are checked (a sleeping dof's qacc is not recomputed), as MuJoCo does
static int checkAcc(const mjModel* m, mjData* d, acsContext* ctx) {
  int filter = mjENABLED(mjENBL_SLEEP) && d->nv_awake < m->nv;
  int n = filter ? d->nv_awake : m->nv;
  for (int k=0; k < n; k++) {
    int i = filter ? d->dof_awake_ind[k] : k;
    if (mju_isBad(d->qacc[i])) {
      mj_warning(d, mjWARN_BADQACC, i);
      if (!mjDISABLED(mjDSBL_AUTORESET)) {
        mj_resetData(m, d);
        acs_warmReset(ctx);
      }
      d->warning[mjWARN_BADQACC].number++;
      d->warning[mjWARN_BADQACC].lastinfo = i;
      if (!mjDISABLED(mjDSBL_AUTORESET)) {
        forwardSkip(m, d, ctx, mjSTAGE_NONE, 0);
      }
      acs_formatError(ctx->error, acsNERROR, "bad acceleration at dof %d (time %g): MuJoCo's "
                      "check fired (mjWARN_BADQACC)%s", i, d->time,
                      mjDISABLED(mjDSBL_AUTORESET) ? "" : " and reset the state");
      return 1;
    }
  }
  return 0;
}


// the status of a step of several solves (RK4 stages): the worst
static int mergeStatus(int a, int b) {
  if (a == acsSTATUS_DIVERGED || b == acsSTATUS_DIVERGED) return acsSTATUS_DIVERGED;
  if (a == acsSTATUS_MAXITER || b == acsSTATUS_MAXITER) return acsSTATUS_MAXITER;
  if (a == acsSTATUS_STALLED || b == acsSTATUS_STALLED) return acsSTATUS_STALLED;
  return a == acsSTATUS_EMPTY ? b : a;
}


// the forward of an RK4 stage: sensors, energy and metrics skipped; the stage's solve adds to the
// step's statistics (iterations, times, the worst status)
static int rk4Stage(const mjModel* m, mjData* d, void* arg) {
  acsContext* ctx = (acsContext*)arg;
  acsStats step = ctx->stats;
  ctx->stage = 1;
  int ret = forwardSkip(m, d, ctx, mjSTAGE_NONE, 1);
  ctx->stage = 0;
  const acsStats* st = &ctx->stats;
  step.niter += st->niter;
  step.nfactor += st->nfactor;
  step.nevaluation += st->nevaluation;
  step.unstabilized |= st->unstabilized;
  step.time_constraint += st->time_constraint;
  step.time_problem += st->time_problem;
  step.time_solve += st->time_solve;
  step.status = ret ? acsSTATUS_ERROR : mergeStatus(step.status, st->status);
  ctx->stats = step;
  return ret;
}


// the integrator of the model; return 0, or -1 if refused (RK4 stage)
static int integrate(const mjModel* m, mjData* d, acsContext* ctx) {
  switch (m->opt.integrator) {
  case mjINT_EULER:
    mj_Euler(m, d);
    return 0;
  case mjINT_RK4:
    // MuJoCo's own solver at the stages is native: MuJoCo's RK4 itself
    if (ctx->settings.solver == acsSOL_NATIVE && !ctx->test_ownrk4) {
      mj_RungeKutta(m, d, 4);
      return 0;
    }
    return acs_rungeKutta(m, d, &ctx->rk4, &ctx->mem, ctx->error, acsNERROR, rk4Stage, ctx);
  case mjINT_IMPLICIT:
  case mjINT_IMPLICITFAST:
    mj_implicit(m, d);
    return 0;
  default:   // discrete (checkCall refuses integrators acs does not know): the step map's qacc
    acs_advance(m, d, d->act_dot, d->qacc, NULL);
    return 0;
  }
}


// shared entry checks: nothing is changed in d; return 0 if the call can run
static int checkCall(const mjModel* m, mjData* d, acsContext* ctx) {
  if (!ctx) {
    return -1;
  }
  ctx->error[0] = 0;
  if (!m || !d) {
    acs_formatError(ctx->error, acsNERROR, "model or data is NULL");
  } else if (!acs_checkModelIdentity(ctx, m, ctx->error, acsNERROR)) {
    // settings are validated when set; the model's options may have changed since
    acs_checkModelSupported(m, ctx->settings.solver, ctx->error, acsNERROR);
  }
  if (ctx->error[0]) {
    ctx->stats.status = acsSTATUS_ERROR;
    return -1;
  }
  return 0;
}


// will MuJoCo's checks change the state of d in this call: a bad qpos or qvel is reset by
// mj_checkPos / mj_checkVel (step), a bad ctrl is cleared by mj_fwdActuation
static int inputBad(const mjModel* m, const mjData* d, int step) {
  for (int i=0; step && i < m->nq; i++) {
    if (mju_isBad(d->qpos[i])) return 1;
  }
  for (int i=0; step && i < m->nv; i++) {
    if (mju_isBad(d->qvel[i])) return 1;
  }
  for (int i=0; i < m->nu; i++) {
    if (mju_isBad(d->ctrl[i])) return 1;
  }
  return 0;
}


// save the state of d (before a call whose input MuJoCo will reset or clear)
static void saveState(acsContext* ctx, const mjModel* m, const mjData* d) {
  mj_getState(m, d, ctx->saved, mjSTATE_INTEGRATION);
  mjtNum* qacc = ctx->saved + ctx->nsaved - 2*m->nv;
  mju_copy(qacc, d->qacc, m->nv);
  mju_copy(qacc + m->nv, d->qfrc_constraint, m->nv);
  memcpy(ctx->saved_warning, d->warning, sizeof(ctx->saved_warning));
}


static void restoreState(acsContext* ctx, const mjModel* m, mjData* d) {
  mj_setState(m, d, ctx->saved, mjSTATE_INTEGRATION);
  const mjtNum* qacc = ctx->saved + ctx->nsaved - 2*m->nv;
  mju_copy(d->qacc, qacc, m->nv);
  mju_copy(d->qfrc_constraint, qacc + m->nv, m->nv);
  memcpy(d->warning, ctx->saved_warning, sizeof(ctx->saved_warning));
}


// a step or forward that was refused: the state saved before it (if any) is restored
static int refuse(acsContext* ctx, const mjModel* m, mjData* d, int saved) {
  if (saved) {
    restoreState(ctx, m, d);
  }
  ctx->stats.status = acsSTATUS_ERROR;
  return acsSTATUS_ERROR;
}


// number of bad-state warnings MuJoCo has raised
static int badStateWarnings(const mjData* d) {
  return d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number;
}


// is the integration state of d finite
static int stateFinite(const mjModel* m, const mjData* d) {
  for (int i=0; i < m->nq; i++) {
    if (!isfinite(d->qpos[i])) return 0;
  }
  for (int i=0; i < m->nv; i++) {
    if (!isfinite(d->qvel[i])) return 0;
  }
  for (int i=0; i < m->na; i++) {
    if (!isfinite(d->act[i])) return 0;
  }
  return 1;
}


// MuJoCo's discrete integrator runs internal stages around its constraint solver (the effective
// metric and the regularization in it): with the native solver the step (or forward) is MuJoCo's
// own, and the metrics are evaluated after it as acs_evaluate does
static int nativeDiscrete(const mjModel* m, mjData* d, acsContext* ctx, int step) {
  double t0 = acs_timeMicro();
  if (step) {
    mj_step(m, d);
  } else {
    mj_forward(m, d);
  }
  double t1 = acs_timeMicro();
  int full = ctx->settings.metrics == acsMETRICS_FULL;
  int status = full ? acs_evaluate(m, d, ctx) : acsSTATUS_NATIVE;
  if (!full) {
    memset(&ctx->stats, 0, sizeof(acsStats));
    ctx->stats.status = d->nefc ? acsSTATUS_NATIVE : acsSTATUS_EMPTY;
    ctx->stats.residual = NAN;
    double t2 = acs_timeMicro();
    measure(ctx, m, d, 0);
    ctx->stats.time_metrics = acs_timeMicro() - t2;
  }
  ctx->stats.time_constraint = t1 - t0;
  if (status != acsSTATUS_ERROR && !stateFinite(m, d)) {
    acs_formatError(ctx->error, acsNERROR, "the state is not finite (time %g)", d->time);
    ctx->stats.status = acsSTATUS_DIVERGED;
  }
  return ctx->stats.status;
}


int acs_forward(const mjModel* m, mjData* d, acsContext* ctx) {
  if (checkCall(m, d, ctx)) {
    return acsSTATUS_ERROR;
  }
  if (acs_mjDiscrete(m) && ctx->settings.solver == acsSOL_NATIVE && !ctx->test_ownrk4) {
    return nativeDiscrete(m, d, ctx, 0);
  }
  int saved = inputBad(m, d, 0) || acs_mjDiscrete(m);
  if (saved) {
    saveState(ctx, m, d);
  }
  if (forwardSkip(m, d, ctx, mjSTAGE_NONE, 0)) {
    return refuse(ctx, m, d, saved);
  }
  return ctx->stats.status;
}


int acs_step(const mjModel* m, mjData* d, acsContext* ctx) {
  if (checkCall(m, d, ctx)) {
    return acsSTATUS_ERROR;
  }
  if (acs_mjDiscrete(m) && ctx->settings.solver == acsSOL_NATIVE && !ctx->test_ownrk4) {
    return nativeDiscrete(m, d, ctx, 1);
  }

  // common to all integrators (mj_step); a non-finite state is reset by MuJoCo's checks (the
  // state is saved first, to be restored if the step is refused), and acs's RK4 can be refused at
  // a stage, the discrete integrator after MuJoCo's acceleration stage, both after outputs were
  // written: save then too
  int saved = inputBad(m, d, 1) || acs_mjDiscrete(m) ||
              (m->opt.integrator == mjINT_RK4 && ctx->settings.solver != acsSOL_NATIVE);
  if (saved) {
    saveState(ctx, m, d);
  }
  int nbad = badStateWarnings(d);
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  int reset = badStateWarnings(d) != nbad;
  if (reset) {
    acs_warmReset(ctx);   // the state was reset: old forces do not apply
  }
  if (forwardSkip(m, d, ctx, mjSTAGE_NONE, 0)) {
    return refuse(ctx, m, d, saved);
  }
  int badacc = checkAcc(m, d, ctx);
  if (mjENABLED(mjENBL_FWDINV)) {
    mj_compareFwdInv(m, d);
  }

  if (integrate(m, d, ctx)) {
    return refuse(ctx, m, d, saved);
  }

  // an honest status: the reason of a divergence in acs_lastError
  if (reset) {
    acs_formatError(ctx->error, acsNERROR, "the state was not finite or too large: MuJoCo's "
                    "check reset it (mjWARN_BADQPOS / mjWARN_BADQVEL)");
  } else if (!badacc && !stateFinite(m, d)) {
    acs_formatError(ctx->error, acsNERROR, "the state after the step is not finite (time %g)",
                    d->time);
  }
  if (reset || badacc || ctx->error[0]) {
    ctx->stats.status = acsSTATUS_DIVERGED;
  }
  return ctx->stats.status;
}


int acs_evaluate(const mjModel* m, mjData* d, acsContext* ctx) {
  if (checkCall(m, d, ctx)) {
    return acsSTATUS_ERROR;
  }
  memset(&ctx->stats, 0, sizeof(acsStats));
  ctx->stats.solver = acsSOL_NATIVE;
  ctx->stats.status = d->nefc ? acsSTATUS_NATIVE : acsSTATUS_EMPTY;
  for (int i=0; i < mjNISLAND && i < (d->nisland > 0 ? d->nisland : 1); i++) {
    ctx->stats.niter += d->solver_niter[i];
  }
  double t0 = acs_timeMicro();
  if (acs_buildProblem(ctx, m, d, ctx->settings.compliance > 0)) {
    acs_formatError(ctx->error, acsNERROR, "out of memory building the constraint problem "
                    "(nefc = %d)", d->nefc);
    ctx->stats.status = acsSTATUS_ERROR;
    return acsSTATUS_ERROR;
  }
  ctx->problem.pyramid = mj_isPyramidal(m);
  acs_readForces(acsBUF(ctx, force, mjtNum), ctx, m, d);
  ctx->stats.nefc = ctx->problem.nefc;
  evaluate(ctx, m, d);
  ctx->stats.time_metrics = acs_timeMicro() - t0;
  return ctx->stats.status;
}
