/* bpftrace -v as 0.17 prints it.  Each program, as it is attached: on
 * stdout a blank line, "Program ID: N", a blank line, "The verifier log: "
 * (its trailing blank too) and the kernel's log at level 1, which for a
 * program that loads is its "processed N insns ..." line, then a blank
 * line; then on stderr "Attaching PROBE", PROBE being the whole block's
 * attach points, as 0.17 names them, joined by commas. */
#include "tools/bpftrace/bt_verbose.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sys.h"
#include "lib/strbuf.h"
#include "loader/obj.h"
#include "tools/probe/probe.h"

/* 0.17's probe type names for the short ones: "SHORT\0LONG\0"... */
static const char kinds[] = "t\0tracepoint\0k\0kprobe\0kr\0kretprobe\0u\0uprobe\0ur\0uretprobe\0U\0usdt\0"
			    "p\0profile\0i\0interval\0s\0software\0h\0hardware\0f\0kfunc\0fr\0kretfunc\0"
			    "rt\0rawtracepoint\0";

char *bt_verbose_name(const struct bt_probe *pr, int pid)
{
	struct strbuf b = { 0 };

	strbuf_reset(&b);
	for (int k = 0; k < pr->nap; k++) {
		char tmp[1024], *part[4], *path = NULL, *plus, *end;
		int n;
		bool user;

		snprintf(tmp, sizeof(tmp), "%s", pr->ap[k].text);
		n = bt_split(tmp, part);
		for (const char *s = kinds; s < kinds + sizeof(kinds) - 1; s += strlen(s) + 1) {
			const char *full = s + strlen(s) + 1;

			if (!strcmp(part[0], s))
				part[0] = (char *)full;
			s = full;
		}
		user = !strcmp(part[0], "uprobe") || !strcmp(part[0], "uretprobe") || !strcmp(part[0], "usdt");
		/* a binary by name: the file found (libc: /lib/.../libc.so.6) */
		if (user && n > 2 && *part[1] && !strpbrk(part[1], "/*"))
			path = probe_find_library(!strncmp(part[1], "lib", 3) && part[1][3] ? part[1] + 3 : part[1], pid);
		if (path)
			part[1] = path;
		strbuf_add(&b, k ? "," : "");
		for (int i = 0; i < n; i++) {
			unsigned long long v;

			strbuf_add(&b, i ? ":" : "");
			/* numbers as 0.17 keeps them: in decimal (a rate, a count,
			 * an address), a function's offset too, FUNC+0 as FUNC */
			plus = i && i == n - 1 ? strchr(part[i], '+') : NULL;
			if (plus && plus[1] && (v = strtoull(plus + 1, &end, 0), !*end)) {
				*plus = 0;
				strbuf_add_safe(&b, part[i]);
				if (v)
					strbuf_addf(&b, "+%llu", v);
			} else if (i && i == n - 1 && isdigit((unsigned char)*part[i]) && (v = strtoull(part[i], &end, 0), !*end)) {
				strbuf_addf(&b, "%llu", v);
			} else {
				strbuf_add_safe(&b, part[i]);
			}
		}
		free(path);
	}
	return b.s;
}

void bt_verbose_prog(FILE *out, const struct prog *p, const char *name)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	const char *log = prog_verifier_log(p);

	if (prog_fd(p) < 0) /* refused at load: said there */
		return;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_info(prog_fd(p), &info, &len) == 0)
		fprintf(out, "\nProgram ID: %u\n", info.id);
	fprintf(out, "\nThe verifier log: \n%s\n", log ? log : "");
	fflush(out);
	fprintf(stderr, "Attaching %s\n", name);
}
