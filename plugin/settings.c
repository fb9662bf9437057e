// Copyright 2026 The acs authors.
//
// Settings: defaults, the option table (names, units, ranges), parsing of text values, validation,
// and the model's configuration (<custom> fields acs_* and the acs.solver plugin config).
// One table drives all of them, so a name, range or unit is written once.

#include "settings.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>
#include <acs/acs.h>
#include "util_errmem.h"

typedef enum {                    // the public acstOption values
  kTypeSolver = acsOPTION_SOLVER, // solver name (text)
  kTypeInt    = acsOPTION_INT,    // integer in [lo, hi]
  kTypeNum    = acsOPTION_NUM,    // finite number in the range
  kTypeBool   = acsOPTION_BOOL    // 0 or 1
} optionType;

typedef struct {
  const char* name;               // name without the acs_ prefix (plugin config key)
  optionType  type;
  size_t      offset;             // offset in acsSettings
  double      lo, hi;             // range
  int         lo_open, hi_open;   // exclusive bounds
  const char* unit;
  const char* help;
} optionInfo;

#define OPT(field) offsetof(acsSettings, field)

static const optionInfo kOptions[] = {
  {"solver",           kTypeSolver, OPT(solver),          0, 0,       0, 0, "",
   "contact model and solver"},
  {"maxiter",          kTypeInt,    OPT(maxiter),         0, 1e6,     0, 0, "",
   "maximum solver iterations per step; 0: the solver's budget (pgs, admm, ccp-admm 300; "
   "the others 100)"},
  {"tolerance",        kTypeNum,    OPT(tolerance),       0, INFINITY, 0, 1, "N m/s^2",
   "stop when the NCP residual (De Saxce) is at most this"},
  {"rel_tolerance",    kTypeNum,    OPT(rel_tolerance),   0, INFINITY, 0, 1, "",
   "stop when the largest force change is at most this times the largest force (0: off)"},
  {"omega",            kTypeNum,    OPT(omega),           0, 2,       1, 1, "",
   "over-relaxation of Gauss-Seidel steps and of the ADMM x-update"},
  {"subspace",         kTypeInt,    OPT(subspace),        0, 2,       0, 0, "",
   "Newton step on the sticking rows once the active set settles: 0 off, 1 pgs, 2 pgs and raisim"},
  {"baumgarte",        kTypeNum,    OPT(baumgarte),       0, 1,       0, 0, "",
   "fraction of penetration (beyond slop) and equality violation removed per step"},
  {"slop",             kTypeNum,    OPT(slop),            0, INFINITY, 0, 1, "m",
   "penetration of contacts and limits left uncorrected (keeps resting contacts closed)"},
  {"max_correction",   kTypeNum,    OPT(max_correction),  0, INFINITY, 1, 0, "m/s",
   "cap of the stabilization velocity (penetration and violation correction); inf: none"},
  {"consistent_stabilization", kTypeBool, OPT(consistent_stabilization), 0, 1, 0, 0, "",
   "make the recovery velocities of a body pair's contacts those of one motion (0: per row)"},
  {"restitution",      kTypeNum,    OPT(restitution),     0, 1,       0, 0, "",
   "Newton restitution coefficient of contacts"},
  {"restitution_vel",  kTypeNum,    OPT(restitution_vel), 0, INFINITY, 0, 1, "m/s",
   "minimum approach speed for restitution"},
  {"compliance",       kTypeNum,    OPT(compliance),      0, INFINITY, 0, 1, "",
   "constraint compliance R = compliance * diag(J M^-1 J') (0: hard)"},
  {"warmstart",        kTypeBool,   OPT(warmstart),       0, 1,       0, 0, "",
   "start from the matched forces of the previous step"},
  {"warmstart_radius", kTypeNum,    OPT(warmstart_radius), 0, INFINITY, 1, 1, "m",
   "contacts of one geom pair closer than this match across steps"},
  {"metrics",          kTypeInt,    OPT(metrics),         0, 2,       0, 0, "",
   "metrics every step: 0 off, 1 cheap (the solver's residual, contacts, penetration), 2 full"},
  {"admm_rho",         kTypeNum,    OPT(admm_rho),        0, INFINITY, 0, 1, "",
   "ADMM initial penalty, relative to the unit diagonal of the scaled Delassus matrix; "
   "0: spectral rule sqrt(L m) (L/m)^admm_power"},
  {"admm_prox",        kTypeNum,    OPT(admm_prox),       0, INFINITY, 1, 1, "",
   "ADMM proximal weight, relative like admm_rho (m of the spectral rule)"},
  {"admm_power",       kTypeNum,    OPT(admm_power),      0, 1,       0, 0, "",
   "ADMM exponent of the spectral initial penalty"},
  {"admm_factor",      kTypeNum,    OPT(admm_factor),     0, 1,       0, 0, "",
   "ADMM penalty update factor (L/m)^admm_factor; 0: fixed penalty"},
  {"admm_ratio",       kTypeNum,    OPT(admm_ratio),      1, INFINITY, 1, 1, "",
   "ADMM primal/dual residual ratio that triggers a penalty update"},
  {"admm_anderson",    kTypeInt,    OPT(admm_anderson),   0, 5,       0, 0, "",
   "ADMM Anderson acceleration from the 10th iteration on: differences kept (0: off)"},
  {"admm_subspace",    kTypeInt,    OPT(admm_subspace),   0, 1,       0, 0, "",
   "admm: the subspace step on the warm start first, its least change kept if it converges "
   "(0: off)"},
  {"admm_check",       kTypeInt,    OPT(admm_check),      1, 10,      0, 0, "",
   "ADMM iterations per residual test and penalty update (and the last iteration)"},
  {"admm_polish",      kTypeInt,    OPT(admm_polish),     0, 1000,    0, 0, "",
   "admm: iterations between subspace steps on the iterate, kept if they converge (0: off)"},
  {"stiffness",        kTypeNum,    OPT(stiffness),       0, INFINITY, 1, 1, "N/m",
   "lagged/similar: contact stiffness (per geom: acs_stiffness@GEOM)"},
  {"dissipation",      kTypeNum,    OPT(dissipation),     0, INFINITY, 0, 1, "s/m",
   "lagged/similar: Hunt & Crossley dissipation (per geom: acs_dissipation@GEOM)"},
  {"stiction_tolerance", kTypeNum,  OPT(stiction_tolerance), 0, INFINITY, 1, 1, "m/s",
   "lagged/similar: regularization velocity of friction"},
  {"near_rigid",       kTypeBool,   OPT(near_rigid),      0, 1,       0, 0, "",
   "lagged/similar: clamp stiffness to the near-rigid limit 4 pi^2 / (w h^2)"},
  {"newton_tolerance", kTypeNum,    OPT(newton_tolerance), 0, INFINITY, 0, 1, "",
   "lagged/similar: relative momentum residual ending the Newton iterations"},
  {"raisim_alpha",     kTypeNum,    OPT(raisim_alpha),    0, 1,       1, 0, "",
   "RaiSim initial relaxation of the contact update"},
  {"raisim_alpha_min", kTypeNum,    OPT(raisim_alpha_min), 0, 1,      1, 0, "",
   "RaiSim floor of the relaxation"},
  {"raisim_gamma",     kTypeNum,    OPT(raisim_gamma),    0, 1,       0, 0, "",
   "RaiSim relaxation decay per sweep: a <- gamma a + (1 - gamma) a_min"},
  {"raisim_bisection_tol", kTypeNum, OPT(raisim_bisection_tol), 0, INFINITY, 1, 1, "N",
   "RaiSim's root search on the ellipse stops when its bracket's ends differ by less than this"},
  {"raisim_desaxce",   kTypeBool,   OPT(raisim_desaxce),  0, 1,       0, 0, "",
   "RaiSim's slide step with the De Saxce correction (RAISIM-DS: converges to the NCP)"},
};

