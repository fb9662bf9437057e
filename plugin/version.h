// Copyright 2026 The acs authors.
//
// Versions: of acs, and the check that the MuJoCo loaded at run time is the one acs was built for.

#ifndef ACS_PLUGIN_VERSION_H_
#define ACS_PLUGIN_VERSION_H_

// tests: when not zero, the MuJoCo version the check sees instead of mj_version()
extern int acs_testMuJoCoVersion;

// is the MuJoCo loaded at run time the version of the headers acs was compiled with
int acs_mujocoVersionMatches(void);

#endif  // ACS_PLUGIN_VERSION_H_
