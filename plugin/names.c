// Copyright 2026 The acs authors.
//
// Names: the solvers (name, description, the contact law each solves) and the status values. At
// the bottom of the library: settings, the bench and the viewer read them; the dispatch of the
// solvers (solver.c) sits far above.

#include <string.h>

#include <acs/acs.h>

typedef struct {                  // solver descriptor
  const char* name;               // name in MJCF, bench and viewer
  const char* description;        // one line
  int         model;              // contact law it solves (acstModel); -1 for native
} solverInfo;

static const solverInfo kSolvers[] = {
  [acsSOL_NATIVE]   = {"native", "MuJoCo's own constraint solver (soft convex model), as mj_step",
                       -1},
  [acsSOL_PGS]      = {"pgs", "NCP with De Saxce correction, projected Gauss-Seidel",
                       acsMODEL_NCP},
  [acsSOL_ADMM]     = {"admm", "NCP with De Saxce fixed point, ADMM with spectral penalty",
                       acsMODEL_NCP},
  [acsSOL_RAISIM]   = {"raisim", "RaiSim per-contact sliding-ellipse solve (approximates the NCP)",
                       acsMODEL_NCP},
  [acsSOL_LCP_PGS]  = {"lcp-pgs", "LCP (box-linearized friction cone), projected Gauss-Seidel",
                       acsMODEL_LCP},
  [acsSOL_CCP_PGS]  = {"ccp-pgs", "CCP (convex relaxation, gliding), projected Gauss-Seidel",
                       acsMODEL_CCP},
  [acsSOL_CCP_ADMM] = {"ccp-admm", "CCP (convex relaxation, gliding), ADMM",
                       acsMODEL_CCP},
  [acsSOL_LAGGED]   = {"lagged", "Irrotational Contact Fields, Lagged: compliant, Newton",
                       acsMODEL_COMPLIANT},
  [acsSOL_SIMILAR]  = {"similar", "Irrotational Contact Fields, Similar: compliant, Newton",
                       acsMODEL_COMPLIANT},
};
_Static_assert(sizeof(kSolvers)/sizeof(kSolvers[0]) == acsNSOLVER, "solver table incomplete");

static const char* kStatusNames[acsNSTATUS] = {
  [acsSTATUS_CONVERGED] = "converged",
  [acsSTATUS_MAXITER]   = "maxiter",
  [acsSTATUS_STALLED]   = "stalled",
  [acsSTATUS_EMPTY]     = "empty",
  [acsSTATUS_NATIVE]    = "native",
  [acsSTATUS_DIVERGED]  = "diverged",
  [acsSTATUS_ERROR]     = "error",
};



const char* acs_solverName(int solver) {
  return (solver >= 0 && solver < acsNSOLVER) ? kSolvers[solver].name : NULL;
}


const char* acs_solverDescription(int solver) {
  return (solver >= 0 && solver < acsNSOLVER) ? kSolvers[solver].description : NULL;
}


int acs_solverId(const char* name) {
  if (!name) {
    return -1;
  }
  for (int i=0; i < acsNSOLVER; i++) {
    if (!strcmp(name, kSolvers[i].name)) {
      return i;
    }
  }
  return -1;
}


int acs_solverModel(int solver) {
  return (solver >= 0 && solver < acsNSOLVER) ? kSolvers[solver].model : -1;
}


const char* acs_statusName(int status) {
  return (status >= 0 && status < acsNSTATUS) ? kStatusNames[status] : NULL;
}