#define kNOPTION ((int)(sizeof(kOptions)/sizeof(kOptions[0])))


//---------------------------------- defaults ------------------------------------------------------

void acs_defaultSettings(acsSettings* s) {
  if (!s) {
    return;
  }
  memset(s, 0, sizeof(acsSettings));
  s->solver = acsSOL_PGS;
  s->maxiter = 0;
  s->tolerance = 1e-6;
  s->rel_tolerance = 1e-12;
  s->omega = 1;
  s->subspace = 2;
  s->baumgarte = 0.2;
  s->slop = 1e-4;
  s->max_correction = 1;
  s->consistent_stabilization = 1;
  s->restitution = 0;
  s->restitution_vel = 0.01;
  s->compliance = 0;
  s->warmstart = 1;
  s->warmstart_radius = 0.02;
  s->metrics = acsMETRICS_FULL;
  s->admm_rho = 0;
  s->admm_prox = 1e-6;
  s->admm_power = 0.2;
  s->admm_factor = 0.05;
  s->admm_ratio = 10;
  s->admm_anderson = 5;
  s->admm_subspace = 1;
  s->admm_check = 2;
  s->admm_polish = 10;
  s->stiffness = 1e6;
  s->dissipation = 10;
  s->stiction_tolerance = 1e-4;
  s->near_rigid = 0;
  s->newton_tolerance = 1e-5;
  s->raisim_alpha = 1;
  s->raisim_alpha_min = 0.1;
  s->raisim_gamma = 0.99;
  s->raisim_bisection_tol = 1e-8;
  s->raisim_desaxce = 0;
  s->cookie = acsCOOKIE;
}


