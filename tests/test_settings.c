// Copyright 2026 The acs authors.
//
// Tests for plugin/settings.c and plugin/register.c: defaults, options from <custom> fields and
// the acs.solver plugin, API overrides, and the errors for bad values.

#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "test_util.h"

// a one-box model with extra MJCF inserted at the top level
static mjModel* modelWith(const char* extra) {
  char xml[4096];
  snprintf(xml, sizeof(xml),
           "<mujoco>%s<worldbody><geom type='plane' size='1 1 .1'/>"
           "<body pos='0 0 .1'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
           "</worldbody></mujoco>", extra);
  return acst_loadString(xml);
}


// acs_makeContext on a model must fail with a message containing both fragments
static void expectRefused(const char* extra, const char* frag1, const char* frag2) {
  mjModel* m = modelWith(extra);
  if (!m) return;
  char error[acsNERROR] = "";
  acsContext* ctx = acs_makeContext(m, NULL, error, sizeof(error));
  ENSURE(ctx == NULL);
  if (!strstr(error, frag1) || !strstr(error, frag2)) {
    fprintf(stderr, "model %s: message '%s' lacks '%s' or '%s'\n", extra, error, frag1, frag2);
    acst_failures++;
  }
  acs_deleteContext(ctx);
  mj_deleteModel(m);
}


static void testDefaults(void) {
  acsSettings s;
  char error[acsNERROR] = "";
  acs_defaultSettings(&s);
  ENSURE(acs_validateSettings(&s, error, sizeof(error)) == 0);
  ENSURE(s.solver == acsSOL_PGS);

  // every option is documented with its default and range
  char doc[8192];
  acs_describeOptions(doc, sizeof(doc));
  const char* names[] = {"acs_solver", "acs_maxiter", "acs_tolerance", "acs_rel_tolerance",
                         "acs_omega", "acs_baumgarte", "acs_slop", "acs_restitution",
                         "acs_restitution_vel", "acs_compliance", "acs_warmstart",
                         "acs_warmstart_radius", "acs_metrics"};
  for (size_t i=0; i < sizeof(names)/sizeof(names[0]); i++) {
    ENSURE(strstr(doc, names[i]) != NULL);
  }

  // a struct not made by acs_defaultSettings is refused
  acsSettings raw;
  memset(&raw, 0, sizeof(raw));
  ENSURE(acs_validateSettings(&raw, error, sizeof(error)) == -1);
  ENSURE(strstr(error, "acs_defaultSettings"));
}


static void testReadmeDocumentsOptions(void) {
  // the README's option table names every option the code accepts, with the default that
  // acs_defaultSettings sets (the row: | `name` | unit | default | range | effect |)
  char path[1024], doc[8192];
  snprintf(path, sizeof(path), "%s/README.md", ACS_SOURCE_DIR);
  FILE* f = fopen(path, "r");
  ENSURE(f != NULL);
  if (!f) return;
  static char readme[1 << 16];
  size_t n = fread(readme, 1, sizeof(readme)-1, f);
  readme[n] = 0;
  fclose(f);
  acs_describeOptions(doc, sizeof(doc));
  for (char* line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
    char name[64], row[80];
    sscanf(line, "%63s", name);
    snprintf(row, sizeof(row), "| `%s` |", name);
    const char* at = strstr(readme, row);
    if (!at) {
      fprintf(stderr, "README.md has no table row for %s\n", name);
      acst_failures++;
      continue;
    }
    char documented[64] = "", actual[64] = "", error[acsNERROR];
    const char* cell = strchr(at + strlen(row), '|');                   // after the unit
    if (cell) {
      sscanf(cell, "| %63[^|]", documented);
    }
    for (char* c = documented + strlen(documented); c > documented && (c[-1] == ' ' ||
                                                                       c[-1] == '`'); ) {
      *--c = 0;                   // the cell's trailing blanks and a name's backticks
    }
    const char* text = documented[0] == '`' ? documented + 1 : documented;
    acsSettings s;
    acs_defaultSettings(&s);
    ENSURE(acs_getOption(actual, sizeof(actual), &s, name, error, sizeof(error)) == 0);
    char* end;
    double value = strtod(text, &end);
    int same = end != text && *end == 0 ? value == strtod(actual, NULL) : !strcmp(text, actual);
    if (!same) {
      fprintf(stderr, "README.md gives %s the default '%s'; acs_defaultSettings sets '%s'\n",
              name, text, actual);
      acst_failures++;
    }
  }
}


