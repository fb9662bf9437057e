// Copyright 2026 The acs authors.
//
// Tests for plugin/pipeline.c and plugin/problem.c: acs_step against mj_step, integrators,
// refused configurations, bad states, outputs consistent with MuJoCo's consumers.

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "context.h"
#include "mjcompat.h"
#include "test_util.h"
#include "version.h"

// compare every step of mj_step and acs_step (native) bit for bit; ownrk4: with RK4, acs's own
// Runge-Kutta scheme (the one the acs solvers use) instead of MuJoCo's
static void compareNativeRK(mjModel* m, int nstep, const char* what, int ownrk4) {
  mjData* d1 = acst_makeData(m);
  mjData* d2 = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "native");
  if (!ctx) return;
  ctx->test_ownrk4 = ownrk4;
  int diff = -1;
  for (int i=0; i < nstep && diff < 0; i++) {
    mj_step(m, d1);
    ENSURE(acs_step(m, d2, ctx) != acsSTATUS_ERROR);
    if (memcmp(d1->qpos, d2->qpos, m->nq*sizeof(mjtNum)) ||
        memcmp(d1->qvel, d2->qvel, m->nv*sizeof(mjtNum)) ||
        memcmp(d1->qacc, d2->qacc, m->nv*sizeof(mjtNum)) ||
        memcmp(d1->act, d2->act, m->na*sizeof(mjtNum)) ||
        memcmp(d1->sensordata, d2->sensordata, m->nsensordata*sizeof(mjtNum)) ||
        d1->nefc != d2->nefc ||
        memcmp(d1->efc_force, d2->efc_force, d1->nefc*sizeof(mjtNum))) {
      diff = i;
    }
  }
  if (diff >= 0) {
    fprintf(stderr, "%s: acs_step(native) differs from mj_step at step %d\n", what, diff);
    acst_failures++;
  }
  acs_deleteContext(ctx);
  mj_deleteData(d1);
  mj_deleteData(d2);
}


static void compareNative(mjModel* m, int nstep, const char* what) {
  compareNativeRK(m, nstep, what, 0);
}


static void testNativeMatchesMuJoCo(void) {
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  // the humanoid has joint damping: Euler takes MuJoCo's implicit-damping path
  m->opt.integrator = mjINT_EULER;
  compareNative(m, 1000, "humanoid Euler (damping)");
  m->opt.integrator = mjINT_IMPLICITFAST;
  compareNative(m, 1000, "humanoid implicitfast");
  m->opt.integrator = mjINT_IMPLICIT;
  compareNative(m, 1000, "humanoid implicit");
  // RK4: native runs MuJoCo's RK4; acs's own scheme (the acs solvers') with MuJoCo's solver at
  // the stages reproduces it too, but on MuJoCo 4.0 only without ball and free joints (4.0 adds
  // a Runge-Kutta-Munthe-Kaas correction of their orientations, internal to MuJoCo)
  m->opt.integrator = mjINT_RK4;
  compareNative(m, 1000, "humanoid RK4");
  if (!acsMJ_RK4_RKMK) {
    compareNativeRK(m, 1000, "humanoid RK4, acs's scheme", 1);
  }
#if acsMJ_DISCRETE
  // discrete: native runs mj_step; acs's discrete pipeline (the acs solvers') with MuJoCo's solver
  // reproduces it too
  m->opt.integrator = mjINT_DISCRETE;
  compareNative(m, 1000, "humanoid discrete");
#endif
#if acsMJ_DISCRETE_ACS
  compareNativeRK(m, 1000, "humanoid discrete, acs's pipeline", 1);
#endif
  // explicit Euler (no damping path): qacc itself is integrated
  m->opt.integrator = mjINT_EULER;
  m->opt.disableflags |= mjDSBL_EULERDAMP;
  compareNative(m, 1000, "humanoid Euler (no damping)");
  mj_deleteModel(m);

  // sleep: trees fall asleep and wake as in MuJoCo
  m = acst_loadSharedModel("dominos.xml");
  if (m) {
    compareNative(m, 2000, "dominos (sleep)");
    mj_deleteModel(m);
  }
  m = acst_loadTestModel("sleep_pile.xml");
  if (m) {
    compareNative(m, 2000, "a pile of boxes (sleep)");
    mj_deleteModel(m);
  }

  // closed loop with damping, and sensors on a box
  m = acst_loadTestModel("four_bar.xml");
  if (m) {
    compareNative(m, 1000, "four_bar");
    m->opt.integrator = mjINT_RK4;
    compareNative(m, 1000, "four_bar RK4");
    compareNativeRK(m, 1000, "four_bar RK4, acs's scheme (hinges only)", 1);
    mj_deleteModel(m);
  }
  m = acst_loadTestModel("box_plane.xml");
  if (m) {
    compareNative(m, 1000, "box_plane");
    mj_deleteModel(m);
  }
}