// the iteration budget of each solver where acs_maxiter is 0 (the default): 300 sweeps or
// iterations for pgs, admm and ccp-admm, whose steps stopped at 100 mostly reach the tolerance
// given more and then start the next step closer (ensembles of 300 steps after 100, every dof's
// start speed perturbed up to 1e-4: the dog's converged steps pgs 94.4% -> 97.3%, admm 92.0% ->
// 98.3%, ccp-admm 53.3% -> 88.9%; 22_humanoids pgs 95.2% -> 97.9%, admm 96.9% -> 99.4%; the mean
// step within a few percent, the cascade of unconverged steps gone); 100 for the others: raisim's
// steps at the limit are its model's (its fixed point is not the NCP's where a contact slides:
// the dog 8.3% -> 12.2% at 1.8x the time), lcp-pgs's and ccp-pgs's are Gauss-Seidel's stalls on
// hyperstatic sets (no subspace step: the dog's ccp-pgs 3.8% -> 6.9% at 1.9x the time, the Shadow
// hand's lcp-pgs 90% -> 60% at 4.7x), and the Newton iterations of lagged and similar converge
// in a few
static const int kSolverMaxiter[acsNSOLVER] = {
  [acsSOL_NATIVE] = 100, [acsSOL_PGS] = 300, [acsSOL_ADMM] = 300, [acsSOL_RAISIM] = 100,
  [acsSOL_LCP_PGS] = 100, [acsSOL_CCP_PGS] = 100, [acsSOL_CCP_ADMM] = 300,
  [acsSOL_LAGGED] = 100, [acsSOL_SIMILAR] = 100,
};


int acs_maxiter(const acsSettings* s) {
  if (!s) {
    return 0;
  }
  if (s->maxiter > 0) {
    return s->maxiter;
  }
  return (s->solver >= 0 && s->solver < acsNSOLVER) ? kSolverMaxiter[s->solver] : 100;
}


//---------------------------------- option table --------------------------------------------------

int acs_optionCount(void) {
  return kNOPTION;
}


const char* acs_optionName(int i) {
  return (i >= 0 && i < kNOPTION) ? kOptions[i].name : NULL;
}


int acs_optionType(int i) {
  return (i >= 0 && i < kNOPTION) ? (int)kOptions[i].type : -1;
}


// option with the given name, with or without the acs_ prefix; NULL if unknown
static const optionInfo* findOption(const char* key) {
  if (!strncmp(key, "acs_", 4)) {
    key += 4;
  }
  for (int i=0; i < kNOPTION; i++) {
    if (!strcmp(key, kOptions[i].name)) {
      return kOptions + i;
    }
  }
  return NULL;
}


