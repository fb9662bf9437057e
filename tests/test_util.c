// Copyright 2026 The acs authors.
//
// Test harness and model fixtures.

#define _POSIX_C_SOURCE 200809L

#include "test_util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>

int acst_failures = 0;
int acst_nwarning = 0;
static int allow_warnings = 0;
static const char* current_test = "";

static void onWarning(const char* msg) {
  acst_nwarning++;
  if (!allow_warnings) {
    fprintf(stderr, "[%s] unexpected MuJoCo warning: %s\n", current_test, msg);
    acst_failures++;
  }
}


static void onError(const char* msg) {
  fprintf(stderr, "[%s] MuJoCo error: %s\n", current_test, msg);
  exit(1);
}


void acst_expectWarnings(int allow) {
  allow_warnings = allow;
}


int acst_main(int argc, char** argv, const acstTest* tests, int ntest) {
  const char* filter = argc > 1 ? argv[1] : NULL;
  int failed = 0, ran = 0;
  mju_user_warning = onWarning;
  mju_user_error = onError;
  for (int i=0; i < ntest; i++) {
    if (filter && !strstr(tests[i].name, filter)) {
      continue;
    }
    current_test = tests[i].name;
    acst_failures = 0;
    acst_nwarning = 0;
    allow_warnings = 0;
    tests[i].fn();
    ran++;
    printf("%-48s %s\n", tests[i].name, acst_failures ? "FAILED" : "ok");
    fflush(stdout);
    failed += acst_failures > 0;
  }
  printf("%d of %d tests passed\n", ran - failed, ran);
  return failed || ran == 0;
}


mjModel* acst_loadPath(const char* path) {
  char error[1024] = "";
  mjModel* m = mj_loadXML(path, NULL, error, sizeof(error));
  if (!m) {
    fprintf(stderr, "[%s] cannot load %s: %s\n", current_test, path, error);
    acst_failures++;
  }
  return m;
}


void acst_testModelPath(char* path, int path_sz, const char* name) {
  snprintf(path, path_sz, "%s/%s", ACS_TEST_MODELS_DIR, name);
}


mjModel* acst_loadTestModel(const char* name) {
  char path[1024];
  acst_testModelPath(path, sizeof(path), name);
  return acst_loadPath(path);
}


const char* acst_sharedDir(void) {
  const char* dir = getenv("ACS_SHARED_MODELS");
  return (dir && dir[0]) ? dir : ACS_SHARED_MODELS_DIR;
}


static int compareString(const void* a, const void* b) {
  return strcmp((const char*)a, (const char*)b);
}


// the .xml files of a directory, sorted, appended to paths
static int listDir(char (*paths)[1024], int n, int max, const char* dir) {
  DIR* dp = opendir(dir);
  if (!dp) {
    fprintf(stderr, "[%s] cannot open %s\n", current_test, dir);
    acst_failures++;
    return n;
  }
  int first = n;
  struct dirent* e;
  while ((e = readdir(dp)) && n < max) {
    size_t len = strlen(e->d_name);
    if (len > 4 && !strcmp(e->d_name + len - 4, ".xml")) {
      snprintf(paths[n++], 1024, "%s/%s", dir, e->d_name);
    }
  }
  closedir(dp);
  qsort(paths + first, n - first, sizeof(paths[0]), compareString);
  return n;
}


int acst_listModels(char (*paths)[1024], int max) {
  int n = listDir(paths, 0, max, ACS_TEST_MODELS_DIR);
  return listDir(paths, n, max, acst_sharedDir());
}


mjModel* acst_loadSharedModel(const char* name) {
  const char* dir = acst_sharedDir();
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "[%s] shared model %s not found: the shared models are expected in "
            "%s (set ACS_SHARED_MODELS to their directory)\n", current_test, path, dir);
    acst_failures++;
    return NULL;
  }
  fclose(f);
  return acst_loadPath(path);
}