static void testRefused(void) {
  char error[acsNERROR] = "";
  mjModel* m = acst_loadTestModel("box_plane.xml");
  if (!m) return;

  // integrator and flags the context cannot run are refused at creation, and a step is refused
  // when they are switched on later, with the state untouched: RK4 with the acs solvers and an
  // actuator or sensor history (delays)
  m->opt.integrator = mjINT_EULER;
  acsContext* ctx = acst_makeContext(m, "pgs");
  mjData* d = acst_makeData(m);
  ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
  mjtNum qpos[7];
  mju_copy(qpos, d->qpos, 7);
  m->opt.integrator = mjINT_RK4;
  m->opt.enableflags |= mjENBL_SLEEP;
  ENSURE(acs_step(m, d, ctx) == acsSTATUS_ERROR);
  ENSURE(strstr(acs_lastError(ctx), "RK4") && strstr(acs_lastError(ctx), "sleep"));
  ENSURE(memcmp(qpos, d->qpos, sizeof(qpos)) == 0);
  ENSURE(acs_makeContext(m, NULL, error, sizeof(error)) == NULL && strstr(error, "sleep"));
  m->opt.enableflags &= ~mjENBL_SLEEP;
  ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);   // RK4 runs
  m->opt.enableflags |= mjENBL_SLEEP;
  m->opt.integrator = mjINT_EULER;
  ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);   // sleep with Euler runs
  m->opt.enableflags &= ~mjENBL_SLEEP;
#if acsMJ_DISCRETE
  // discrete runs with the acs solvers (on 4.0), but not with sleep
  m->opt.integrator = mjINT_DISCRETE;
  ENSURE(acs_step(m, d, ctx) == (acsMJ_DISCRETE_ACS ? acs_getStats(ctx)->status : acsSTATUS_ERROR));
  m->opt.enableflags |= mjENBL_SLEEP;
  mju_copy(qpos, d->qpos, 7);
  ENSURE(acs_step(m, d, ctx) == acsSTATUS_ERROR && strstr(acs_lastError(ctx), "discrete"));
  ENSURE(memcmp(qpos, d->qpos, sizeof(qpos)) == 0);
  m->opt.enableflags &= ~mjENBL_SLEEP;
  m->opt.integrator = mjINT_EULER;
#endif

  // a context used with another model
  mjModel* other = acst_loadSharedModel("humanoid.xml");
  if (other) {
    mjData* od = acst_makeData(other);
    ENSURE(acs_step(other, od, ctx) == acsSTATUS_ERROR);
    ENSURE(strstr(acs_lastError(ctx), "another model"));
    mj_deleteData(od);
    mj_deleteModel(other);
  }
  ENSURE(acs_step(m, d, NULL) == acsSTATUS_ERROR);

  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testBadState(void) {
  // NaN in qpos, qvel or ctrl: MuJoCo's checks reset the state with a warning, as mj_step does;
  // the solver never sees or returns NaN
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  const char* solvers[2] = {"native", "pgs"};
  for (int s=0; s < 2; s++) {
    mjData* d = acst_makeData(m);
    acsContext* ctx = acst_makeContext(m, solvers[s]);
    acst_expectWarnings(1);
    for (int trial=0; trial < 3; trial++) {
      for (int i=0; i < 20; i++) {
        acs_step(m, d, ctx);
      }
      int before = acst_nwarning;
      if (trial == 0) d->qpos[3] = NAN;
      if (trial == 1) d->qvel[10] = INFINITY;
      if (trial == 2) d->ctrl[0] = NAN;
      for (int i=0; i < 5; i++) {
        ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
        d->ctrl[0] = 0;
      }
      ENSURE(acst_nwarning > before);
      for (int j=0; j < m->nq; j++) {
        ENSURE(isfinite(d->qpos[j]));
      }
      for (int j=0; j < m->nv; j++) {
        ENSURE(isfinite(d->qvel[j]) && isfinite(d->qacc[j]));
      }
    }
    acst_expectWarnings(0);
    acs_deleteContext(ctx);
    mj_deleteData(d);
  }
  mj_deleteModel(m);
}