// "[lo, hi)"-style description of an option's range
static void rangeText(char* buf, int sz, const optionInfo* o) {
  char hi[32];
  if (isinf(o->hi)) {
    snprintf(hi, sizeof(hi), "inf");
  } else {
    snprintf(hi, sizeof(hi), "%g", o->hi);
  }
  snprintf(buf, sz, "%c%g, %s%c", o->lo_open ? '(' : '[', o->lo, hi, o->hi_open ? ')' : ']');
}


// comma-separated solver names
static void solverList(char* buf, int sz) {
  buf[0] = 0;
  for (int i=0; i < acsNSOLVER; i++) {
    int len = (int)strlen(buf);
    snprintf(buf + len, sz - len, "%s%s", i ? ", " : "", acs_solverName(i));
  }
}


// comma-separated option names with the acs_ prefix
static void optionList(char* buf, int sz) {
  buf[0] = 0;
  for (int i=0; i < kNOPTION; i++) {
    int len = (int)strlen(buf);
    snprintf(buf + len, sz - len, "%sacs_%s", i ? ", " : "", kOptions[i].name);
  }
}


// option with the given name; NULL with a message listing the options if unknown
static const optionInfo* knownOption(const char* key, char* error, int error_sz) {
  const optionInfo* o = findOption(key);
  if (!o) {
    char list[512];
    optionList(list, sizeof(list));
    acs_formatError(error, error_sz, "unknown option '%s'; known options: %s", key, list);
  }
  return o;
}


static int inRange(const optionInfo* o, double v) {
  if (!isfinite(v) && !(isinf(v) && isinf(o->hi) && !o->hi_open)) {
    return 0;
  }
  if (o->lo_open ? !(v > o->lo) : !(v >= o->lo)) {
    return 0;
  }
  if (o->hi_open ? !(v < o->hi) : !(v <= o->hi)) {
    return 0;
  }
  return 1;
}


// parse a whole string as a number; return 0 on success
static int parseNumber(double* v, const char* text) {
  char* end;
  errno = 0;
  while (*text == ' ') text++;
  if (!*text) {
    return -1;
  }
  *v = strtod(text, &end);
  while (*end == ' ') end++;
  return (*end || errno == ERANGE) ? -1 : 0;
}


//---------------------------------- set, validate, describe ---------------------------------------

int acs_setOption(acsSettings* s, const char* key, const char* value, char* error, int error_sz) {
  char list[512];
  if (!s || !key || !value) {
    acs_formatError(error, error_sz, "settings, option name and value must not be NULL");
    return -1;
  }
  const optionInfo* o = knownOption(key, error, error_sz);
  if (!o) {
    return -1;
  }
  char* field = (char*)s + o->offset;
  char range[64];
  rangeText(range, sizeof(range), o);
  double v;

  switch (o->type) {
  case kTypeSolver: {
    int id = acs_solverId(value);
    if (id < 0) {
      solverList(list, sizeof(list));
      acs_formatError(error, error_sz, "acs_%s: unknown solver '%s'; allowed: %s",
                      o->name, value, list);
      return -1;
    }
    *(int*)field = id;
    return 0;
  }

  case kTypeBool:
    if (!strcmp(value, "true")) {
      v = 1;
    } else if (!strcmp(value, "false")) {
      v = 0;
    } else if (parseNumber(&v, value) || (v != 0 && v != 1)) {
      acs_formatError(error, error_sz, "acs_%s: must be 0 or 1 (or true/false), got '%s'",
                      o->name, value);
      return -1;
    }
    *(int*)field = (int)v;
    return 0;

  case kTypeInt:
    if (parseNumber(&v, value) || v != floor(v) || !inRange(o, v)) {
      acs_formatError(error, error_sz, "acs_%s: must be an integer in %s, got '%s'",
                      o->name, range, value);
      return -1;
    }
    *(int*)field = (int)v;
    return 0;

  case kTypeNum:
    if (parseNumber(&v, value) || !inRange(o, v)) {
      acs_formatError(error, error_sz, "acs_%s: must be a finite number in %s, got '%s'",
                      o->name, range, value);
      return -1;
    }
    *(mjtNum*)field = v;
    return 0;
  }
  return -1;
}


