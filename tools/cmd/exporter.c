/* command exporter: serve the reports of summarizing tools as Prometheus metrics over HTTP
 *
 *   corebox exporter [--listen ADDR:PORT] [--interval S] -- 'biolatency -D' 'runqlat' ...
 *
 * Each TOOL ARGS string runs as its own process (this binary again),
 * with --prom FILE in a private directory and its report interval (-i S
 * when the tool has --interval, else the positional interval of the
 * libbpf-tools interval tools): its crash or hang cannot take the others
 * or the server down.  GET /metrics answers with every tool's last file
 * and the exporter's own series per tool: up, restarts, lost events, BPF
 * programs and links it holds, the time of its last report.  GET
 * /healthz: 200 "ok" while every tool runs, else 503 naming the others.
 * A tool that ends is restarted after 1, 2, 4 ... 60 s (counted);
 * its stderr lines pass through.  SIGINT/SIGTERM/SIGHUP: the tools get
 * SIGTERM (they detach), are reaped (SIGKILL after 5 s), the directory
 * is removed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/common/common.h"
#include "tools/common/httpd.h"

#define MAX_TOOLS 16
#define PROM_MAX (8u << 20) /* a tool's file larger than this is not served */
#define KEY_LISTEN OPT_LONG_ONLY(1)
#define KEY_INTERVAL OPT_LONG_ONLY(2)

static const struct opt opts[] = {
	{ KEY_LISTEN, "listen", "ADDR:PORT", "serve /metrics there (default :9435, as ebpf_exporter)" },
	{ KEY_INTERVAL, "interval", "S", "each tool reports every S seconds (default 10)" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "corebox exporter",
	.usage = "[--listen ADDR:PORT] [--interval S] -- 'TOOL [ARGS]'...",
	.summary = "Run summarizing tools (each with --prom, in its own process) and serve their merged\n"
		   "Prometheus metrics on GET /metrics, with per tool: up, restarts, lost events, BPF\n"
		   "programs and links, last report time.  GET /healthz: 200 while every tool runs.",
	.examples = "    corebox exporter -- 'biolatency -D' runqlat 'syscount -P'\n"
		    "    corebox exporter --listen 127.0.0.1:9500 --interval 5 -- 'tcprtt -a'\n",
	.opts = opts,
	.flags = OPT_NO_JSON,
};

struct tool {
	const char *spec;  /* as given: "biolatency -D" (the tool label) */
	char *argv[64];    /* corebox TOOL --prom FILE ARGS... INTERVAL */
	char prom[256];
	pid_t pid;         /* 0: not running */
	int err_fd;        /* its stderr, -1 when closed */
	char line[512];
	size_t linelen;
	unsigned restarts, backoff_s;
	uint64_t lost, lost_before; /* this run's, the runs' before */
	uint64_t started_ns, restart_ns;
};

static struct {
	const char *listen;
	long interval;
	struct tool tools[MAX_TOOLS];
	int ntools;
	char dir[64];
} ex; /* zero: in .bss, not 20 KiB of the binary's .data */

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case KEY_LISTEN: ex.listen = arg; break;
	case KEY_INTERVAL: ex.interval = (long)opt_num(&help, "interval", arg, 1, 86400); break;
	case 0:
		if (ex.ntools == MAX_TOOLS)
			opt_usage_error(&help, "at most %d tools", MAX_TOOLS);
		ex.tools[ex.ntools++].spec = arg;
		break;
	default: return 1;
	}
	return 0;
}

/* Run `corebox TOOL --help` and keep up to size bytes of what it prints:
 * its exit status, or -1. */
