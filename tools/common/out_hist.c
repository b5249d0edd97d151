/* Histograms: the libbpf-tools text layouts, JSON buckets, Prometheus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "out_int.h"

static void print_stars(uint64_t val, uint64_t val_max, int width)
{
	int num_stars, num_spaces, i;

	num_stars = (int)((val < val_max ? val : val_max) * (uint64_t)width / (val_max ? val_max : 1));
	num_spaces = width - num_stars;
	for (i = 0; i < num_stars; i++)
		putchar('*');
	for (i = 0; i < num_spaces; i++)
		putchar(' ');
	if (val > val_max)
		putchar('+');
}

/* The layout of libbpf-tools' print_log2_hist (spec §0.3); bcc's
 * (table.py) with bcc slots: slot i is libbpf-tools' slot i - 1, slot 0
 * (the value 0) is not shown, one more space before "distribution". */
static void log2_text(const uint64_t *vals, int n, const char *unit, bool bcc)
{
	int idx_max = -1, i;
	uint64_t val_max = 0;
	bool wide;

	for (i = 0; i < n; i++) {
		if (vals[i] > 0)
			idx_max = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (idx_max < (bcc ? 1 : 0))
		return;
	wide = idx_max > 32;
	printf("%*s%-*s : count%sdistribution\n", wide ? 15 : 5, "", wide ? 29 : 19, unit, bcc ? "     " : "    ");
	for (i = bcc; i <= idx_max; i++) {
		int k = i - bcc; /* the value range of the row */
		unsigned long long low = k + 1 >= 64 ? 1ULL << 63 : (1ULL << (k + 1)) >> 1;
		unsigned long long high = k + 1 >= 64 ? ~0ULL : (1ULL << (k + 1)) - 1;

		if (low == high)
			low -= 1;
		printf("%*llu -> %-*llu : %-8llu |", wide ? 20 : 10, low, wide ? 20 : 10, high,
		       (unsigned long long)vals[i]);
		print_stars(vals[i], val_max, wide ? 20 : 40);
		printf("|\n");
	}
}

/* runqlen's linear layout (spec §0.4): only the non-zero span. */
static void linear_text(const uint64_t *vals, int n, unsigned base, unsigned step, const char *unit)
{
	int i, first = -1, last = -1;
	uint64_t val_max = 0;

	for (i = 0; i < n; i++) {
		if (vals[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (first < 0)
		return;
	printf("     %-13s : count     distribution\n", unit);
	for (i = first; i <= last; i++) {
		printf("        %-10u : %-8llu |", base + (unsigned)i * step, (unsigned long long)vals[i]);
		print_stars(vals[i], val_max, 40);
		printf("|\n");
	}
}

static uint64_t *widen(const uint32_t *vals, int n)
{
	uint64_t *w = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*w));

	for (int i = 0; i < n; i++)
		w[i] = vals[i];
	return w;
}

void print_log2_hist(const uint32_t *vals, int n, const char *unit)
{
	uint64_t *w = widen(vals, n);

	log2_text(w, n, unit, false);
	free(w);
}

void print_linear_hist(const uint32_t *vals, int n, unsigned base, unsigned step, const char *unit)
{
	uint64_t *w = widen(vals, n);

	linear_text(w, n, base, step, unit);
	free(w);
}

/* 2^k as a double, 0 <= k <= 64 */
static double pow2(int k)
{
	return k >= 64 ? 18446744073709551616.0 : (double)(1ULL << k);
}

double hist_low(const struct out_hist *h, int i)
{
	if (h->linear)
		return (double)h->base + (double)i * h->step;
	if (h->bcc) /* slot 0: the value 0; slot i: [2^(i-1), 2^i) */
		return i > 0 ? pow2(i - 1) : 0;
	return i > 0 ? pow2(i) : 0;
}

double hist_high(const struct out_hist *h, int i)
{
	if (h->linear)
		return (double)h->base + (double)(i + 1) * h->step;
	return pow2(i + !h->bcc);
}

double hist_unit_scale(const char *unit, const char **suffix)
{
	static const struct {
		const char *unit, *suffix;
		double scale;
	} units[] = {
		{ "nsecs", "_seconds", 1e-9 }, { "usecs", "_seconds", 1e-6 }, { "msecs", "_seconds", 1e-3 },
		{ "secs", "_seconds", 1 },     { "seconds", "_seconds", 1 },  { "bytes", "_bytes", 1 },
		{ "kbytes", "_bytes", 1024 },  { "Kbytes", "_bytes", 1024 },
	};

	for (size_t i = 0; unit && i < ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].unit)) {
			*suffix = units[i].suffix;
			return units[i].scale;
		}
	*suffix = NULL;
	return 1;
}