static void testModelConfig(void) {
  // <custom> fields
  mjModel* m = modelWith("<custom><text name='acs_solver' data='native'/>"
                         "<numeric name='acs_tolerance' data='1e-9'/>"
                         "<numeric name='acs_maxiter' data='250'/>"
                         "<text name='acs_warmstart' data='false'/></custom>");
  if (!m) return;
  char error[acsNERROR] = "";
  acsContext* ctx = acs_makeContext(m, NULL, error, sizeof(error));
  ENSURE(ctx != NULL);
  if (ctx) {
    const acsSettings* s = acs_getSettings(ctx);
    ENSURE(s->solver == acsSOL_NATIVE);
    ENSURE(s->tolerance == 1e-9);
    ENSURE(s->maxiter == 250);
    ENSURE(s->warmstart == 0);
  }
  acs_deleteContext(ctx);

  // the API overrides the model: defaults, then the model, then acs_setOption
  acsSettings s;
  acs_defaultSettings(&s);
  ENSURE(acs_modelSettings(&s, m, error, sizeof(error)) == 0);
  ENSURE(acs_setOption(&s, "acs_tolerance", "1e-8", error, sizeof(error)) == 0);
  ENSURE(acs_setOption(&s, "solver", "pgs", error, sizeof(error)) == 0);
  ctx = acs_makeContext(m, &s, error, sizeof(error));
  ENSURE(ctx && acs_getSettings(ctx)->tolerance == 1e-8);
  ENSURE(ctx && acs_getSettings(ctx)->solver == acsSOL_PGS);
  ENSURE(ctx && acs_getSettings(ctx)->maxiter == 250);
  acs_deleteContext(ctx);
  mj_deleteModel(m);

  // the engine plugin's config
  m = modelWith("<extension><plugin plugin='acs.solver'><instance name='acs'>"
                "<config key='solver' value='native'/><config key='omega' value='1.3'/>"
                "</instance></plugin></extension>");
  if (!m) return;
  ctx = acs_makeContext(m, NULL, error, sizeof(error));
  ENSURE(ctx && acs_getSettings(ctx)->solver == acsSOL_NATIVE);
  ENSURE(ctx && acs_getSettings(ctx)->omega == 1.3);
  acs_deleteContext(ctx);
  mj_deleteModel(m);
}


static void testBadModelConfig(void) {
  expectRefused("<custom><text name='acs_solver' data='bogus'/></custom>",
                "acs_solver: unknown solver 'bogus'", "allowed: native, pgs");
  expectRefused("<custom><numeric name='acs_tolerance' data='-1'/></custom>",
                "acs_tolerance", "[0, inf)");
  expectRefused("<custom><text name='acs_maxiter' data='abc'/></custom>",
                "acs_maxiter: must be an integer in [0, 1e+06]", "'abc'");
  expectRefused("<custom><numeric name='acs_maxiter' data='2.5'/></custom>",
                "acs_maxiter", "integer");
  expectRefused("<custom><numeric name='acs_tolerance' data='1 2'/></custom>",
                "acs_tolerance", "expected 1 number, got 2");
  expectRefused("<custom><numeric name='acs_tolarance' data='1'/></custom>",
                "unknown option 'acs_tolarance'", "acs_tolerance");
  expectRefused("<custom><numeric name='acs_omega' data='2'/></custom>",
                "acs_omega", "(0, 2)");
  expectRefused("<custom><numeric name='acs_solver' data='1'/></custom>",
                "acs_solver", "text");
  expectRefused("<extension><plugin plugin='acs.solver'><instance name='a'>"
                "<config key='solver' value='admmm'/></instance></plugin></extension>",
                "plugin acs.solver config acs_solver", "allowed: native, pgs");
  expectRefused("<extension><plugin plugin='acs.solver'><instance name='a'>"
                "<config key='warmstart' value='yes'/></instance></plugin></extension>",
                "acs_warmstart", "0 or 1");

  // an unknown plugin key is refused by MuJoCo's compiler, naming the key
  char error[1024] = "";
  mjSpec* spec = mj_parseXMLString(
    "<mujoco><extension><plugin plugin='acs.solver'><instance name='a'>"
    "<config key='tolerence' value='1'/></instance></plugin></extension></mujoco>",
    NULL, error, sizeof(error));
  mjModel* m = spec ? mj_compile(spec, NULL) : NULL;
  ENSURE(m == NULL);
  ENSURE(spec == NULL ? strstr(error, "tolerence") != NULL :
         strstr(mjs_getError(spec), "tolerence") != NULL);
  mj_deleteModel(m);
  mj_deleteSpec(spec);
}


