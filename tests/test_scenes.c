// Copyright 2026 The acs authors.
//
// Scene tests: physics of whole steps on test_models/ and the shared MuJoCo models, checked
// against analytic answers.

#include <math.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "test_util.h"

// run n steps with acs; return 0 if every step ran and the state stayed finite
static int run(const mjModel* m, mjData* d, acsContext* ctx, int n) {
  for (int i=0; i < n; i++) {
    if (acs_step(m, d, ctx) == acsSTATUS_ERROR) {
      fprintf(stderr, "step %d refused: %s\n", i, acs_lastError(ctx));
      return -1;
    }
    for (int j=0; j < m->nq; j++) {
      if (!isfinite(d->qpos[j])) {
        fprintf(stderr, "step %d: qpos[%d] = %g\n", i, j, d->qpos[j]);
        return -1;
      }
    }
  }
  return 0;
}


static mjtNum sensor(const mjModel* m, const mjData* d, const char* name, int k) {
  int id = mj_name2id(m, mjOBJ_SENSOR, name);
  return d->sensordata[m->sensor_adr[id] + k];
}


//---------------------------------- box on a plane ------------------------------------------------

static void boxOnPlane(int cone) {
  mjModel* m = acst_loadTestModel("box_plane.xml");
  if (!m) return;
  m->opt.cone = cone;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  ENSURE(run(m, d, ctx, 500) == 0);   // 1 s: the initial contact transient is long gone

  // weight of box and payload
  mjtNum mg = 1.5 * 9.81;

  // sum of normal forces from mj_contactForce (frame normal is +z: floor to box)
  mjtNum fn = 0, ft = 0;
  for (int i=0; i < d->ncon; i++) {
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    fn += f[0] * d->contact[i].frame[2];
    ft += f[1];
  }
  ENSURE(d->ncon == 4);

  // 1e-6 relative: the solver stops at a residual of 1e-6 N m/s^2 on forces of ~4 N
  ENSURE_NEAR(fn, mg, 1e-6*mg);
  ENSURE_NEAR(sensor(m, d, "touch", 0), mg, 1e-6*mg);

  // accelerometer at rest reads +g; the payload mount carries 0.5 kg: both come from qacc, so
  // they check that qacc and qfrc_constraint are consistent with efc_force
  ENSURE_NEAR(sensor(m, d, "accel", 2), 9.81, 1e-6*9.81);
  ENSURE_NEAR(fabs(sensor(m, d, "mount_force", 2)), 0.5*9.81, 1e-6*9.81);
  ENSURE_NEAR(sensor(m, d, "mount_force", 0), 0, 1e-6*9.81);
  ENSURE_NEAR(fabs(sensor(m, d, "mount_torque", 1)), 0.5*9.81*0.04, 1e-6*9.81);
  ENSURE_NEAR(sensor(m, d, "mount_torque", 0), 0, 1e-6*9.81);

  // contact-force rendering: one arrow per contact with a non-zero force
  mjvOption opt;
  mjv_defaultOption(&opt);
  opt.flags[mjVIS_CONTACTFORCE] = 1;
  mjvScene scn;
  mjv_defaultScene(&scn);
  mjv_makeScene(m, &scn, 1000);
  mjvCamera cam;
  mjv_defaultCamera(&cam);
  mjv_updateScene(m, d, &opt, NULL, &cam, mjCAT_DECOR, &scn);
  int narrow = 0;
  for (int i=0; i < scn.ngeom; i++) {
    narrow += (scn.geoms[i].type == mjGEOM_ARROW);
  }
  ENSURE(narrow == 4);
  mjv_freeScene(&scn);

  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testBoxPlanePyramidal(void) {
  boxOnPlane(mjCONE_PYRAMIDAL);
}


static void testBoxPlaneElliptic(void) {
  boxOnPlane(mjCONE_ELLIPTIC);
}


//---------------------------------- incline -------------------------------------------------------

// displacement of the box over 5 s after 0.2 s of settling
static mjtNum inclineDisplacement(const char* solver, int integrator) {
  mjModel* m = acst_loadTestModel("incline_stick.xml");
  if (!m) return NAN;
  m->opt.integrator = integrator;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, solver);
  ENSURE(run(m, d, ctx, 100) == 0);
  mjtNum p0[3];
  mju_copy3(p0, d->qpos);
  ENSURE(run(m, d, ctx, 2500) == 0);
  mjtNum dif[3];
  mju_sub3(dif, d->qpos, p0);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
  return mju_norm3(dif);
}


