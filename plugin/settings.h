// Copyright 2026 The acs authors.
//
// Option table shared by the settings parser, the plugin registration and the documentation.

#ifndef ACS_PLUGIN_SETTINGS_H_
#define ACS_PLUGIN_SETTINGS_H_

#define acsPLUGIN_NAME "acs.solver"   // engine plugin carrying the configuration

// number of options
int acs_optionCount(void);

// name of option i without the acs_ prefix (the plugin config key), or NULL
const char* acs_optionName(int i);

#endif  // ACS_PLUGIN_SETTINGS_H_