int acs_getOption(char* value, int value_sz, const acsSettings* s, const char* key,
                  char* error, int error_sz) {
  if (!value || value_sz < 1 || !s || !key) {
    acs_formatError(error, error_sz, "value buffer, settings and option name must not be NULL");
    return -1;
  }
  value[0] = 0;
  if (s->cookie != acsCOOKIE) {
    acs_formatError(error, error_sz,
                    "settings not initialized: call acs_defaultSettings before reading fields");
    return -1;
  }
  const optionInfo* o = knownOption(key, error, error_sz);
  if (!o) {
    return -1;
  }
  const char* field = (const char*)s + o->offset;
  switch (o->type) {
  case kTypeSolver: {
    const char* name = acs_solverName(*(const int*)field);
    snprintf(value, value_sz, "%s", name ? name : "");
    return name ? 0 : -1;
  }
  case kTypeInt:
  case kTypeBool:
    snprintf(value, value_sz, "%d", *(const int*)field);
    return 0;
  case kTypeNum:
    snprintf(value, value_sz, "%.17g", *(const mjtNum*)field);
    return 0;
  }
  return -1;
}


int acs_validateSettings(const acsSettings* s, char* error, int error_sz) {
  if (!s || s->cookie != acsCOOKIE) {
    acs_formatError(error, error_sz,
                    "settings not initialized: call acs_defaultSettings before changing fields");
    return -1;
  }
  for (int i=0; i < kNOPTION; i++) {
    const optionInfo* o = kOptions + i;
    const char* field = (const char*)s + o->offset;
    char range[64], list[512];
    rangeText(range, sizeof(range), o);
    switch (o->type) {
    case kTypeSolver: {
      int v = *(const int*)field;
      if (v < 0 || v >= acsNSOLVER) {
        solverList(list, sizeof(list));
        acs_formatError(error, error_sz, "acs_%s: unknown solver id %d; allowed: %s",
                        o->name, v, list);
        return -1;
      }
      break;
    }
    case kTypeBool:
    case kTypeInt: {
      int v = *(const int*)field;
      if (!inRange(o, v)) {
        acs_formatError(error, error_sz, "acs_%s: must be an integer in %s, got %d",
                        o->name, range, v);
        return -1;
      }
      break;
    }
    case kTypeNum: {
      mjtNum v = *(const mjtNum*)field;
      if (!inRange(o, v)) {
        acs_formatError(error, error_sz, "acs_%s: must be a finite number in %s, got %g",
                        o->name, range, v);
        return -1;
      }
      break;
    }
    }
  }
  return 0;
}


void acs_describeOptions(char* buf, int buf_sz) {
  acsSettings def;
  acs_defaultSettings(&def);
  if (!buf || buf_sz <= 0) {
    return;
  }
  buf[0] = 0;
  for (int i=0; i < kNOPTION; i++) {
    const optionInfo* o = kOptions + i;
    const char* field = (const char*)&def + o->offset;
    char value[64], range[300];
    switch (o->type) {
    case kTypeSolver:
      snprintf(value, sizeof(value), "%s", acs_solverName(*(const int*)field));
      solverList(range, sizeof(range));
      break;
    case kTypeBool:
    case kTypeInt:
      snprintf(value, sizeof(value), "%d", *(const int*)field);
      rangeText(range, sizeof(range), o);
      break;
    case kTypeNum:
      snprintf(value, sizeof(value), "%g", *(const mjtNum*)field);
      rangeText(range, sizeof(range), o);
      break;
    }
    int len = (int)strlen(buf);
    snprintf(buf + len, buf_sz - len, "acs_%-20s %-8s default %-8s allowed %-14s %s\n",
             o->name, o->unit, value, range, o->help);
  }
}


//---------------------------------- model configuration -------------------------------------------

