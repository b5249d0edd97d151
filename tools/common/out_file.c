/* Replacing a file whole through a temporary file next to it, without
 * trusting what is in its directory (see out_file.h). */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"

/* A regular file, or nothing: what rename() may replace.  stat follows a
 * symlink, so one to a device is refused too (the rename itself would
 * replace only the link). */
static int target_ok(const char *path)
{
	struct stat st;

	if (!*path) /* "" names nothing rename() could replace */
		return err_set(ENOENT, "an empty file name");
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : err_sys(errno, "cannot stat %s", path);
	if (!S_ISREG(st.st_mode))
		return err_set(S_ISDIR(st.st_mode) ? EISDIR : EEXIST, "%s is %s, not a regular file: not replacing it",
			       path, file_kind(st.st_mode));
	return 0;
}

static void release(struct out_file *of)
{
	sigprocmask(SIG_SETMASK, &of->saved, NULL);
	free(of->tmp);
	of->tmp = NULL;
	of->f = NULL;
}

int out_file_begin(struct out_file *of, const char *path)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0, fd, e;
	size_t n = strlen(path) + 16;
	sigset_t hold;
	mode_t mask;

	memset(of, 0, sizeof(*of));
	of->path = path;
	of->tmp = xmalloc(n);
	snprintf(of->tmp, n, "%.*s.%s.XXXXXX", dir, path, path + dir);
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &of->saved);
	/* mkostemp adds O_CREAT|O_EXCL (and O_RDWR) to these */
	fd = mkostemp(of->tmp, O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		e = err_sys(errno, "cannot create a temporary file in %.*s", dir ? dir : 1, dir ? path : ".");
		release(of);
		return e;
	}
	mask = umask(0); /* read it: there is no other way */
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(of->f = fdopen(fd, "w"))) {
		e = errno;
		unlink(of->tmp);
		close(fd);
		e = err_sys(e, "cannot set up %s", of->tmp);
		release(of);
		return e;
	}
	return 0;
}

int out_file_commit(struct out_file *of)
{
	int err = 0;

	errno = 0;
	if (fflush(of->f) || ferror(of->f))
		err = err_sys(errno ? errno : EIO, "cannot write %s", of->tmp);
	else if (fsync(fileno(of->f)) < 0)
		err = err_sys(errno, "cannot write %s", of->tmp);
	if (fclose(of->f) && !err)
		err = err_sys(errno, "cannot write %s", of->tmp);
	if (!err)
		err = target_ok(of->path); /* it may have become something else since the check */
	if (!err && rename(of->tmp, of->path) < 0)
		err = err_sys(errno, "cannot rename %s to %s", of->tmp, of->path);
	if (err)
		unlink(of->tmp);
	release(of);
	return err;
}

void out_file_abort(struct out_file *of)
{
	fclose(of->f);
	unlink(of->tmp);
	release(of);
}

int out_file_check(const char *path)
{
	struct out_file of;
	int err = target_ok(path);

	if (!err && !(err = out_file_begin(&of, path)))
		out_file_abort(&of);
	return err;
}
