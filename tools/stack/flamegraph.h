/* Interactive flame graph SVG from folded stacks (struct fold_agg):
 * one self-contained file (a few KB of embedded JavaScript): click a frame
 * to zoom, "Reset Zoom", "Search" (regex, else substring) highlights
 * matches and shows the matched share, tooltips (<title>) with the count
 * and percentage.  Width 1200, frames 16 px, frames narrower than
 * min_width px left out; palette hashed from the frame name (FlameGraph's
 * "hot", "io" for off-CPU, "chain" for offwaketime's target--waker). */
#ifndef COREBOX_STACK_FLAMEGRAPH_H
#define COREBOX_STACK_FLAMEGRAPH_H

#include <stdio.h>

#include "tools/stack/stacks.h"

enum fg_palette { FG_HOT, FG_IO, FG_CHAIN };

struct flamegraph_opts {
	const char *title;      /* NULL: "Flame Graph" */
	const char *subtitle;   /* NULL: none (e.g. "profile -F 49, 10 s") */
	const char *unit;       /* NULL: "samples"; e.g. "us" for off-CPU time */
	enum fg_palette palette;
	unsigned width;         /* 0: 1200 */
	unsigned frame_height;  /* 0: 16 */
	double min_width;       /* px; 0: 0.1 */
};

/* Write the SVG for the stacks of a (sorted or not; it is sorted here).
 * o may be NULL (defaults).  0, or -errno with a message. */
int flamegraph_write(const char *path, struct fold_agg *a, const struct flamegraph_opts *o);
int flamegraph_fwrite(FILE *f, struct fold_agg *a, const struct flamegraph_opts *o);

#endif
