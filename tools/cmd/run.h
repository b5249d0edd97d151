/* corebox run: what its source files share.
 *
 *   run.c        options, the load / attach / poll sequence
 *   run_setup.c  before load: which programs (--only, --skip, one variant
 *                per hook, mechanisms the kernel lacks), map sizes (--map,
 *                defaults, the memory limit), .rodata knobs (--set)
 *   run_print.c  records (typed from the code or --event-type) and the
 *                map dump at exit */
#ifndef COREBOX_RUN_H
#define COREBOX_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loader/obj.h"

#define RUN_NAME "corebox run"

struct run_kv {
	char *key, *value; /* "NAME", "VALUE" of NAME=VALUE (one malloc'd block) */
};

struct run_env {
	const char *file;
	long duration;
	bool dry, strict;
	char **only, **skip;       /* program names */
	size_t nonly, nskip;
	struct run_kv *maps;       /* --map NAME[.FIELD]=N */
	size_t nmaps;
	struct run_kv *sets;       /* --set NAME=VALUE */
	size_t nsets;
	struct run_kv *evtypes;    /* --event-type [MAP=]TYPE: key MAP or NULL */
	size_t nevtypes;
	uint64_t map_mem_limit;    /* bytes, 0: none */
	bool map_mem_limit_set;
};
extern struct run_env run_env;

/* Why a program is not loaded or not attached (NULL: it is). */
struct run_prog {
	char why[320];     /* "skipped: this kernel has no kprobes", ...; "" */
};

/* run_setup.c: each returns 0, or prints one line and returns the exit
 * status (2 for a usage error, 1 otherwise). */
int run_select_programs(struct obj *o, struct run_prog *rp);
int run_size_maps(struct obj *o);
int run_set_globals(struct obj *o);

/* run_print.c */
struct run_events;
/* Before load: does every --event-type name a type (and map)?  0, or 2
 * after a message. */
int run_check_event_types(struct obj *o);
/* Type the records of events map m (--event-type, else the code). */
struct run_events *run_events_new(struct obj *o, struct map *m, bool prefix);
void run_events_free(struct run_events *e);
int run_on_event(void *ctx, const void *data, size_t size); /* event_cb */
void run_dump_map(struct map *m, const struct btf *btf);
const char *run_map_type_name(uint32_t type); /* "hash", "ringbuf", ... */
/* Untrusted names (programs, sections, maps from the file) for printing:
 * escaped into one of a few rotating static buffers. */
const char *run_esc(const char *s);

#endif
