// Copyright 2026 The acs authors.
//
// Version of acs (the single source: CMake reads it from here). acs_version() gives the version
// of the library loaded at run time.

#ifndef ACS_ACS_VERSION_H_
#define ACS_ACS_VERSION_H_

#define ACS_VERSION_MAJOR 0
#define ACS_VERSION_MINOR 2
#define ACS_VERSION_PATCH 0

// one number: 10000 major + 100 minor + patch
#define ACS_VERSION (10000*ACS_VERSION_MAJOR + 100*ACS_VERSION_MINOR + ACS_VERSION_PATCH)
#define ACS_VERSION_STRING "0.2.0"

#endif  // ACS_ACS_VERSION_H_