// acs_getOption writes what acs_setOption reads: every option of non-default settings round-trips
// exactly through its text (numbers with 17 significant digits)
static void testGetOption(void) {
  acsSettings s, t;
  char error[acsNERROR] = "", value[64];
  acs_defaultSettings(&s);
  ENSURE(acs_setOption(&s, "solver", "ccp-admm", error, sizeof(error)) == 0);
  ENSURE(acs_setOption(&s, "tolerance", "1.2345678901234567e-7", error, sizeof(error)) == 0);
  ENSURE(acs_setOption(&s, "maxiter", "0", error, sizeof(error)) == 0 && s.maxiter == 0);
  ENSURE(acs_setOption(&s, "maxiter", "-1", error, sizeof(error)) == -1 && s.maxiter == 0);
  ENSURE(strstr(error, "acs_maxiter: must be an integer in [0, 1e+06]") != NULL);
  ENSURE(acs_setOption(&s, "maxiter", "77", error, sizeof(error)) == 0);
  ENSURE(acs_setOption(&s, "warmstart", "false", error, sizeof(error)) == 0);
  ENSURE(acs_setOption(&s, "max_correction", "inf", error, sizeof(error)) == 0);
  acs_defaultSettings(&t);
  for (int i=0; i < acs_optionCount(); i++) {
    const char* name = acs_optionName(i);
    ENSURE(acs_optionType(i) >= 0 && acs_optionType(i) < acsNOPTIONTYPE);
    ENSURE(acs_getOption(value, sizeof(value), &s, name, error, sizeof(error)) == 0);
    ENSURE(acs_setOption(&t, name, value, error, sizeof(error)) == 0);
  }
  ENSURE(memcmp(&s, &t, sizeof(acsSettings)) == 0);
  ENSURE(acs_getOption(value, sizeof(value), &s, "acs_solver", error, sizeof(error)) == 0);
  ENSURE(!strcmp(value, "ccp-admm"));
  ENSURE(acs_getOption(value, sizeof(value), &s, "maxiter", error, sizeof(error)) == 0);
  ENSURE(!strcmp(value, "77"));
  ENSURE(acs_optionType(-1) == -1 && acs_optionType(acs_optionCount()) == -1);
  ENSURE(acs_getOption(value, sizeof(value), &s, "tol", error, sizeof(error)) == -1);
  ENSURE(strstr(error, "unknown option 'tol'"));
  ENSURE(strstr(acs_solverDescription(acsSOL_ADMM), "ADMM") && !acs_solverDescription(acsNSOLVER));
}


static void testSetOption(void) {
  acsSettings s;
  char error[acsNERROR] = "";
  acs_defaultSettings(&s);
  ENSURE(acs_setOption(&s, "tolerance", "nan", error, sizeof(error)) == -1);
  ENSURE(strstr(error, "acs_tolerance: must be a finite number"));
  ENSURE(acs_setOption(&s, "acs_tolerance", "1e-3x", error, sizeof(error)) == -1);
  ENSURE(acs_setOption(&s, "acs_warmstart_radius", "0", error, sizeof(error)) == -1);
  ENSURE(strstr(error, "(0, inf)"));
  ENSURE(acs_setOption(&s, "acs_baumgarte", "0.5", error, sizeof(error)) == 0);
  ENSURE(s.baumgarte == 0.5);
  ENSURE(acs_setOption(&s, "acs_metrics", "0", error, sizeof(error)) == 0);
  ENSURE(s.metrics == 0);
  ENSURE(acs_setOption(&s, NULL, "1", error, sizeof(error)) == -1);

  // replacing a context's settings validates them
  mjModel* m = modelWith("");
  if (!m) return;
  acsContext* ctx = acs_makeContext(m, NULL, error, sizeof(error));
  s.omega = 2.5;
  ENSURE(acs_setSettings(ctx, &s, error, sizeof(error)) == -1);
  ENSURE(strstr(error, "acs_omega"));
  ENSURE(acs_getSettings(ctx)->omega == 1);
  acs_deleteContext(ctx);
  mj_deleteModel(m);

  // names
  ENSURE(acs_solverId("pgs") == acsSOL_PGS);
  ENSURE(acs_solverId("nope") == -1);
  ENSURE(!strcmp(acs_solverName(acsSOL_NATIVE), "native"));
  ENSURE(acs_solverName(acsNSOLVER) == NULL);
  // the solver table has an entry for every enum value, and names round-trip
  for (int i = 0; i < acsNSOLVER; i++) {
    ENSURE(acs_solverName(i) != NULL);
    if (acs_solverName(i)) ENSURE(acs_solverId(acs_solverName(i)) == i);
  }
  ENSURE(!strcmp(acs_statusName(acsSTATUS_MAXITER), "maxiter"));
}


int main(int argc, char** argv) {
  static const acstTest tests[] = {
    TEST(testDefaults),
    TEST(testReadmeDocumentsOptions),
    TEST(testModelConfig),
    TEST(testBadModelConfig),
    TEST(testSetOption),
    TEST(testGetOption),
  };
  return acst_main(argc, argv, tests, sizeof(tests)/sizeof(tests[0]));
}
