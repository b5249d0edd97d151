/* corebox: multicall entry point.
 *
 *   corebox TOOL ARGS...      run a tool
 *   TOOL ARGS...              same, through a link named TOOL (also bcc's
 *                             TOOL.py, TOOL-bpfcc and bpftrace's TOOL.bt)
 *   corebox --list            list tools
 *   corebox --install [-s] [-f] DIR   make hard (or -s symbolic) links in DIR
 *   corebox --version */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/strbuf.h"
#include "tools/common/common.h"

/* build/applets.h: tools/applets.sh makes it from the applet lines at the
 * top of each tool's source. */
#define APPLET(name, summary) int name##_main(int argc, char **argv);
#define APPLET_ALIAS(name, tool, summary)
#define COMMAND(name, summary) int name##_main(int argc, char **argv);
#include "applets.h"
#undef APPLET
#undef APPLET_ALIAS
#undef COMMAND

struct applet {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);
};

static const struct applet applets[] = {
#define APPLET(name, summary) { #name, summary, name##_main },
#define APPLET_ALIAS(name, tool, summary) { #name, summary, tool##_main },
#define COMMAND(name, summary) { #name, summary, name##_main },
#include "applets.h"
#undef APPLET
#undef APPLET_ALIAS
#undef COMMAND
};

#define NAPPLETS (sizeof(applets) / sizeof(applets[0]))

/* The commands (btf, run, ...): the applets not installed as links.  A
 * list of their mains rather than a flag in each of the hundred entries. */
static int (*const command_mains[])(int argc, char **argv) = {
#define APPLET(name, summary)
#define APPLET_ALIAS(name, tool, summary)
#define COMMAND(name, summary) name##_main,
#include "applets.h"
#undef APPLET
#undef APPLET_ALIAS
#undef COMMAND
};

static int is_tool(const struct applet *a)
{
	for (size_t i = 0; i < sizeof(command_mains) / sizeof(command_mains[0]); i++)
		if (a->main == command_mains[i])
			return 0;
	return 1;
}

/* Runbooks call tools by the names bcc and bpftrace install them under:
 * execsnoop.py, execsnoop-bpfcc, runqlat.bt. */
static const char *const name_suffixes[] = { ".py", "-bpfcc", ".bt" };

static const struct applet *find_applet(const char *name)
{
	size_t i, j, n = strlen(name);

	for (i = 0; i < NAPPLETS; i++)
		if (!strcmp(applets[i].name, name))
			return &applets[i];
	for (j = 0; j < sizeof(name_suffixes) / sizeof(name_suffixes[0]); j++) {
		size_t k = strlen(name_suffixes[j]);

		if (n <= k || strcmp(name + n - k, name_suffixes[j]))
			continue;
		for (i = 0; i < NAPPLETS; i++)
			if (is_tool(&applets[i]) && strlen(applets[i].name) == n - k &&
			    !strncmp(applets[i].name, name, n - k))
				return &applets[i];
	}
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: corebox TOOL [ARGS...]   or   TOOL [ARGS...] via a link named TOOL\n"
		   "       corebox --list | --install [-s] [-f] DIR | --version | --help\n\n"
		   "BPF performance tools in one static binary with its own loader.\n\n"
		   "Tools:\n");
	for (i = 0; i < NAPPLETS; i++)
		if (is_tool(&applets[i]))
			fprintf(f, "  %-14s %s\n", applets[i].name, applets[i].summary);
	fprintf(f, "\nCommands:\n");
	for (i = 0; i < NAPPLETS; i++)
		if (!is_tool(&applets[i]))
			fprintf(f, "  %-14s %s\n", applets[i].name, applets[i].summary);
	fprintf(f, "\nRun 'corebox TOOL --help' for a tool's options.\n");
}

/* Is path already a link to this corebox (same inode, or a symbolic
 * link that resolves to it)?  Those are replaced; anything else is a
 * user's file (or another tool's: Debian's /usr/sbin/execsnoop) and is
 * left alone unless -f. */
static int links_to_self(const char *path, const struct stat *self)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_dev == self->st_dev && st.st_ino == self->st_ino;
}

