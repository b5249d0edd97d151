/* Minimal unit-test protocol shared by every tests/unit/test_*.c:
 * each check prints "ok - NAME" or "not ok - NAME: why", and a check that
 * cannot run here prints "ok - NAME # SKIP why" (TAP's skip directive);
 * the runner (tests/run.sh) counts those lines, skips apart from passes.
 * A test binary that crashes or exits non-zero without a "not ok" line
 * counts as one failure. */
#ifndef COREBOX_T_H
#define COREBOX_T_H

#include <stdio.h>
#include <stdlib.h>

static int t_failed;

#define T_OK(cond, ...)                                                          \
	do {                                                                     \
		if (cond) {                                                      \
			printf("ok - ");                                         \
			printf(__VA_ARGS__);                                     \
			printf("\n");                                            \
		} else {                                                         \
			t_failed++;                                              \
			printf("not ok - ");                                     \
			printf(__VA_ARGS__);                                     \
			printf(" (%s:%d: %s)\n", __FILE__, __LINE__, #cond);     \
		}                                                                \
		fflush(stdout);                                                  \
	} while (0)

/* T_SKIP(NAME, WHY...): the check NAME did not run (no kernel BTF, no
 * clang...); reported as skipped with its reason, never as a pass. */
#define T_SKIP(name, ...)                                                        \
	do {                                                                     \
		printf("ok - %s # SKIP ", name);                                 \
		printf(__VA_ARGS__);                                             \
		printf("\n");                                                    \
		fflush(stdout);                                                  \
	} while (0)

#define T_EXIT() return t_failed ? 1 : 0

#endif
