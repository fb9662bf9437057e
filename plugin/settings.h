// Copyright 2026 The acs authors.
//
// Option table shared by the settings parser, the plugin registration and the documentation.

#ifndef ACS_PLUGIN_SETTINGS_H_
#define ACS_PLUGIN_SETTINGS_H_

#define acsPLUGIN_NAME "acs.solver"   // engine plugin carrying the configuration

#include <mujoco/mujoco.h>

// per-geom materials of the compliant models from <custom> numeric acs_stiffness@GEOM and
// acs_dissipation@GEOM: stiffness, dissipation (ngeom) get the values, NaN where not set.
// Return 0, or -1 with a message naming the field
int acs_geomMaterials(mjtNum* stiffness, mjtNum* dissipation, const mjModel* m,
                      char* error, int error_sz);

#endif  // ACS_PLUGIN_SETTINGS_H_
