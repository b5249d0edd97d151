/* Flame graph SVG writer (the layout and look of FlameGraph's
 * flamegraph.pl, written from its documented behaviour). */
#include "tools/stack/flamegraph.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

struct node {
	const char *name;
	uint32_t nlen, first, last, next;
	uint64_t value;
};

struct fg {
	struct node *v;
	size_t n, cap;
	FILE *f;
	const struct flamegraph_opts *o;
	double scale;          /* px per count */
	unsigned height, fh, maxdepth;
	uint64_t total;
};

static uint32_t node_new(struct fg *g, const char *name, size_t len)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->v = xrealloc(g->v, g->cap * sizeof(*g->v));
	}
	memset(&g->v[g->n], 0, sizeof(*g->v));
	g->v[g->n].name = name;
	g->v[g->n].nlen = (uint32_t)len;
	return (uint32_t)g->n++;
}

static void insert(struct fg *g, const char *line, uint64_t c)
{
	uint32_t cur = 0;

	g->v[0].value += c;
	for (const char *p = line; *p;) {
		size_t len = strcspn(p, ";");
		uint32_t ch = g->v[cur].last;

		/* sorted input: the same child is the last one added */
		if (!ch || g->v[ch].nlen != len || memcmp(g->v[ch].name, p, len)) {
			for (ch = g->v[cur].first; ch; ch = g->v[ch].next)
				if (g->v[ch].nlen == len && !memcmp(g->v[ch].name, p, len))
					break;
			if (!ch) {
				ch = node_new(g, p, len);
				if (g->v[cur].last)
					g->v[g->v[cur].last].next = ch;
				else
					g->v[cur].first = ch;
				g->v[cur].last = ch;
			}
		}
		g->v[ch].value += c;
		cur = ch;
		p += len;
		if (*p)
			p++;
	}
}

/* XML text: escape markup, replace control characters and bytes that are
 * not valid UTF-8 (comm and symbol names are arbitrary bytes). */
static void xml_put(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + len;

	while (p < e) {
		unsigned c = *p;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&apos;", f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else if (c >= 0x80) {
			size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
			size_t i;

			for (i = 1; n && i < n; i++)
				if (p + i >= e || (p[i] & 0xc0) != 0x80)
					break;
			/* reject overlong 3/4-byte forms and surrogates */
			if (n && i == n && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
					    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
				n = 0;
			if (!n || i != n) {
				fputc('?', f);
			} else {
				fwrite(p, 1, n, f);
				p += n;
				continue;
			}
		} else
			fputc((int)c, f);
		p++;
	}
}

static void color(const struct node *n, enum fg_palette pal, int waker, unsigned rgb[3])
{
	uint32_t h = 2166136261u;
	double v1, v2, v3;

	for (uint32_t i = 0; i < n->nlen; i++)
		h = (h ^ (unsigned char)n->name[i]) * 16777619u;
	v1 = (h & 0x3ff) / 1024.0;
	v2 = (h >> 10 & 0x3ff) / 1024.0;
	v3 = (h >> 20 & 0x3ff) / 1024.0;
	if (pal == FG_CHAIN && n->nlen == 2 && !memcmp(n->name, "--", 2)) {
		rgb[0] = rgb[1] = rgb[2] = 160;
	} else if (pal == FG_CHAIN && waker) {          /* aqua */
		rgb[0] = 50 + (unsigned)(60 * v1);
		rgb[1] = rgb[2] = 165 + (unsigned)(55 * v1);
	} else if (pal == FG_IO || pal == FG_CHAIN) {   /* blue */
		rgb[0] = rgb[1] = 80 + (unsigned)(60 * v1);
		rgb[2] = 190 + (unsigned)(55 * v2);
	} else {                                        /* hot */
		rgb[0] = 205 + (unsigned)(50 * v3);
		rgb[1] = (unsigned)(230 * v1);
		rgb[2] = (unsigned)(55 * v2);
	}
}