static int install(int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX];
	int symbolic = 0, force = 0, failed = 0, made = 0, nskipped = 0;
	const char *dir = NULL;
	char skipped[1024] = "";
	struct stat self_st, st;
	ssize_t n;
	size_t i;

	for (int a = 0; a < argc; a++) {
		if (!strcmp(argv[a], "-s"))
			symbolic = 1;
		else if (!strcmp(argv[a], "-f"))
			force = 1;
		else if (!dir && argv[a][0] != '-')
			dir = argv[a];
		else {
			fprintf(stderr, "corebox: --install takes -s, -f and one directory (corebox --install [-s] [-f] DIR)\n");
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "corebox: --install needs a directory (corebox --install [-s] [-f] DIR)\n");
		return 2;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "corebox: cannot install into %s: %s\n", dir,
			errno && stat(dir, &st) < 0 ? strerror(errno) : "not a directory");
		return 1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || stat("/proc/self/exe", &self_st) < 0) {
		fprintf(stderr, "corebox: cannot find own path (/proc/self/exe): %s\n", strerror(errno));
		return 1;
	}
	self[n] = 0;
	for (i = 0; i < NAPPLETS; i++) {
		if (!is_tool(&applets[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, applets[i].name);
		if (lstat(path, &st) == 0) {
			if (!force && !links_to_self(path, &self_st)) {
				size_t len = strlen(skipped);

				snprintf(skipped + len, sizeof(skipped) - len, " %s", applets[i].name);
				nskipped++;
				continue;
			}
			if (unlink(path) < 0) {
				fprintf(stderr, "corebox: cannot replace %s: %s\n", path, strerror(errno));
				failed = 1;
				continue;
			}
		}
		if ((symbolic ? symlink(self, path) : link(self, path)) < 0) {
			fprintf(stderr, "corebox: cannot create %s link %s: %s%s\n",
				symbolic ? "symbolic" : "hard", path, strerror(errno),
				!symbolic && errno == EXDEV ? " (use -s across file systems)" : "");
			failed = 1;
			if (errno == EACCES || errno == EROFS || errno == EPERM || errno == EXDEV)
				break; /* the same for every name: say it once */
			continue;
		}
		made++;
	}
	if (nskipped)
		fprintf(stderr, "corebox: left %d existing file%s in %s alone (not links to this corebox; "
			"-f replaces them):%s\n", nskipped, nskipped == 1 ? "" : "s", dir, skipped);
	if (made)
		printf("corebox: %d link%s in %s\n", made, made == 1 ? "" : "s", dir);
	return failed ? 1 : 0;
}

/* A job a script starts in the background inherits SIGINT ignored.
 * Every tool takes SIGINT as "stop" once its handler is in, which many
 * install only after loading: a SIGINT before that was lost and the tool
 * ran on.  Start from the default instead: before the handler it ends
 * the tool at once, as for a foreground one. */
static const struct applet *run_tool(const struct applet *a)
{
	struct sigaction sa;

	if (sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
		signal(SIGINT, SIG_DFL);
	tool_applet = a->name;
	tool_applet_summary = a->summary;
	return a;
}

int main(int argc, char **argv)
{
	const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
	const struct applet *a;

	base = base ? base + 1 : (argc > 0 && argv[0] ? argv[0] : "corebox");
	a = find_applet(base);
	if (a && is_tool(a))
		return tool_finish(run_tool(a)->main(argc, argv));
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NAPPLETS; i++)
			if (is_tool(&applets[i]))
				printf("%s\n", applets[i].name);
		return 0;
	}
	if (!strcmp(argv[1], "--install"))
		return install(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("corebox %s\n", corebox_version);
		return 0;
	}
	a = find_applet(argv[1]);
	if (!a) {
		struct strbuf name = { 0 }; /* the user's word, echoed: escaped */

		strbuf_reset(&name);
		out_escaped(&name, argv[1]);
		fprintf(stderr, "corebox: unknown tool '%s' (corebox --list shows the tools)\n", name.s);
		strbuf_free(&name);
		return 2;
	}
	if (is_tool(a))
		return tool_finish(run_tool(a)->main(argc - 1, argv + 1));
	tool_applet = a->name;
	tool_applet_summary = a->summary;
	return tool_finish(a->main(argc - 1, argv + 1));
}
