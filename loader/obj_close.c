/* obj_close: the end of an object's life, the one place that undoes
 * every later stage (links and perf events, program and map fds, kernel
 * BTFs, generated symbols) before freeing what obj_open parsed. */
#include <stdlib.h>
#include <unistd.h>

#include "obj_int.h"

void obj_close(struct obj *o)
{
	if (!o)
		return;
	obj_kernel_btf_release(o);
	obj_detach_parallel(o); /* many links: their waits overlap */
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];

		prog_detach(p);
		if (p->fd >= 0)
			close(p->fd);
		free(p->name);
		free(p->sec_name);
		free(p->target);
		free(p->insns);
		free(p->segs);
		free(p->func_info);
		free(p->line_info);
		free(p->core_relos);
		free(p->extra_fds);
		free(p->label);
		free(p->load_err);
		free(p->vlog);
	}
	maps_destroy(o);
	for (size_t i = 0; i < o->nr_code; i++) {
		free(o->code[i].insns);
		free(o->code[i].relocs);
	}
	for (size_t i = 0; i < o->nr_exts; i++)
		free(o->exts[i].name);
	free(o->exts);
	free(o->code);
	free(o->progs);
	if (o->btf_fd >= 0)
		close(o->btf_fd);
	if (o->has_ext)
		btf_ext_free(&o->ext);
	btf_free(o->btf);
	obj_gen_free(o);
	free(o->owned);
	free(o->name);
	free(o);
}
