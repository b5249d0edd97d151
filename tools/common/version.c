/* The version string, from build/version.h (written by the Makefile from
 * `git describe`, else its VERSION); only this file rebuilds when it changes. */
#ifndef COREBOX_VERSION /* unit tests define it */
#include "version.h"
#endif

const char corebox_version[] = COREBOX_VERSION;
