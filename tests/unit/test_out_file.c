/* Replacing --prom FILE (tools/common/out_file.c) in a directory an
 * attacker can write to: a FIFO or directory target is refused and left
 * as it is, a symlink at the old predictable temporary name is not
 * followed, the temporary file never outlives begin..commit/abort (also
 * when the target turns into a FIFO in between), signals are held back
 * meanwhile, and the file gets the mode fopen() would give it. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "t.h"
#include "tools/common/out.h"
#include "tools/common/out_file.h"
#include "util.h"

static char dir[64];

static char *at(const char *name)
{
	static char p[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

/* Entries in dir whose name starts with prefix. */
static int count(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

static bool is_fifo(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

int main(void)
{
	struct out_file of;
	struct stat st;
	sigset_t now;
	mode_t mask;
	int err;

	snprintf(dir, sizeof(dir), "/tmp/cbx-outfile-XXXXXX");
	if (!mkdtemp(dir)) {
		T_OK(0, "mkdtemp: %s", strerror(errno));
		T_EXIT();
	}

	/* 1. a target that is not a regular file is refused and kept */
	mkfifo(at("fifo"), 0644);
	err = out_file_check(at("fifo"));
	T_OK(err < 0 && strstr(err_msg(), "is a FIFO, not a regular file") && is_fifo(at("fifo")),
	     "check: a FIFO target refused and left a FIFO: %s", err_msg());
	T_OK(out_file_check(dir) == -EISDIR, "check: a directory target refused: %s", err_msg());
	T_OK(out_file_check(at("no/such/dir/x.prom")) == -ENOENT && strstr(err_msg(), "cannot create a temporary file in"),
	     "check: a missing directory refused: %s", err_msg());
	T_OK(out_file_check("") == -ENOENT, "check: an empty name refused: %s", err_msg());
	T_OK(out_file_check(at("new.prom")) == 0 && access(at("new.prom"), F_OK) != 0 && count(".new.prom") == 0,
	     "check: a creatable target passes, nothing left behind");

	/* the Prometheus writer goes through it: the FIFO stays a FIFO */
	out_cfg.tool = "t";
	out_cfg.prom_path = at("fifo");
	out_doc_begin();
	out_doc_num("n", 1, "a number");
	T_OK(out_doc_end() < 0 && is_fifo(at("fifo")) && count(".fifo") == 0,
	     "--prom onto a FIFO: an error, the FIFO not replaced, no temporary file left");
	T_OK(out_prom_check(at("fifo")) < 0 && !strncmp(err_msg(), "--prom: ", 8), "out_prom_check: %s", err_msg());
	out_cfg.prom_path = NULL;

	/* 2. a symlink at the name the temporary file used to have */
	FILE *v = fopen(at("victim"), "w");
	fputs("victim\n", v);
	fclose(v);
	symlink(at("victim"), at(".out.prom.tmp"));
	mask = umask(022);
	err = out_file_begin(&of, at("out.prom"));
	T_OK(!err && of.f && strncmp(of.tmp, at(".out.prom."), strlen(at(".out.prom."))) == 0 &&
		     strcmp(of.tmp, at(".out.prom.tmp")) && lstat(of.tmp, &st) == 0 && S_ISREG(st.st_mode),
	     "begin: a new regular file .out.prom.XXXXXX next to the target: %s", err ? err_msg() : of.tmp);
	if (!err) {
		sigprocmask(SIG_BLOCK, NULL, &now);
		T_OK(sigismember(&now, SIGINT) && sigismember(&now, SIGTERM) && sigismember(&now, SIGHUP),
		     "SIGINT, SIGTERM, SIGHUP held back while the temporary file exists");
		fputs("new\n", of.f);
		T_OK(out_file_commit(&of) == 0, "commit: %s", err_msg());
	}
	sigprocmask(SIG_BLOCK, NULL, &now);
	T_OK(!sigismember(&now, SIGINT) && !sigismember(&now, SIGTERM), "signal mask restored after commit");
	T_OK(!strcmp(slurp(at("victim")), "victim\n"), "the symlink's victim untouched: %s", slurp(at("victim")));
	T_OK(lstat(at("out.prom"), &st) == 0 && S_ISREG(st.st_mode) && !strcmp(slurp(at("out.prom")), "new\n"),
	     "the target is a regular file with the new contents");
	T_OK((st.st_mode & 0777) == 0644, "mode 0666 less the umask 022: %o", (unsigned)(st.st_mode & 0777));
	T_OK(lstat(at(".out.prom.tmp"), &st) == 0 && S_ISLNK(st.st_mode) && count(".out.prom.") == 1,
	     "the planted symlink left alone, no temporary file of ours left");
	umask(mask);

	/* 3. the target becomes a FIFO between begin and commit */
	if (!out_file_begin(&of, at("late.prom"))) {
		fputs("x\n", of.f);
		mkfifo(at("late.prom"), 0644);
		T_OK(out_file_commit(&of) < 0 && is_fifo(at("late.prom")) && count(".late.prom") == 0,
		     "commit: a target that became a FIFO is not replaced, temporary file removed: %s", err_msg());
	} else {
		T_OK(0, "begin late.prom: %s", err_msg());
	}

	/* 4. abort removes the temporary file */
	if (!out_file_begin(&of, at("gone.prom"))) {
		out_file_abort(&of);
		T_OK(count(".gone.prom") == 0 && access(at("gone.prom"), F_OK) != 0, "abort: nothing left");
	}

	unlink(at("fifo"));
	unlink(at("late.prom"));
	unlink(at("victim"));
	unlink(at(".out.prom.tmp"));
	unlink(at("out.prom"));
	rmdir(dir);
	T_EXIT();
}