static void testNoConstraints(void) {
  mjModel* m = acst_loadSharedModel("slider_crank.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  ENSURE(acs_forward(m, d, ctx) == acsSTATUS_EMPTY);
  ENSURE(d->nefc == 0);
  ENSURE(memcmp(d->qacc, d->qacc_smooth, m->nv*sizeof(mjtNum)) == 0);
  for (int i=0; i < m->nv; i++) {
    ENSURE(d->qfrc_constraint[i] == 0);
  }
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testManyContacts(void) {
  // 100 humanoids: about a thousand contacts and 3000+ rows, in a sparse-Jacobian model
  mjModel* m = acst_loadSharedModel("100_humanoids.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  int maxcon = 0;
  for (int i=0; i < 200; i++) {
    ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
    maxcon = d->ncon > maxcon ? d->ncon : maxcon;
  }
  for (int j=0; j < m->nq; j++) {
    ENSURE(isfinite(d->qpos[j]));
  }
  ENSURE(maxcon > 500);
  ENSURE(mj_isSparse(m));
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testPyramidExact(void) {
  // a sliding box on a pyramidal-cone model: the friction force is mu f_n (on the elliptic
  // cone, outside MuJoCo's pyramid); it must reach mj_contactForce unclamped
  mjModel* m = acst_loadTestModel("incline_slide.xml");
  if (!m) return;
  m->opt.cone = mjCONE_PYRAMIDAL;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  for (int i=0; i < 200; i++) {
    acs_step(m, d, ctx);
  }
  ENSURE(d->ncon == 4);
  mjtNum fn = 0, ft = 0;
  for (int i=0; i < d->ncon; i++) {
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    fn += f[0];
    ft += sqrt(f[1]*f[1] + f[2]*f[2]);
  }
  // the solver's residual tolerance (1e-6) bounds the error of the cone equality
  ENSURE_NEAR(ft, 0.2*fn, 1e-6*fn);

  // and the joint-space force is J' efc_force
  mjtNum qfrc[6];
  mj_mulJacTVec(m, d, qfrc, d->efc_force);
  for (int i=0; i < 6; i++) {
    ENSURE(qfrc[i] == d->qfrc_constraint[i]);
  }
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testWarmstart(void) {
  // a resting box: all four contacts matched every step, and the solve then needs no iteration
  mjModel* m = acst_loadTestModel("box_plane.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  for (int i=0; i < 300; i++) {
    acs_step(m, d, ctx);
  }
  const acsStats* st = acs_getStats(ctx);
  ENSURE(st->nwarm == 4);
  ENSURE(st->niter <= 1);

  // without warm start the same step needs iterations
  acsSettings s = *acs_getSettings(ctx);
  s.warmstart = 0;
  char error[acsNERROR];
  ENSURE(acs_setSettings(ctx, &s, error, sizeof(error)) == 0);
  acs_step(m, d, ctx);
  ENSURE(st->nwarm == 0);
  ENSURE(st->niter > 1);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testEvaluateMatchesNative(void) {
  // the metrics of a plain mj_step (acs_evaluate) equal those of acs_step with native
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  mjData* d1 = acst_makeData(m);
  mjData* d2 = acst_makeData(m);
  acsContext* c1 = acst_makeContext(m, "native");
  acsContext* c2 = acst_makeContext(m, "native");
  for (int i=0; i < 300; i++) {
    mj_step(m, d1);
    acs_evaluate(m, d1, c1);
    acs_step(m, d2, c2);
    const acsStats* s1 = acs_getStats(c1);
    const acsStats* s2 = acs_getStats(c2);
    if (s1->residual != s2->residual || s1->penetration != s2->penetration ||
        s1->slip != s2->slip || s1->mdp != s2->mdp) {
      fprintf(stderr, "metrics differ at step %d\n", i);
      acst_failures++;
      break;
    }

    // and both are right, not merely equal: the penetration is the deepest distance of the
    // contacts in the constraint problem, read here from mjData directly (d2 has taken the same
    // steps as d1, bit for bit); MuJoCo's soft contacts on the lying humanoid do not meet the
    // hard NCP (its residual is far from zero)
    mjtNum deepest = 0;
    for (int k=0; k < d1->ncon; k++) {
      if (d1->contact[k].efc_address >= 0) {
        deepest = mju_max(deepest, -d1->contact[k].dist);
      }
    }
    if (s1->penetration != deepest) {
      fprintf(stderr, "step %d: penetration %.17g, deepest contact %.17g\n", i, s1->penetration,
              deepest);
      acst_failures++;
      break;
    }
    if (i == 299) {
      ENSURE(d1->ncon > 0 && s1->residual > 1);
    }
  }
  acs_deleteContext(c1);
  acs_deleteContext(c2);
  mj_deleteData(d1);
  mj_deleteData(d2);
  mj_deleteModel(m);
}


static void testMetricsLevels(void) {
  // the metrics levels measure without changing the step: the same solver at off, cheap and full
  // takes bit-identical steps; cheap reports the full level's contact count and penetration
  // exactly and the solver's own residual of the forces it returned, which the full level
  // evaluates again through MuJoCo's qacc (equal up to rounding: the two routes to a = G f + b
  // round differently, and the residual's products of forces up to 1e3 N with velocities up to
  // 1e2 m/s^2 carry about 1e-16 * 1e5 * nv ~ 1e-10 of it, 1e-11 seen: 1e-9 absolute plus 1e-9
  // relative). lagged's own residual takes the velocity of its last Newton iterate, G f + b up to
  // the iterate's momentum residual (Newton tolerance 1e-5 relative to the momentum; the
  // residual, a max over contacts of up to 1e2, moved by up to 1.7e-3 relative in this run): 1e-2
  // relative. off leaves the criteria not computed NaN
  static const char* solvers[] = {"native", "pgs", "admm", "lagged"};
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  for (int j=0; j < 4; j++) {
    mjData* d[3];
    acsContext* c[3];
    for (int lv=0; lv < 3; lv++) {
      d[lv] = acst_makeData(m);
      c[lv] = acst_makeContext(m, solvers[j]);
      acsSettings s = *acs_getSettings(c[lv]);
      s.metrics = lv;
      char error[acsNERROR];
      ENSURE(acs_setSettings(c[lv], &s, error, sizeof(error)) == 0);
    }
    int ncheck = 0;
    for (int i=0; i < 300 && !acst_failures; i++) {
      for (int lv=0; lv < 3; lv++) {
        acs_step(m, d[lv], c[lv]);
      }
      const acsStats* off = acs_getStats(c[0]);
      const acsStats* cheap = acs_getStats(c[1]);
      const acsStats* full = acs_getStats(c[2]);
      int same = !memcmp(d[0]->qpos, d[2]->qpos, m->nq * sizeof(mjtNum)) &&
                 !memcmp(d[1]->qpos, d[2]->qpos, m->nq * sizeof(mjtNum));
      int native = !strcmp(solvers[j], "native");
      mjtNum rel = !strcmp(solvers[j], "lagged") ? 1e-2 : 1e-9;
      int resok = native ? isnan(cheap->residual) :
                  mju_abs(cheap->residual - full->residual) <= rel * full->residual + 1e-9;
      if (!same || !isnan(off->signorini) || !isnan(off->penetration) ||
          !isnan(cheap->signorini) || !isnan(cheap->energy) || !isfinite(full->signorini) ||
          cheap->ncontact != full->ncontact || cheap->penetration != full->penetration || !resok) {
        fprintf(stderr, "%s step %d: same %d, residual cheap %.17g full %.17g, penetration cheap "
                "%.17g full %.17g, ncontact %d %d\n", solvers[j], i, same, cheap->residual,
                full->residual, cheap->penetration, full->penetration, cheap->ncontact,
                full->ncontact);
        acst_failures++;
      }
      // lagged's per-iteration residuals are metric work: the full level's only
      if (!strcmp(solvers[j], "lagged") &&
          (off->nhistory || cheap->nhistory || (full->niter > 0 && full->nhistory == 0))) {
        fprintf(stderr, "lagged step %d: history %d %d %d\n", i, off->nhistory, cheap->nhistory,
                full->nhistory);
        acst_failures++;
      }
      ncheck += full->ncontact > 0;
    }
    ENSURE(ncheck > 100);   // the humanoid lies on the floor for most of the run
    for (int lv=0; lv < 3; lv++) {
      acs_deleteContext(c[lv]);
      mj_deleteData(d[lv]);
    }
  }
  mj_deleteModel(m);
}


static void testHonestStatus(void) {
  // the step's status says what happened, for every acs solver on the humanoid lying in contact:
  // a budget of one iteration that cannot reach a zero tolerance gives the iteration limit (one
  // iteration taken, a positive residual reported), and a NaN applied force (a non-finite
  // problem: the solver gives zero forces) gives diverged, the reason in acs_lastError (the
  // problem, or MuJoCo's bad-acceleration check that then resets the state), and a finite state
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  for (int sol=1; sol < acsNSOLVER; sol++) {
    const char* name = acs_solverName(sol);
    mjData* d = acst_makeData(m);
    acsContext* ctx = acst_makeContext(m, name);
    for (int i=0; i < 300; i++) {
      acs_step(m, d, ctx);
    }
    acsSettings s = *acs_getSettings(ctx);
    s.maxiter = 1;
    s.tolerance = 0;
    s.rel_tolerance = 0;
    s.newton_tolerance = 0;
    char error[acsNERROR];
    ENSURE(acs_setSettings(ctx, &s, error, sizeof(error)) == 0);
    int status = acs_step(m, d, ctx);
    const acsStats* st = acs_getStats(ctx);
    if (status != acsSTATUS_MAXITER || st->niter != 1 || !(st->residual > 0)) {
      fprintf(stderr, "%s: budget 1: status %s, %d iterations, residual %g\n", name,
              acs_statusName(status), st->niter, st->residual);
      acst_failures++;
    }

    // a NaN applied force
    acst_expectWarnings(1);
    d->qfrc_applied[7] = NAN;
    status = acs_step(m, d, ctx);
    d->qfrc_applied[7] = 0;
    const char* why = acs_lastError(ctx);
    if (status != acsSTATUS_DIVERGED ||
        (!strstr(why, "not finite") && !strstr(why, "bad acceleration"))) {
      fprintf(stderr, "%s: NaN force: status %s (%s)\n", name, acs_statusName(status),
              acs_lastError(ctx));
      acst_failures++;
    }
    for (int j=0; j < m->nv; j++) {
      ENSURE(isfinite(d->qvel[j]) && isfinite(d->qacc[j]));
    }
    acst_expectWarnings(0);
    acs_deleteContext(ctx);
    mj_deleteData(d);
  }
  mj_deleteModel(m);
}


static void testFailedBuild(void) {
  // a step whose problem build runs out of memory (an injected failure of the 1st to 6th buffer
  // growth of the step, where buffers grow: the humanoid falling onto more contacts) is refused
  // and leaves no problem behind: the buffers that grew before the failure may have moved, and a
  // problem still pointing into them was read after free (ASan, test_fuzz --seconds 40 --seed 7)
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  int nrefused = 0, inject = 1;
  for (int i=0; i < 600; i++) {
    ctx->mem.failafter = inject ? 1 + i % 6 : 0;
    int status = acs_step(m, d, ctx);
    ctx->mem.failafter = 0;
    if (status == acsSTATUS_ERROR && strstr(acs_lastError(ctx), "building the constraint problem")) {
      nrefused++;
      ENSURE(ctx->problem.nefc == 0 && ctx->problem.J == NULL && ctx->problem.b == NULL);
    }
    inject = status != acsSTATUS_ERROR;   // after a refusal, a step that may grow
  }
  ENSURE(nrefused > 0);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testDampedEulerMatrix(void) {
  // Euler with joint damping: acs states the step's problem with M + hB, the matrix MuJoCo's Euler
  // step then integrates with. Its factor equals the one MuJoCo computes (qH, qHDiagInv) from the
  // same M (native with metrics builds the problem, then runs mj_Euler): 1e-12 relative, the same
  // elimination in another order of rounding; and under eulerdamp disabled it is M
  mjModel* m = acst_loadTestModel("four_bar.xml");
  if (!m) return;
  m->opt.timestep = 0.01;
  for (int i=0; i < m->nv; i++) {
    m->dof_damping[i] = 10 + i;      // h B comparable to M: a matrix clearly not M
  }
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "native");
  for (int k=0; k < 5; k++) {
    ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
  }
  ENSURE(ctx->damped);
  const mjtNum* H = acsBUF(ctx, Hfac, mjtNum);
  const mjtNum* Hdinv = acsBUF(ctx, Hdinv, mjtNum);
  mjtNum err = 0;
  for (int i=0; i < m->nC; i++) {
    err = mju_max(err, mju_abs(H[i] - d->qH[i]) / mju_max(1, mju_abs(d->qH[i])));
  }
  for (int i=0; i < m->nv; i++) {
    err = mju_max(err, mju_abs(Hdinv[i] - d->qHDiagInv[i]) / mju_abs(d->qHDiagInv[i]));
  }
  printf("  factor of M + hB against MuJoCo's: largest relative difference %.2e\n", err);
  ENSURE_LE(err, 1e-12);
  m->opt.disableflags |= mjDSBL_EULERDAMP;
  ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
  ENSURE(!ctx->damped);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testSleepingPile(void) {
  // the acs solvers on a pile of boxes with sleep enabled: the trees fall asleep as MuJoCo decides
  // (every box asleep at the end), a late box wakes those it lands on, and no step diverges
  mjModel* m = acst_loadTestModel("sleep_pile.xml");
  if (!m) return;
  const char* solvers[3] = {"pgs", "admm", "lagged"};
  for (int s=0; s < 3; s++) {
    mjData* d = acst_makeData(m);
    acsContext* ctx = acst_makeContext(m, solvers[s]);
    int woke = 0, awake_prev = (int)m->ntree, ndiverged = 0, ntree = (int)m->ntree;
    for (int i=0; i < 3000; i++) {
      ndiverged += acs_step(m, d, ctx) == acsSTATUS_DIVERGED;
      woke += d->ntree_awake > awake_prev;
      awake_prev = d->ntree_awake;
    }
    printf("  sleeping pile, %s: %d of %d trees asleep after 6 s, %d wake-ups\n", solvers[s],
           ntree - d->ntree_awake, ntree, woke);
    ENSURE(ndiverged == 0);
    ENSURE(d->ntree_awake == 0);   // the pile came to rest and sleeps
    ENSURE(woke > 0);              // the late box woke the box it hit
    acs_deleteContext(ctx);
    mj_deleteData(d);
  }
  mj_deleteModel(m);
}


static void testVersionGuard(void) {
  // the MuJoCo loaded at run time must be the version acs was built for: faked through the test
  // hook, a mismatch is refused with both versions named, and the plugin is not registered
  char error[acsNERROR] = "";
  ENSURE(acs_checkMuJoCoVersion(error, sizeof(error)) == 0);
  ENSURE(acs_version() == ACS_VERSION && !strcmp(acs_versionString(), ACS_VERSION_STRING));
  mjModel* m = acst_loadTestModel("box_plane.xml");
  if (!m) return;
  int other = mjVERSION_HEADER == 4000000 ? 3012000 : 4000000;
  acs_testMuJoCoVersion = other;
  ENSURE(acs_checkMuJoCoVersion(error, sizeof(error)) == -1);
  acsContext* ctx = acs_makeContext(m, NULL, error, sizeof(error));
  ENSURE(ctx == NULL);
  char built[32], loaded[32];
  snprintf(built, sizeof(built), "MuJoCo %d.%d.%d", mjVERSION_HEADER / 1000000,
           mjVERSION_HEADER / 1000 % 1000, mjVERSION_HEADER % 1000);
  snprintf(loaded, sizeof(loaded), "MuJoCo %d.%d.%d is loaded", other / 1000000,
           other / 1000 % 1000, other % 1000);
  ENSURE(strstr(error, built) && strstr(error, loaded));
  acsSettings s;
  acs_defaultSettings(&s);
  ENSURE(acs_modelSettings(&s, m, error, sizeof(error)) == -1 && strstr(error, built));
  ENSURE(acs_registerPlugin() == -1);
  acs_testMuJoCoVersion = 0;
  ctx = acs_makeContext(m, NULL, error, sizeof(error));
  ENSURE(ctx != NULL);
  acs_deleteContext(ctx);
  mj_deleteModel(m);
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testNativeMatchesMuJoCo),
    TEST(testRefused),
    TEST(testBadState),
    TEST(testNoConstraints),
    TEST(testManyContacts),
    TEST(testPyramidExact),
    TEST(testWarmstart),
    TEST(testEvaluateMatchesNative),
    TEST(testMetricsLevels),
    TEST(testHonestStatus),
    TEST(testFailedBuild),
    TEST(testVersionGuard),
    TEST(testDampedEulerMatrix),
    TEST(testSleepingPile),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
