/* corebox: multicall entry point.
 *
 *   corebox TOOL ARGS...      run a tool
 *   TOOL ARGS...              same, through a link named TOOL
 *   corebox --list            list tools
 *   corebox --install [-s] DIR   make hard (or -s symbolic) links in DIR */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define APPLET(name, summary) int name##_main(int argc, char **argv);
#define COMMAND(name, summary) int name##_main(int argc, char **argv);
#include "applets.h"
#undef APPLET
#undef COMMAND

struct applet {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);
	int is_tool; /* installed as a link */
};

static const struct applet applets[] = {
#define APPLET(name, summary) { #name, summary, name##_main, 1 },
#define COMMAND(name, summary) { #name, summary, name##_main, 0 },
#include "applets.h"
#undef APPLET
#undef COMMAND
};

#define NAPPLETS (sizeof(applets) / sizeof(applets[0]))

static const struct applet *find_applet(const char *name)
{
	size_t i;

	for (i = 0; i < NAPPLETS; i++)
		if (!strcmp(applets[i].name, name))
			return &applets[i];
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: corebox TOOL [ARGS...]   or   TOOL [ARGS...] via a link named TOOL\n"
		   "       corebox --list | --install [-s] DIR | --help\n\n"
		   "BPF performance tools in one static binary with its own loader.\n\n"
		   "Tools:\n");
	for (i = 0; i < NAPPLETS; i++)
		if (applets[i].is_tool)
			fprintf(f, "  %-14s %s\n", applets[i].name, applets[i].summary);
	fprintf(f, "\nCommands:\n");
	for (i = 0; i < NAPPLETS; i++)
		if (!applets[i].is_tool)
			fprintf(f, "  %-14s %s\n", applets[i].name, applets[i].summary);
	fprintf(f, "\nRun 'corebox TOOL --help' for a tool's options.\n");
}

static int install(int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX];
	int symbolic = 0, failed = 0;
	const char *dir = NULL;
	ssize_t n;
	size_t i;

	for (int a = 0; a < argc; a++) {
		if (!strcmp(argv[a], "-s"))
			symbolic = 1;
		else if (!dir)
			dir = argv[a];
		else {
			fprintf(stderr, "corebox: --install takes one directory\n");
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "corebox: --install needs a directory (corebox --install [-s] DIR)\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		fprintf(stderr, "corebox: cannot find own path (/proc/self/exe): %s\n", strerror(errno));
		return 1;
	}
	self[n] = 0;
	for (i = 0; i < NAPPLETS; i++) {
		if (!applets[i].is_tool)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, applets[i].name);
		unlink(path);
		if ((symbolic ? symlink(self, path) : link(self, path)) < 0) {
			fprintf(stderr, "corebox: cannot create %s link %s: %s%s\n",
				symbolic ? "symbolic" : "hard", path, strerror(errno),
				!symbolic && errno == EXDEV ? " (use -s across file systems)" : "");
			failed = 1;
		}
	}
	return failed;
}

int main(int argc, char **argv)
{
	const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
	const struct applet *a;

	base = base ? base + 1 : (argc > 0 && argv[0] ? argv[0] : "corebox");
	a = find_applet(base);
	if (a && a->is_tool)
		return a->main(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NAPPLETS; i++)
			if (applets[i].is_tool)
				printf("%s\n", applets[i].name);
		return 0;
	}
	if (!strcmp(argv[1], "--install"))
		return install(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	a = find_applet(argv[1]);
	if (!a) {
		fprintf(stderr, "corebox: unknown tool '%s' (corebox --list shows the tools)\n", argv[1]);
		return 2;
	}
	return a->main(argc - 1, argv + 1);
}