mjModel* acst_loadString(const char* xml) {
  char error[1024] = "";
  mjSpec* spec = mj_parseXMLString(xml, NULL, error, sizeof(error));
  if (!spec) {
    fprintf(stderr, "[%s] cannot parse model: %s\n", current_test, error);
    acst_failures++;
    return NULL;
  }
  mjModel* m = mj_compile(spec, NULL);
  if (!m) {
    fprintf(stderr, "[%s] cannot compile model: %s\n", current_test, mjs_getError(spec));
    acst_failures++;
  }
  mj_deleteSpec(spec);
  return m;
}


mjModel* acst_loadWall(int nbox) {
  char xml[256*128] = "<mujoco><option timestep='0.002'/><worldbody>"
                      "<geom type='plane' size='5 5 0.1'/>";
  int width = nbox < 8 ? nbox : 8;
  for (int i=0; i < nbox && i < 120; i++) {
    char body[160];
    snprintf(body, sizeof(body), "<body pos='%.3f 0 %.4f'><freejoint/><geom type='box' "
             "size='0.05 0.05 0.05' mass='1'/></body>", 0.1*(i % width) +
             0.05*((i / width) % 2), 0.05 + 0.1*(i / width));
    strcat(xml, body);
  }
  strcat(xml, "</worldbody></mujoco>");
  return acst_loadString(xml);
}


mjModel* acst_loadChain(int ndof, int nfriction, int connect, int keyframe) {
  char* xml = mju_malloc(1 << 20);
  char* q = xml;
  q += sprintf(q, "<mujoco><option timestep='0.002'/><worldbody>");
  for (int i=0; i < ndof; i++) {
    q += sprintf(q, "<body name='b%d' pos='0 0 -0.02'><joint type='hinge' axis='%d %d 0' "
                 "frictionloss='%g' damping='1' armature='0.1'/><geom type='capsule' "
                 "size='0.005 0.01' contype='0' conaffinity='0' mass='1'/>", i, i % 2, 1 - i % 2,
                 i >= ndof - nfriction ? 1.0 : 0.0);
  }
  for (int i=0; i < ndof; i++) {
    q += sprintf(q, "</body>");
  }
  q += sprintf(q, "</worldbody>");
  if (connect > 0) {
    q += sprintf(q, "<equality>");
    for (int c=0; c < connect; c++) {
      q += sprintf(q, "<connect body1='b%d' anchor='0 0 0'/>", ndof - 1);
    }
    q += sprintf(q, "</equality>");
  }
  if (keyframe) {
    q += sprintf(q, "<keyframe><key qpos='");
    for (int i=0; i < ndof; i++) {
      q += sprintf(q, "%g ", 0.3 * ((i * 37) % 11 - 5) / 5.0);
    }
    q += sprintf(q, "'/></keyframe>");
  }
  sprintf(q, "</mujoco>");
  mjModel* m = acst_loadString(xml);
  mju_free(xml);
  return m;
}


mjData* acst_makeData(const mjModel* m) {
  mjData* d = mj_makeData(m);
  if (m->nkey > 0) {
    mj_resetDataKeyframe(m, d, 0);
  }
  return d;
}


acsContext* acst_makeContext(const mjModel* m, const char* solver) {
  char error[acsNERROR] = "";
  acsSettings s;
  acs_defaultSettings(&s);
  if (acs_setOption(&s, "solver", solver, error, sizeof(error))) {
    fprintf(stderr, "[%s] %s\n", current_test, error);
    acst_failures++;
    return NULL;
  }
  acsContext* ctx = acs_makeContext(m, &s, error, sizeof(error));
  if (!ctx) {
    fprintf(stderr, "[%s] acs_makeContext: %s\n", current_test, error);
    acst_failures++;
  }
  return ctx;
}


//---------------------------------- hand-built problems -------------------------------------------

