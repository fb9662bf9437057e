// Copyright 2026 The acs authors.
//
// The smallest acs program: a MuJoCo simulation loop where mj_step becomes acs_step.
// Usage: acs-quickstart [MODEL.xml]   (default: test_models/incline_stick.xml)

#include <stdio.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "test_models/incline_stick.xml";
  char error[1000];

  mjModel* m = mj_loadXML(path, NULL, error, sizeof(error));
  if (!m) {
    printf("%s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);

  // solver and options from the model (<custom> acs_* fields), default: pgs
  acsContext* ctx = acs_makeContext(m, NULL, error, sizeof(error));
  if (!ctx) {
    printf("%s\n", error);
    return 1;
  }

  mjtNum x0 = d->qpos[0];
  while (d->time < 5) {
    acs_step(m, d, ctx);            // was: mj_step(m, d);
  }

  const acsStats* stats = acs_getStats(ctx);
  printf("t = %.2f s, solver %s, NCP residual %.2g, body 0 moved %.3g m along x\n",
         d->time, acs_solverName(stats->solver), stats->residual, d->qpos[0] - x0);

  acs_deleteContext(ctx);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