static int tool_help_text(const char *tool, char *buf, size_t size)
{
	int p[2], st;
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		dup2(p[1], 1);
		if (nul >= 0)
			dup2(nul, 2);
		execl("/proc/self/exe", "corebox", tool, "--help", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (pid > 0 && got + 1 < size && (r = read(p[0], buf + got, size - 1 - got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		got += (size_t)r;
	}
	buf[got] = 0;
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Split the spec, check the tool summarizes and how it takes its
 * interval, build its argv.  0, or exit 2 after a message. */
static void prepare(struct tool *t, int idx)
{
	static char words[MAX_TOOLS][1024];
	static char helpbuf[32768];
	static char ivbuf[MAX_TOOLS][24];
	char *w = words[idx], *save = NULL, *tok;
	int n = 0, nargs;
	char *args[56];
	bool has_i;

	if (strlen(t->spec) >= sizeof(words[idx]))
		opt_usage_error(&help, "tool '%.40s...' is too long", t->spec);
	strcpy(w, t->spec);
	for (tok = strtok_r(w, " \t", &save); tok && n < 56; tok = strtok_r(NULL, " \t", &save))
		args[n++] = tok;
	if (!n || tok)
		opt_usage_error(&help, "tool '%s': %s", t->spec, n ? "too many arguments" : "empty");
	for (int i = 0; i < idx; i++)
		if (!strcmp(ex.tools[i].argv[1], args[0]))
			opt_usage_error(&help, "%s given twice: the two would report the same series; one "
					       "instance per tool", args[0]);
	if (tool_help_text(args[0], helpbuf, sizeof(helpbuf)) != 0)
		opt_usage_error(&help, "tool '%s': no such tool (corebox --list)", args[0]);
	if (!strstr(helpbuf, "--prom"))
		opt_usage_error(&help, "tool '%s' does not summarize (it has no --prom): event tools "
				       "stream, they have no metrics", args[0]);
	has_i = strstr(helpbuf, "--interval") != NULL;
	if (!has_i && !strstr(strtok_r(helpbuf, "\n", &save), "interval"))
		opt_usage_error(&help, "tool '%s' reports only at its end (no interval): nothing to serve "
				       "meanwhile", args[0]);
	snprintf(ivbuf[idx], sizeof(ivbuf[idx]), "%ld", ex.interval);
	nargs = 0;
	t->argv[nargs++] = "corebox";
	t->argv[nargs++] = args[0];
	t->argv[nargs++] = "--prom";
	t->argv[nargs++] = t->prom; /* filled once the directory exists */
	for (int i = 1; i < n; i++)
		t->argv[nargs++] = args[i];
	if (has_i)
		t->argv[nargs++] = "-i";
	t->argv[nargs++] = ivbuf[idx];
	t->argv[nargs] = NULL;
	t->err_fd = -1;
}

static void start(struct tool *t)
{
	int p[2];
	pid_t parent = getpid();

	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "exporter: %s: pipe: %s\n", t->spec, strerror(errno));
		return;
	}
	t->pid = fork();
	if (t->pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		sigset_t none;

		/* the tool dies with the exporter, whatever kills it */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
		}
		dup2(p[1], 2);
		execv("/proc/self/exe", t->argv);
		fprintf(stderr, "exporter: %s: exec: %s\n", t->spec, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	if (t->pid < 0) {
		fprintf(stderr, "exporter: %s: fork: %s\n", t->spec, strerror(errno));
		t->pid = 0;
		close(p[0]);
		return;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	if (t->err_fd >= 0)
		close(t->err_fd);
	t->err_fd = p[0];
	t->linelen = 0;
	t->started_ns = now_ns();
}

/* One stderr line of the tool: passed on; "lost N events (M so far)" and
 * the final "lost N events (..." count. */
static void tool_line(struct tool *t, const char *line)
{
	const char *l = strstr(line, ": lost ");
	unsigned long long n, sofar;

	if (l && str_scan(l, ": lost %llu events (%llu so far)", &n, &sofar) == 2)
		t->lost = sofar > t->lost ? sofar : t->lost;
	else if (l && str_scan(l, ": lost %llu events", &n) == 1)
		t->lost = n > t->lost ? n : t->lost;
	fprintf(stderr, "%s\n", line);
}

static void read_err(struct tool *t)
{
	char buf[1024];
	ssize_t r = -1;
	int rounds = 0;

	/* bounded: a tool flooding stderr must not keep the server waiting */
	while (rounds++ < 16 && (r = read(t->err_fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == '\n' || t->linelen == sizeof(t->line) - 1) {
				t->line[t->linelen] = 0;
				tool_line(t, t->line);
				t->linelen = 0;
				if (buf[i] == '\n')
					continue;
			}
			t->line[t->linelen++] = buf[i];
		}
	if (r == 0) { /* the tool is gone (its exit is seen by reap) */
		if (t->linelen) {
			t->line[t->linelen] = 0;
			tool_line(t, t->line);
			t->linelen = 0;
		}
		close(t->err_fd);
		t->err_fd = -1;
	}
}

/* Collect ended tools and schedule their restart. */
static void reap(void)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		for (int i = 0; i < ex.ntools; i++) {
			struct tool *t = &ex.tools[i];
			uint64_t now = now_ns();

			if (t->pid != pid)
				continue;
			t->pid = 0;
			unlink(t->prom); /* its series end with it */
			if (now - t->started_ns >= 60000000000ull)
				t->backoff_s = 0; /* ran a while: start over at 1 s */
			t->backoff_s = t->backoff_s ? (t->backoff_s * 2 > 60 ? 60 : t->backoff_s * 2) : 1;
			t->restart_ns = now + t->backoff_s * 1000000000ull;
			if (WIFEXITED(st))
				fprintf(stderr, "exporter: '%s' exited with status %d; restart in %u s\n", t->spec,
					WEXITSTATUS(st), t->backoff_s);
			else
				fprintf(stderr, "exporter: '%s' killed by signal %d (%s); restart in %u s\n", t->spec,
					WTERMSIG(st), strsignal(WTERMSIG(st)), t->backoff_s);
		}
}

/* BPF programs and links the tool holds, from its descriptors. */
static void bpf_fds(pid_t pid, unsigned *progs, unsigned *links)
{
	char path[64], target[64];
	struct dirent *de;
	DIR *d;

	*progs = *links = 0;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		char fp[96 + 256];
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(fp, sizeof(fp), "%s/%s", path, de->d_name);
		if ((n = readlink(fp, target, sizeof(target) - 1)) <= 0)
			continue;
		target[n] = 0;
		*progs += !strcmp(target, "anon_inode:bpf-prog");
		*links += !strcmp(target, "anon_inode:bpf_link") || !strcmp(target, "anon_inode:bpf-link");
	}
	closedir(d);
}

enum { M_UP, M_RESTARTS, M_LOST, M_PROGS, M_LINKS, M_LAST, NMETRICS };
static const struct {
	const char *name, *type, *help;
} own[NMETRICS] = {
	[M_UP] = { "corebox_exporter_up", "gauge", "1 while the tool runs" },
	[M_RESTARTS] = { "corebox_exporter_restarts_total", "counter", "times the tool was restarted after it ended" },
	[M_LOST] = { "corebox_exporter_lost_events_total", "counter",
		     "events the tool reported lost" },
	[M_PROGS] = { "corebox_exporter_bpf_programs", "gauge", "BPF programs the tool holds loaded" },
	[M_LINKS] = { "corebox_exporter_bpf_links", "gauge", "BPF links the tool holds (programs attached by link)" },
	[M_LAST] = { "corebox_exporter_last_report_timestamp_seconds", "gauge",
		     "when the tool last wrote its report (Unix time)" },
};

static void own_metrics(struct strbuf *b)
{
	unsigned progs[MAX_TOOLS], links[MAX_TOOLS];
	double last[MAX_TOOLS];

	for (int i = 0; i < ex.ntools; i++) {
		struct stat st;

		progs[i] = links[i] = 0;
		if (ex.tools[i].pid)
			bpf_fds(ex.tools[i].pid, &progs[i], &links[i]);
		last[i] = ex.tools[i].pid && stat(ex.tools[i].prom, &st) == 0
				  ? (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9
				  : -1;
	}
	for (int m = 0; m < NMETRICS; m++) {
		strbuf_addf(b, "# HELP %s %s\n# TYPE %s %s\n", own[m].name, own[m].help, own[m].name, own[m].type);
		for (int i = 0; i < ex.ntools; i++) {
			const struct tool *t = &ex.tools[i];

			if (m == M_LAST && last[i] < 0)
				continue;
			strbuf_addf(b, "%s{tool=\"", own[m].name);
			prom_label_value(b, t->spec);
			strbuf_add(b, "\"} ");
			switch (m) {
			case M_UP: strbuf_addf(b, "%d\n", t->pid != 0); break;
			case M_RESTARTS: strbuf_addf(b, "%u\n", t->restarts); break;
			case M_LOST: strbuf_addf(b, "%llu\n", (unsigned long long)(t->lost_before + t->lost)); break;
			case M_PROGS: strbuf_addf(b, "%u\n", progs[i]); break;
			case M_LINKS: strbuf_addf(b, "%u\n", links[i]); break;
			case M_LAST: strbuf_addf(b, "%.3f\n", last[i]); break;
			}
		}
	}
}

/* Append the file (a tool's last report), at most PROM_MAX bytes. */
static void add_file(struct strbuf *b, const char *path)
{
	char buf[8192];
	size_t total = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > PROM_MAX) {
		close(fd);
		return;
	}
	while (total < PROM_MAX && (r = read(fd, buf, sizeof(buf))) > 0) {
		strbuf_addn(b, buf, (size_t)r);
		total += (size_t)r;
	}
	close(fd);
	if (b->len && b->s[b->len - 1] != '\n')
		strbuf_addc(b, '\n');
}

static int page(void *ctx, const char *path, struct strbuf *body, const char **ctype)
{
	(void)ctx;
	if (!strcmp(path, "/metrics")) {
		for (int i = 0; i < ex.ntools; i++)
			if (ex.tools[i].pid)
				add_file(body, ex.tools[i].prom);
		own_metrics(body);
		*ctype = "text/plain; version=0.0.4; charset=utf-8";
		return 200;
	}
	if (!strcmp(path, "/healthz")) {
		int down = 0;

		for (int i = 0; i < ex.ntools; i++)
			if (!ex.tools[i].pid) {
				strbuf_addf(body, "%s'%s'", down++ ? ", " : "down: ", ex.tools[i].spec);
			}
		strbuf_add(body, down ? "\n" : "ok\n");
		return down ? 503 : 200;
	}
	return 404;
}

/* The private directory and what is left in it: the temporary file of
 * a tool killed while it wrote its report. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, "..")))
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

/* SIGTERM to every tool, SIGKILL after 5 s, all reaped. */
static void stop_all(void)
{
	uint64_t end = now_ns() + 5000000000ull;
	int left;

	for (int i = 0; i < ex.ntools; i++)
		if (ex.tools[i].pid)
			kill(ex.tools[i].pid, SIGTERM);
	for (;;) {
		int st;
		pid_t pid;

		left = 0;
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			for (int i = 0; i < ex.ntools; i++)
				if (ex.tools[i].pid == pid)
					ex.tools[i].pid = 0;
		for (int i = 0; i < ex.ntools; i++) {
			if (ex.tools[i].err_fd >= 0)
				read_err(&ex.tools[i]);
			left += ex.tools[i].pid != 0;
		}
		if (!left || now_ns() >= end)
			break;
		usleep(20000);
	}
	for (int i = 0; i < ex.ntools; i++) {
		struct tool *t = &ex.tools[i];

		if (t->pid) {
			fprintf(stderr, "exporter: '%s' did not stop within 5 s of SIGTERM; killed\n", t->spec);
			kill(t->pid, SIGKILL);
			waitpid(t->pid, NULL, 0);
			t->pid = 0;
		}
		if (t->err_fd >= 0)
			close(t->err_fd);
		unlink(t->prom);
	}
}

int exporter_main(int argc, char **argv)
{
	struct pollfd p[HTTPD_MAX_CONN + 1 + MAX_TOOLS];
	struct httpd *h;
	const char *tmp = getenv("TMPDIR");

	ex.listen = ":9435";
	ex.interval = 10;
	opt_parse(argc, argv, &help, parse, NULL);
	if (!ex.ntools)
		opt_usage_error(&help, "no tools: corebox exporter -- 'biolatency -D' runqlat ...");
	for (int i = 0; i < ex.ntools; i++) /* usage errors first: nothing made yet */
		prepare(&ex.tools[i], i);
	snprintf(ex.dir, sizeof(ex.dir), "%s/corebox-exporter.XXXXXX", tmp && *tmp && strlen(tmp) < 30 ? tmp : "/tmp");
	if (!mkdtemp(ex.dir)) {
		fprintf(stderr, "exporter: cannot make a directory for the reports (%s): %s\n", ex.dir,
			strerror(errno));
		return 1;
	}
	for (int i = 0; i < ex.ntools; i++)
		snprintf(ex.tools[i].prom, sizeof(ex.tools[i].prom), "%s/%d-%s.prom", ex.dir, i, ex.tools[i].argv[1]);
	tool_signals();
	if (!(h = httpd_open("exporter", ex.listen, page, NULL))) {
		rmdir(ex.dir);
		return 1;
	}
	for (int i = 0; i < ex.ntools; i++)
		start(&ex.tools[i]);
	fprintf(stderr, "exporter: serving %d tools on http://%s/metrics every %ld s\n", ex.ntools, ex.listen,
		ex.interval);
	while (!tool_exiting) {
		int n, nh, timeout = 1000, ht;
		uint64_t now = now_ns();

		reap();
		for (int i = 0; i < ex.ntools; i++) {
			struct tool *t = &ex.tools[i];

			if (!t->pid && t->restart_ns && now >= t->restart_ns) {
				t->restarts++;
				t->lost_before += t->lost;
				t->lost = 0;
				t->restart_ns = 0;
				start(t);
			}
		}
		nh = n = httpd_pollfds(h, p);
		for (int i = 0; i < ex.ntools; i++)
			if (ex.tools[i].err_fd >= 0)
				p[n++] = (struct pollfd){ .fd = ex.tools[i].err_fd, .events = POLLIN };
		if ((ht = httpd_timeout(h)) >= 0 && ht < timeout)
			timeout = ht;
		if (poll(p, (nfds_t)n, timeout) < 0 && errno != EINTR)
			break;
		for (int k = nh; k < n; k++)
			for (int i = 0; i < ex.ntools; i++)
				if (p[k].revents && ex.tools[i].err_fd == p[k].fd)
					read_err(&ex.tools[i]);
		httpd_serve(h, p, nh);
	}
	stop_all();
	httpd_close(h);
	remove_dir(ex.dir);
	return 0;
}