void acst_problemInit(acstProblem* t, int nv, const mjtNum* M, mjtNum h) {
  memset(t, 0, sizeof(acstProblem));
  mju_copy(t->M, M, nv*nv);
  acsProblem* p = &t->p;
  p->nv = nv;
  p->timestep = h;
  p->block_type = t->block_type;
  p->block_dim = t->block_dim;
  p->block_adr = t->block_adr;
  p->block_id = t->block_id;
  p->block_mu = t->block_mu;
  p->block_floss = t->block_floss;
  p->block_pos = t->block_pos;
  p->b = t->b;
  p->J_rownnz = t->J_rownnz;
  p->J_rowadr = t->J_rowadr;
  p->J_colind = t->J_colind;
  p->J = t->J;
  p->Y_rownnz = t->Y_rownnz;
  p->Y_rowadr = t->Y_rowadr;
  p->Y_colind = t->Y_colind;
  p->Y = t->Y;
}


void acst_problemAdd(acstProblem* t, int type, int dim, const mjtNum* Jrows, const mjtNum* b,
                     const mjtNum* mu, mjtNum floss) {
  acsProblem* p = &t->p;
  int nv = p->nv, k = p->nblock, adr = p->nefc;
  t->block_type[k] = type;
  t->block_dim[k] = dim;
  t->block_adr[k] = adr;
  t->block_id[k] = k;
  t->block_floss[k] = floss;
  if (mu) {
    mju_copy(t->block_mu + 5*k, mu, 5);
  }

  // Y rows = M^-1 J' by Cholesky
  mjtNum L[acstMAXDOF*acstMAXDOF];
  mju_copy(L, t->M, nv*nv);
  mju_cholFactor(L, nv, 0);
  for (int r=0; r < dim; r++) {
    int row = adr + r;
    t->J_rownnz[row] = t->Y_rownnz[row] = nv;
    t->J_rowadr[row] = t->Y_rowadr[row] = row*nv;
    for (int c=0; c < nv; c++) {
      t->J_colind[row*nv + c] = t->Y_colind[row*nv + c] = c;
    }
    mju_copy(t->J + row*nv, Jrows + r*nv, nv);
    mju_cholSolve(t->Y + row*nv, L, Jrows + r*nv, nv);
    t->b[row] = b[r];
  }
  p->nblock++;
  p->nefc += dim;
  p->nnzJ = p->nnzY = p->nefc * nv;
}


void acst_velocity(mjtNum* a, const acsProblem* p, const mjtNum* f) {
  for (int i=0; i < p->nefc; i++) {
    a[i] = p->b[i] + (p->R ? p->R[i]*f[i] : 0);
    for (int j=0; j < p->nefc; j++) {
      // G_ij = J_i . Y_j (dense rows in hand-built problems)
      mjtNum g = 0;
      for (int c=0; c < p->nv; c++) {
        g += p->J[p->J_rowadr[i] + c] * p->Y[p->Y_rowadr[j] + c];
      }
      a[i] += g * f[j];
    }
  }
}


int acst_solve(mjtNum* force, acsStats* stats, const acsProblem* p, const char* solver,
               mjtNum tolerance, int maxiter) {
  acsSettings s;
  char error[acsNERROR];
  acs_defaultSettings(&s);
  if (acs_setOption(&s, "solver", solver, error, sizeof(error))) {
    fprintf(stderr, "%s\n", error);
    acst_failures++;
    return acsSTATUS_ERROR;
  }
  s.tolerance = tolerance;
  s.maxiter = maxiter;
  s.rel_tolerance = 0;
  return acst_solveSettings(force, stats, p, &s);
}


int acst_solveSettings(mjtNum* force, acsStats* stats, const acsProblem* p,
                       const acsSettings* s) {
  char error[acsNERROR];
  size_t sz = acs_workspaceSize(p, s);
  void* work = malloc(sz);
  int status = acs_solve(force, stats, NULL, p, s, work, sz, error, sizeof(error));
  free(work);
  if (status == acsSTATUS_ERROR) {
    fprintf(stderr, "acs_solve refused the problem: %s\n", error);
  }
  return status;
}
