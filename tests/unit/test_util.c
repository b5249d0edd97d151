/* lib/: escaping untrusted text for the terminal (str_escape, err_set),
 * refusing FIFOs and devices where a file is expected (open_regular,
 * read_file: at once, not after blocking or reading 256 MiB), and the
 * out-of-file-descriptors hint of err_sys. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "t.h"
#include "util.h"

static void test_escape(void)
{
	char out[128];

	T_OK(!strcmp(str_escape(out, sizeof(out), "plain text_1", ""), "plain text_1"), "printable ASCII unchanged");
	T_OK(!strcmp(str_escape(out, sizeof(out), "a\033[2Jb", ""), "a\\x1b[2Jb"), "ESC escaped: %s", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "x\n#include\ty\r\b\x7f", ""), "x\\x0a#include\\x09y\\x0d\\x08\\x7f"),
	     "newline, tab, CR, backspace, DEL escaped: %s", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "l1\nl2\tx\033", "\n"), "l1\nl2\\x09x\\x1b"),
	     "keep \"\\n\": newlines pass, the rest is escaped");
	T_OK(!strcmp(str_escape(out, sizeof(out), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", ""),
		     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7"), "well-formed UTF-8 kept: %s", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "\xc2\x9b" "2J", ""), "\\xc2\\x9b2J"),
	     "UTF-8 encoded C1 control (CSI) escaped: %s", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "\x9b\xff\xc3(\xe2\x82", ""), "\\x9b\\xff\\xc3(\\xe2\\x82"),
	     "stray continuation, invalid and truncated sequences escaped: %s", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "\xc0\xaf\xed\xa0\x80", ""), "\\xc0\\xaf\\xed\\xa0\\x80"),
	     "overlong and surrogate encodings escaped: %s", out);
	T_OK(!strcmp(str_escape(out, 8, "abc\033def", ""), "abc\\x1b") && strlen(out) == 7,
	     "truncated at the buffer, never mid-escape: '%s'", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "C:\\dir\\x1b", ""), "C:\\dir\\x1b"),
	     "backslashes in printable text unchanged (libbpf-tools' bytes): %s", out);
	T_OK(!strcmp(str_escape(out, sizeof(out), "a\\x1b\033", ""), "a\\\\x1b\\x1b"),
	     "a string that is escaped has its backslashes escaped too (reads back): %s", out);
	T_OK(!strcmp(str_escape(out, 4, "\\\n", ""), "\\\\") && !strcmp(str_escape(out, 2, "\\\n", ""), ""),
	     "truncated never mid-backslash: '%s'", out);
	T_OK(str_needs_escape("a\033", "") && !str_needs_escape("a\n", "\n") && !str_needs_escape("ok", ""),
	     "str_needs_escape");
	{
		char *m = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&m, &n);

		fputs_escaped("log\n[3] STRUCT \033]0;x\a", "\n", f);
		fclose(f);
		T_OK(m && !strcmp(m, "log\n[3] STRUCT \\x1b]0;x\\x07"), "fputs_escaped keeps what it is told to: %s", m);
		free(m);
	}
}

static void test_err(void)
{
	int r = err_set(EINVAL, "unknown section name '%s'", "\033[2Jevil\n#include");

	T_OK(r == -EINVAL && !strcmp(err_msg(), "unknown section name '\\x1b[2Jevil\\x0a#include'"),
	     "err_set escapes what it quotes: %s", err_msg());
	err_prefix(r, "program %s", "p\033");
	T_OK(!strcmp(err_msg(), "program p\\x1b: unknown section name '\\x1b[2Jevil\\x0a#include'"),
	     "err_prefix escapes its part, keeps the rest: %s", err_msg());
	err_set_lines(EACCES, "rejected; log tail:\n%s", "1: r0 = 0\n2: exit\033[0m");
	T_OK(!strcmp(err_msg(), "rejected; log tail:\n1: r0 = 0\n2: exit\\x1b[0m"),
	     "err_set_lines keeps newlines, escapes the rest");
}

static void test_emfile_hint(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY) {
		T_SKIP("EMFILE hint", "no finite RLIMIT_NOFILE");
		return;
	}
	err_sys(EMFILE, "cannot load program %s", "x");
	T_OK(strstr(err_msg(), "the limit on open files is") && strstr(err_msg(), "ulimit -n"),
	     "EMFILE says the limit and how to raise it: %s", err_msg());
	err_sys(ENOENT, "cannot open %s", "x");
	T_OK(!strstr(err_msg(), "ulimit"), "other errors carry no such hint: %s", err_msg());
}

static double secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_files(void)
{
	char dir[] = "/tmp/corebox_util_XXXXXX", fifo[64], file[64], *buf = NULL;
	size_t len = 0;
	double t0;
	int r, fd;

	if (!mkdtemp(dir)) {
		T_OK(0, "mkdtemp");
		return;
	}
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	if (mkfifo(fifo, 0600) == 0) {
		t0 = secs();
		r = read_file(fifo, 1 << 20, &buf, &len);
		T_OK(r == -EINVAL && strstr(err_msg(), "is a FIFO, not a regular file") && secs() - t0 < 1,
		     "read_file of a FIFO fails at once: %s", err_msg());
		fd = open_regular(fifo, NULL);
		T_OK(fd == -EINVAL, "open_regular of a FIFO fails (no writer: a blocking open would hang)");
		unlink(fifo);
	}
	r = read_file("/dev/zero", 1 << 20, &buf, &len);
	T_OK(r == -EINVAL && strstr(err_msg(), "/dev/zero is a character device"),
	     "read_file of /dev/zero refused before reading: %s", err_msg());
	r = read_file(dir, 1 << 20, &buf, &len);
	T_OK(r == -EISDIR && strstr(err_msg(), "is a directory"), "a directory: %s", err_msg());
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		char big[8192];

		memset(big, 'x', sizeof(big));
		T_OK(write(fd, big, sizeof(big)) == (ssize_t)sizeof(big), "write a test file");
		close(fd);
		r = read_file(file, 4096, &buf, &len);
		T_OK(r == -EFBIG && strstr(err_msg(), "8192 bytes"), "over the size limit, refused by its size: %s",
		     err_msg());
		r = read_file(file, 1 << 20, &buf, &len);
		T_OK(r == 0 && len == sizeof(big) && buf[len] == 0, "a regular file reads whole (%zu bytes)", len);
		free(buf);
		fd = open_regular(file, NULL);
		T_OK(fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK), "open_regular: the fd is blocking again");
		if (fd >= 0)
			close(fd);
		unlink(file);
	}
	r = read_file("/proc/self/status", 1 << 20, &buf, &len);
	T_OK(r == 0 && len > 0 && strstr(buf, "Name:"), "a /proc file (st_size 0) still reads");
	if (!r)
		free(buf);
	rmdir(dir);
}

int main(void)
{
	test_escape();
	test_err();
	test_emfile_hint();
	test_files();
	T_EXIT();
}