static void testInclineStick(void) {
  // mu = 0.5 > tan(20 deg): Coulomb friction holds the box
  mjtNum disp = inclineDisplacement("pgs", mjINT_EULER);
  ENSURE_LE(disp, 1e-6);

  // the free box has no damping: the implicit integrators integrate the same velocity
  ENSURE_LE(inclineDisplacement("pgs", mjINT_IMPLICITFAST), 1e-6);
  ENSURE_LE(inclineDisplacement("pgs", mjINT_IMPLICIT), 1e-6);

  // the measurement is sensitive: MuJoCo's soft contact creeps on the same slope
  mjtNum creep = inclineDisplacement("native", mjINT_EULER);
  ENSURE(creep > 1e-6);
  printf("  incline stick, 5 s: pgs moved %.3g m, native (MuJoCo) crept %.3g m\n", disp, creep);
}


static void testInclineSlide(void) {
  // mu = 0.2 < tan(20 deg): slides down with a = g (sin 20 - mu cos 20)
  mjModel* m = acst_loadTestModel("incline_slide.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  mjtNum th = 20 * mjPI / 180;
  mjtNum down[3] = {cos(th), 0, -sin(th)};
  ENSURE(run(m, d, ctx, 100) == 0);
  mjtNum v1 = mju_dot3(d->qvel, down), t1 = d->time;
  ENSURE(run(m, d, ctx, 500) == 0);
  mjtNum v2 = mju_dot3(d->qvel, down), t2 = d->time;
  mjtNum accel = (v2 - v1) / (t2 - t1);
  mjtNum expected = 9.81 * (sin(th) - 0.2*cos(th));
  ENSURE_NEAR(accel, expected, 0.01*expected);
  printf("  incline slide: a = %.6f m/s^2, analytic %.6f\n", accel, expected);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


//---------------------------------- robustness on shared models -----------------------------------

static void testHumanoid10s(void) {
  // joint limits and many foot and body contacts; 10 s at 5 ms
  mjModel* m = acst_loadSharedModel("humanoid.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  ENSURE(run(m, d, ctx, 2000) == 0);
  ENSURE(d->warning[mjWARN_BADQACC].number == 0);
  // the humanoid collapses and lies on the floor: it stays above it (no fall-through)
  ENSURE(d->qpos[2] > 0.05);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testSliderCrank10s(void) {
  // the shared slider crank has no equality constraint (its loop is an actuator transmission),
  // hence no constraint rows: the empty-problem path for 10 s
  mjModel* m = acst_loadSharedModel("slider_crank.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  for (int i=0; i < m->nu; i++) {
    d->ctrl[i] = 0.5;
  }
  ENSURE(run(m, d, ctx, (int)(10 / m->opt.timestep)) == 0);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void fourBarLoop(int integrator) {
  // a closed loop through a connect equality, swinging for 10 s: the loop-closure error stays
  // bounded by the Baumgarte correction of the velocity-level constraint
  mjModel* m = acst_loadTestModel("four_bar.xml");
  if (!m) return;
  m->opt.integrator = integrator;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  mjtNum maxerr = 0;
  for (int i=0; i < 5000; i++) {
    ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
    for (int r=0; r < d->ne; r++) {
      maxerr = mju_max(maxerr, fabs(d->efc_pos[r]));
    }
  }
  // connect gives 3 rows; the out-of-plane one is identically zero (MuJoCo keeps it): the
  // block's Delassus matrix is singular and the solve must cope
  ENSURE(d->ne == 3);
  // bound: Baumgarte removes 20% of the error per step, so it cannot accumulate beyond a few
  // steps of the per-step velocity error (observed: 3e-6 m)
  ENSURE_LE(maxerr, 1e-4);
  printf("  four-bar, 10 s, integrator %d: max loop-closure error %.3g m\n", integrator, maxerr);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testFourBarLoop(void) {
  // Euler with joint damping (MuJoCo's implicit-damping path), implicitfast, implicit
  fourBarLoop(mjINT_EULER);
  fourBarLoop(mjINT_IMPLICITFAST);
  fourBarLoop(mjINT_IMPLICIT);
}


//---------------------------------- joint friction, limits ----------------------------------------

static void testJointConstraints(void) {
  mjModel* m = acst_loadTestModel("joint_constraints.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  int hold = m->jnt_dofadr[mj_name2id(m, mjOBJ_JOINT, "hold")];
  int slip = m->jnt_dofadr[mj_name2id(m, mjOBJ_JOINT, "slip")];
  int hang = m->jnt_qposadr[mj_name2id(m, mjOBJ_JOINT, "hang")];
  int stop = m->jnt_qposadr[mj_name2id(m, mjOBJ_JOINT, "stop")];

  // first step: the slipping arm accelerates at (gravity torque - friction loss) / inertia
  mjtNum M[16];
  mj_forward(m, d);
  mj_fullM(m, d, M);
  mjtNum I = M[slip*m->nv + slip];
  ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
  mjtNum alpha = d->qvel[slip] / m->opt.timestep;
  // 1e-6 relative: the friction-loss row is saturated, so the step is exact to solver tolerance
  ENSURE_NEAR(alpha, (9.81*0.5 - 2) / I, 1e-6 * (9.81*0.5 - 2) / I);

  // 1 s: the holding arm never moves, the hanging masses rest on their limits
  ENSURE(run(m, d, ctx, 499) == 0);
  // (rounding of the gravity and friction torques leaves 1e-17 rad/s)
  ENSURE_LE(fabs(d->qpos[hold]), 1e-12);
  ENSURE_LE(fabs(d->qvel[hold]), 1e-12);
  // at rest on a limit: within the slop of the limit, the limit force carries m g
  ENSURE(d->qpos[hang] <= -0.1 && d->qpos[hang] >= -0.1 - 1.5e-4);
  ENSURE(d->qpos[stop] <= -0.05 && d->qpos[stop] >= -0.05 - 1.5e-4);
  ENSURE_NEAR(sensor(m, d, "hang_limit", 0), 9.81, 1e-6*9.81);
  ENSURE_NEAR(sensor(m, d, "stop_limit", 0), 9.81, 1e-6*9.81);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


//---------------------------------- torsional friction (condim 4 and 6) ---------------------------

static void spin(int cone) {
  mjModel* m = acst_loadTestModel("spin.xml");
  if (!m) return;
  m->opt.cone = cone;
  mjData* d = acst_makeData(m);
  acsContext* ctx = acst_makeContext(m, "pgs");
  d->qvel[5] = d->qvel[11] = 30;   // spin about z (free joints: angular velocity in body frame)
  ENSURE(run(m, d, ctx, 50) == 0);
  mjtNum w4 = d->qvel[5], w6 = d->qvel[11], t1 = d->time;
  ENSURE(run(m, d, ctx, 200) == 0);
  mjtNum t2 = d->time;
  mjtNum expected = 0.02 * 9.81 / (0.4 * 0.1 * 0.1);
  // 1e-4 relative: the torque saturates exactly (solver tolerance), the rest is rounding of time
  ENSURE_NEAR((w4 - d->qvel[5]) / (t2 - t1), expected, 1e-4*expected);
  ENSURE_NEAR((w6 - d->qvel[11]) / (t2 - t1), expected, 1e-4*expected);
  // the spheres spin in place: no sliding, no rolling
  ENSURE_LE(fabs(d->qvel[0]) + fabs(d->qvel[1]) + fabs(d->qvel[6]) + fabs(d->qvel[7]), 1e-9);
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testSpinCondim46(void) {
  spin(mjCONE_ELLIPTIC);
  spin(mjCONE_PYRAMIDAL);
}


//---------------------------------- restitution, compliance ---------------------------------------

static void testRestitution(void) {
  // the ball leaves the floor at e times the speed it had when the contact appeared
  mjModel* m = acst_loadTestModel("ball_drop.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  acsSettings s;
  char error[acsNERROR];
  acs_defaultSettings(&s);
  s.restitution = 0.5;
  acsContext* ctx = acs_makeContext(m, &s, error, sizeof(error));
  mjtNum vin = 0, vout = 0;
  for (int i=0; i < 1000 && vout == 0; i++) {
    mjtNum v = d->qvel[2];
    ENSURE(acs_step(m, d, ctx) != acsSTATUS_ERROR);
    if (d->ncon > 0 && d->qvel[2] > 0) {
      vin = v;
      vout = d->qvel[2];
    }
  }
  ENSURE(vin < -2.5);
  ENSURE_NEAR(vout, -0.5*vin, 1e-6*fabs(vin));
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


static void testCompliance(void) {
  // compliance R = c G_nn (G_nn = 1/m for a ball): at rest the contact velocity h (R f_n) is
  // balanced by Baumgarte beta (-phi - slop) / h, so phi = -slop - h^2 c g / beta
  mjModel* m = acst_loadTestModel("ball_drop.xml");
  if (!m) return;
  mjData* d = acst_makeData(m);
  d->qpos[2] = 0.05;
  acsSettings s;
  char error[acsNERROR];
  acs_defaultSettings(&s);
  s.compliance = 2;
  acsContext* ctx = acs_makeContext(m, &s, error, sizeof(error));
  ENSURE(run(m, d, ctx, 2000) == 0);
  mjtNum h = m->opt.timestep;
  mjtNum expected = -s.slop - h*h * s.compliance * 9.81 / s.baumgarte;
  ENSURE(d->ncon == 1);
  ENSURE_NEAR(d->contact[0].dist, expected, 1e-3*fabs(expected));
  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testBoxPlanePyramidal),
    TEST(testBoxPlaneElliptic),
    TEST(testInclineStick),
    TEST(testInclineSlide),
    TEST(testHumanoid10s),
    TEST(testSliderCrank10s),
    TEST(testFourBarLoop),
    TEST(testJointConstraints),
    TEST(testSpinCondim46),
    TEST(testRestitution),
    TEST(testCompliance),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
