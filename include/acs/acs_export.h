// Copyright 2026 The acs authors.
//
// Symbol visibility of the acs library (the role of mjexport.h in MuJoCo).

#ifndef ACS_ACS_EXPORT_H_
#define ACS_ACS_EXPORT_H_

#if defined(ACS_STATIC)
  #define ACS_API
#elif defined(_WIN32)
  #if defined(ACS_BUILDING)
    #define ACS_API __declspec(dllexport)
  #else
    #define ACS_API __declspec(dllimport)
  #endif
#else
  #define ACS_API __attribute__((visibility("default")))
#endif

#endif  // ACS_ACS_EXPORT_H_