static void depth_of(struct fg *g, uint32_t id, unsigned d)
{
	if (d > g->maxdepth)
		g->maxdepth = d;
	for (uint32_t c = g->v[id].first; c; c = g->v[c].next)
		if (g->v[c].value * g->scale >= g->o->min_width)
			depth_of(g, c, d + 1);
}

static void draw(struct fg *g, uint32_t id, unsigned d, double x, int waker)
{
	const struct node *n = &g->v[id];
	double w = n->value * g->scale, y = g->height - 34.0 - (d + 1.0) * g->fh;
	unsigned rgb[3];
	size_t fit = w > 6 ? (size_t)((w - 6) / 7.08) : 0;  /* 12 px Verdana ~ 0.59 em */

	color(n, g->o->palette, waker, rgb);
	fputs("<g class=\"f\"><title>", g->f);
	xml_put(g->f, n->name, n->nlen);
	fprintf(g->f, " (%llu %s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%u\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.1f\" y=\"%.1f\">",
		(unsigned long long)n->value, g->o->unit, 100.0 * n->value / g->total, x, y, w,
		g->fh - 1, rgb[0], rgb[1], rgb[2], x + 3, y + g->fh / 2.0 + 4);
	if (fit >= 3)
		xml_put(g->f, n->name, n->nlen <= fit ? n->nlen : fit - 2);
	if (fit >= 3 && n->nlen > fit)
		fputs("..", g->f);
	fputs("</text></g>\n", g->f);
	waker |= n->nlen == 2 && !memcmp(n->name, "--", 2);
	for (uint32_t c = n->first; c; c = g->v[c].next) {
		if (g->v[c].value * g->scale >= g->o->min_width)
			draw(g, c, d + 1, x, waker);
		x += g->v[c].value * g->scale;
	}
}

static const char js[] =
"var F=7.08,fr,det,srch=null;function $(i){return document.getElementById(i)}\n"
"function init(){det=$('d');fr=[].slice.call(document.querySelectorAll('.f'));fr.forEach(function(g){"
"var r=g.querySelector('rect'),t=g.querySelector('title').textContent;g.n=t.substring(0,t.lastIndexOf(' ('));"
"g.r=r;g.t=g.querySelector('text');g.x=+r.getAttribute('x');g.w=+r.getAttribute('width');"
"g.y=+r.getAttribute('y');g.c=r.getAttribute('fill');g.onclick=function(){zoom(g)};"
"g.onmouseover=function(){det.textContent=t};g.onmouseout=function(){det.textContent=' '}})}\n"
"function lab(g,x,w){var n=g.n,c=Math.floor((w-6)/F);g.t.setAttribute('x',x+3);"
"g.t.textContent=c<3?'':n.length>c?n.substr(0,c-2)+'..':n}\n"
"function place(g,x,w){g.r.setAttribute('x',x);g.r.setAttribute('width',w);lab(g,x,w)}\n"
"function zoom(z){var k=(W-2*P)/z.w;$('u').classList.remove('h');fr.forEach(function(g){"
"var a=g.x<z.x+z.w-.05&&g.x+g.w>z.x+.05;g.classList.remove('p');g.classList.toggle('h',!a);if(!a)return;"
"if(g.y>z.y){g.classList.add('p');place(g,P,W-2*P)}else place(g,P+(g.x-z.x)*k,g.w*k)})}\n"
"function unzoom(){$('u').classList.add('h');fr.forEach(function(g){g.classList.remove('h');"
"g.classList.remove('p');place(g,g.x,g.w)})}\n"
"function search(){if(srch!==null){srch=null;$('s').textContent='Search';mark(null);return}"
"var q=prompt('Search (regex or substring):','');if(!q)return;var re=null;try{re=new RegExp(q)}catch(e){}"
"srch=q;$('s').textContent='Reset Search';mark(function(n){return re?re.test(n):n.indexOf(q)>=0})}\n"
"function mark(f){var m=[],s=0,e=-1;fr.forEach(function(g){var h=f&&f(g.n);"
"g.r.setAttribute('fill',h?'rgb(230,0,230)':g.c);if(h)m.push(g)});m.sort(function(a,b){return a.x-b.x});"
"m.forEach(function(g){var r=g.x+g.w;if(g.x>=e){s+=g.w;e=r}else if(r>e){s+=r-e;e=r}});"
"$('m').textContent=f?'Matched: '+(100*s/(W-2*P)).toFixed(1)+'%':' '}\n";