static void json_hist(const struct out_hist *h, const struct out_label *labels, int nlabels,
		      const uint64_t *slots, int n, const double *sum)
{
	struct strbuf b = { 0 };
	uint64_t total = 0;
	int i, last = -1, first = h->linear ? -1 : 0;

	for (i = 0; i < n; i++) {
		total += slots[i];
		if (slots[i]) {
			last = i;
			if (first < 0)
				first = i;
		}
	}
	strbuf_reset(&b);
	strbuf_addc(&b, '{');
	for (i = 0; i < nlabels; i++) {
		json_str(&b, labels[i].key);
		strbuf_addc(&b, ':');
		json_str(&b, labels[i].val ? labels[i].val : "");
		strbuf_addc(&b, ',');
	}
	strbuf_add(&b, "\"unit\":");
	json_str(&b, h->unit ? h->unit : "");
	strbuf_addf(&b, ",\"count\":%llu", (unsigned long long)total);
	if (sum) {
		strbuf_add(&b, ",\"sum\":");
		json_num(&b, *sum);
	}
	strbuf_add(&b, ",\"buckets\":[");
	/* the rows text prints: log2 from 0 to the last non-zero slot, linear
	 * the non-zero span */
	for (i = first < 0 ? 0 : first; i <= last; i++) {
		unsigned long long low = (unsigned long long)hist_low(h, i);
		double hi = hist_high(h, i);
		unsigned long long high = hi >= 18446744073709551616.0 ? ~0ULL : (unsigned long long)hi - 1;

		if (i > (first < 0 ? 0 : first))
			strbuf_addc(&b, ',');
		strbuf_addf(&b, "{\"low\":%llu,\"high\":%llu,\"count\":%llu}", low, high,
			    (unsigned long long)slots[i]);
	}
	strbuf_add(&b, "]}");
	out_json_value(h->key, &b);
	strbuf_free(&b);
}

bool out_hist64_data(const struct out_hist *h, const struct out_label *labels, int nlabels,
		     const uint64_t *slots, int nslots, const double *sum)
{
	if (out_prom_on() && out_doc_is_open())
		prom_hist(h, labels, nlabels, slots, nslots, sum);
	if (out_json()) {
		json_hist(h, labels, nlabels, slots, nslots, sum);
		return true;
	}
	return false;
}

void out_hist64(const struct out_hist *h, const char *text_head, const struct out_label *labels,
		int nlabels, const uint64_t *slots, int nslots, const double *sum)
{
	if (out_hist64_data(h, labels, nlabels, slots, nslots, sum))
		return;
	if (text_head)
		fputs(text_head, stdout);
	if (h->linear)
		linear_text(slots, nslots, h->base, h->step, h->unit);
	else
		log2_text(slots, nslots, h->unit, h->bcc);
}

void out_hist(const struct out_hist *h, const char *text_head, const struct out_label *labels,
	      int nlabels, const uint32_t *slots, int nslots, const double *sum)
{
	uint64_t *w = widen(slots, nslots);

	out_hist64(h, text_head, labels, nlabels, w, nslots, sum);
	free(w);
}