int acs_modelSettings(acsSettings* s, const mjModel* m, char* error, int error_sz) {
  char msg[acsNERROR], text[64];
  if (!s || !m) {
    acs_formatError(error, error_sz, "settings and model must not be NULL");
    return -1;
  }
  if (acs_checkMuJoCoVersion(error, error_sz)) {
    return -1;
  }

  // <custom><numeric name="acs_*"/>: exactly one number (per-geom overrides NAME@GEOM are read
  // by acs_geomMaterials)
  for (int i=0; i < m->nnumeric; i++) {
    const char* name = m->names + m->name_numericadr[i];
    if (strncmp(name, "acs_", 4) || strchr(name, '@')) {
      continue;
    }
    const optionInfo* o = findOption(name);
    if (o && o->type == kTypeSolver) {
      acs_formatError(error, error_sz, "<custom> numeric %s: the solver is text: use "
                      "<text name=\"%s\" data=\"pgs\"/>", name, name);
      return -1;
    }
    if (o && m->numeric_size[i] != 1) {
      acs_formatError(error, error_sz, "<custom> numeric %s: expected 1 number, got %d",
                      name, (int)m->numeric_size[i]);
      return -1;
    }
    snprintf(text, sizeof(text), "%.17g", m->numeric_data[m->numeric_adr[i]]);
    if (acs_setOption(s, name, text, msg, sizeof(msg))) {
      acs_formatError(error, error_sz, "<custom> numeric %s", msg);
      return -1;
    }
  }

  // <custom><text name="acs_*"/>
  for (int i=0; i < m->ntext; i++) {
    const char* name = m->names + m->name_textadr[i];
    if (strncmp(name, "acs_", 4)) {
      continue;
    }
    if (acs_setOption(s, name, m->text_data + m->text_adr[i], msg, sizeof(msg))) {
      acs_formatError(error, error_sz, "<custom> text %s", msg);
      return -1;
    }
  }

  // <extension><plugin plugin="acs.solver"><instance><config key=... value=.../>
  int slot = -1;
  if (m->nplugin > 0 && mjp_getPlugin(acsPLUGIN_NAME, &slot)) {
    for (int i=0; i < m->nplugin; i++) {
      if (m->plugin[i] != slot) {
        continue;
      }
      for (int j=0; j < kNOPTION; j++) {
        const char* value = mj_getPluginConfig(m, i, kOptions[j].name);
        if (value && value[0]) {
          if (acs_setOption(s, kOptions[j].name, value, msg, sizeof(msg))) {
            acs_formatError(error, error_sz, "plugin %s config %s", acsPLUGIN_NAME, msg);
            return -1;
          }
        }
      }
    }
  }
  return acs_validateSettings(s, error, error_sz);
}


int acs_geomMaterials(mjtNum* stiffness, mjtNum* dissipation, const mjModel* m,
                      char* error, int error_sz) {
  for (int g=0; g < m->ngeom; g++) {
    stiffness[g] = dissipation[g] = NAN;
  }
  for (int i=0; i < m->nnumeric; i++) {
    const char* name = m->names + m->name_numericadr[i];
    const char* at = strchr(name, '@');
    if (strncmp(name, "acs_", 4) || !at) {
      continue;
    }
    int isk = !strncmp(name, "acs_stiffness@", 14), isd = !strncmp(name, "acs_dissipation@", 16);
    if (!isk && !isd) {
      acs_formatError(error, error_sz, "<custom> numeric %s: per-geom overrides are "
                      "acs_stiffness@GEOM and acs_dissipation@GEOM", name);
      return -1;
    }
    int g = mj_name2id(m, mjOBJ_GEOM, at + 1);
    if (g < 0) {
      acs_formatError(error, error_sz, "<custom> numeric %s: no geom named '%s'", name, at + 1);
      return -1;
    }
    mjtNum v = m->numeric_data[m->numeric_adr[i]];
    if (m->numeric_size[i] != 1 || !isfinite(v) || (isk ? !(v > 0) : !(v >= 0))) {
      acs_formatError(error, error_sz, "<custom> numeric %s: must be one finite number %s",
                      name, isk ? "> 0 (N/m)" : ">= 0 (s/m)");
      return -1;
    }
    (isk ? stiffness : dissipation)[g] = v;
  }
  return 0;
}