int flamegraph_fwrite(FILE *f, struct fold_agg *a, const struct flamegraph_opts *opt)
{
	struct flamegraph_opts o = { 0 };
	struct fg g = { 0 };
	unsigned W;

	if (opt)
		o = *opt;
	if (!o.title)
		o.title = "Flame Graph";
	if (!o.unit)
		o.unit = "samples";
	W = o.width ? o.width : 1200;
	g.fh = o.frame_height ? o.frame_height : 16;
	if (o.min_width <= 0)
		o.min_width = 0.1;
	g.f = f;
	g.o = &o;
	fold_agg_sort(a);
	node_new(&g, "all", 3);
	for (size_t i = 0; i < fold_agg_len(a); i++) {
		uint64_t c;
		const char *line = fold_agg_line(a, i, &c);

		if (c)
			insert(&g, line, c);
	}
	g.total = g.v[0].value ? g.v[0].value : 1;
	g.scale = (W - 20.0) / g.total;
	depth_of(&g, 0, 0);
	g.height = (g.maxdepth + 1) * g.fh + 36 + 34;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%u\" height=\"%u\" onload=\"init()\" viewBox=\"0 0 %u %u\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font-family:Verdana,sans-serif;font-size:12px}#t{font-size:17px;text-anchor:middle}"
		".b{cursor:pointer}.h{display:none}.p rect{opacity:.5}.f:hover rect{stroke:#000;stroke-width:.5}"
		"</style>\n<script><![CDATA[var W=%u,P=10;\n%s]]></script>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#f4f4ee\"/>\n<text id=\"t\" x=\"%u\" y=\"24\">",
		W, g.height, W, g.height, W, js, W / 2);
	xml_put(f, o.title, strlen(o.title));
	fputs("</text>\n", f);
	if (o.subtitle) {
		fprintf(f, "<text x=\"%u\" y=\"40\" text-anchor=\"middle\" fill=\"#888\">", W / 2);
		xml_put(f, o.subtitle, strlen(o.subtitle));
		fputs("</text>\n", f);
	}
	fprintf(f, "<text id=\"d\" x=\"10\" y=\"%u\"> </text>\n"
		"<text id=\"u\" class=\"b h\" x=\"10\" y=\"24\" onclick=\"unzoom()\">Reset Zoom</text>\n"
		"<text id=\"s\" class=\"b\" x=\"%u\" y=\"24\" onclick=\"search()\">Search</text>\n"
		"<text id=\"m\" x=\"%u\" y=\"%u\"> </text>\n<g>\n",
		g.height - 12, W - 110, W - 110, g.height - 12);
	draw(&g, 0, 0, 10, 0);
	fputs("</g>\n</svg>\n", f);
	free(g.v);
	fflush(f);
	return ferror(f) ? err_set(EIO, "cannot write the flame graph") : 0;
}

int flamegraph_write(const char *path, struct fold_agg *a, const struct flamegraph_opts *o)
{
	FILE *f = fopen(path, "we");
	int err;

	if (!f)
		return err_sys(errno, "cannot create %s", path);
	err = flamegraph_fwrite(f, a, o);
	if (fclose(f) != 0 && !err)
		err = err_sys(errno, "cannot write %s", path);
	return err ? err_prefix(err, "%s", path) : 0;
}
