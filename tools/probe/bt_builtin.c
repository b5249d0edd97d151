/* bpftrace's builtins that need no map or variable of the program (see
 * bt.h): numaid, sargN, buf(), pton() and uaddr().  strncmp and the buffer
 * comparisons share the string compare of bt_gen.c. */
#include "bt.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/probe/arch.h"

bool bt_const_int(const struct bt_prog *p, const struct node *n, int64_t *v)
{
	if (!n)
		return false;
	if (n->kind == N_NUM) {
		*v = (int64_t)n->num;
		return true;
	}
	if (n->kind == N_UNARY && n->op == '-' && n->a->kind == N_NUM) {
		*v = -(int64_t)n->a->num;
		return true;
	}
	if (n->kind == N_IDENT && n->str[0] == '$' && n->str[1] >= '1' && n->str[1] <= '9') {
		int k = atoi(n->str + 1);
		const char *s = k <= p->nparams ? p->params[k - 1] : "0";
		char *end;

		*v = strtoll(s, &end, 0);
		return *s && !*end;
	}
	return false;
}

struct bt_type bt_buf_type(const struct bt_prog *p, const struct node *n)
{
	struct bt_type t = { .vt = VT_BUF, .size = (uint16_t)p->strlen };
	int64_t len;

	if (n->a && n->a->next && bt_const_int(p, n->a->next, &len))
		t.size = (uint16_t)(len < 1 ? 1 : len < p->strlen ? len : p->strlen);
	else if (n->a && n->a->kind == N_STR && (int)n->a->len < p->strlen)
		t.size = (uint16_t)(n->a->len ? n->a->len : 1);
	return t;
}

void bt_read_at(struct emit *e, bool user)
{
	int kern = emit_label(e), done = emit_label(e);

	if (user) {
		emit_call(e, BPF_FUNC_probe_read_user);
		return;
	}
	emit_jmpi(e, BPF_JSLT, R3, 0, kern);
	emit_call(e, BPF_FUNC_probe_read_user);
	emit_ja(e, done);
	emit_place(e, kern);
	emit_call(e, BPF_FUNC_probe_read_kernel);
	emit_place(e, done);
}

int bt_buf_to(struct gen *g, const struct bt_prog *p, struct node *n, int reg, int off, int cap)
{
	struct emit *e = gen_emit(g);
	struct node *src = n->a, *lenx = src ? src->next : NULL;
	int64_t len = -1;
	struct ctype t;
	char msg[80];

	if (!src)
		return gen_fail(g, n, "buf() requires at least one argument (0 provided)");
	if (lenx && bt_const_int(p, lenx, &len) && len < 0) {
		snprintf(msg, sizeof(msg), "buf cannot use negative length (%lld)", (long long)len);
		return gen_fail(g, n, msg);
	}
	for (int k = 0; k < 8 + cap; k += 8)
		emit_st(e, 8, reg, (int16_t)(off + k), 0);
	if (src->kind == N_STR) { /* the literal's bytes, at compile time */
		if (len < 0) /* a longer length: the literal, then zeros */
			len = (int64_t)src->len;
		if (len > cap)
			len = cap;
		for (int k = 0; k < len && k < (int)src->len; k++)
			emit_st(e, 1, reg, (int16_t)(off + 8 + k), (unsigned char)src->str[k]);
		emit_st(e, 8, reg, (int16_t)off, (int32_t)len);
		return 0;
	}
	if (gen_value_node(g, src, &t) < 0)
		return -EINVAL;
	if (len < 0 && !lenx && !t.arr)
		return gen_fail(g, n, "buf() of a pointer needs a length: buf(PTR, LEN)");
	if (len < 0 && !lenx)
		len = ct_size(&t);
	emit_mov(e, R3, R0);
	if (len >= 0) {
		emit_movi(e, R2, (int32_t)(len < cap ? len : cap));
	} else { /* a length known at run time: at most the capacity */
		int ok = emit_label(e);
		int slot = gen_stack(g, 8);

		emit_stx(e, 8, R10, (int16_t)slot, R3);
		if (gen_value_node(g, lenx, &t) < 0)
			return -EINVAL;
		emit_mov(e, R2, R0);
		emit_ldx(e, 8, R3, R10, (int16_t)slot);
		gen_unstack(g, 8);
		emit_jmpi(e, BPF_JLE, R2, cap, ok);
		emit_movi(e, R2, cap);
		emit_place(e, ok);
	}
	emit_stx(e, 8, reg, (int16_t)off, R2);
	emit_mov(e, R1, reg);
	emit_alui(e, BPF_ADD, R1, off + 8);
	bt_read_at(e, gen_loc(g)->user || t.user);
	return 0;
}

int bt_pton(const char *text, uint8_t *out)
{
	if (inet_pton(AF_INET, text, out) == 1)
		return 4;
	if (inet_pton(AF_INET6, text, out) == 1)
		return 16;
	return -EINVAL;
}

int bt_builtin_ident(struct gen *g, struct node *n, struct ctype *t)
{
	struct emit *e = gen_emit(g);
	const struct loc *l = gen_loc(g);
	const char *s = n->str;
	char msg[120];

	*t = ct_int(8, false);
	if (!strcmp(s, "numaid")) {
		emit_call(e, BPF_FUNC_get_numa_node_id);
		return 0;
	}
	if (!strncmp(s, "sarg", 4) && s[4] >= '0' && s[4] <= '9' && strlen(s) < 7) {
		/* the N-th argument on the stack: above the return address
		 * on x86_64, at the stack pointer on arm64 and arm */
		unsigned w = arch_reg_size(ARCH_HOST);
		int sp = arch_reg_offset(ARCH_HOST, "sp", NULL);
		int slot, k = atoi(s + 4) + (ARCH_HOST == ARCH_X86_64);

		if (l->mech != M_KPROBE && l->mech != M_KRETPROBE && l->mech != M_UPROBE && l->mech != M_URETPROBE) {
			snprintf(msg, sizeof(msg), "The %s builtin can only be used with 'kprobes' and 'uprobes' probes", s);
			return gen_fail(g, n, msg);
		}
		if (sp < 0)
			return gen_fail(g, n, "no stack pointer in this architecture's registers");
		slot = gen_stack(g, 8);
		emit_st(e, 8, R10, (int16_t)slot, 0);
		emit_ldx(e, w == 4 ? 4 : 8, R3, R6, (int16_t)sp);
		emit_alui(e, BPF_ADD, R3, (int32_t)(k * w));
		emit_mov(e, R1, R10);
		emit_alui(e, BPF_ADD, R1, slot);
		emit_movi(e, R2, (int32_t)w);
		bt_read_at(e, l->user);
		emit_ldx(e, w == 4 ? 4 : 8, R0, R10, (int16_t)slot);
		gen_unstack(g, 8);
		*t = ct_int(8, true);
		return 0;
	}
	return GEN_EXT_PASS;
}

/* The data symbol name of the ELF file at path (.symtab, then .dynsym, as
 * 0.17 asks bcc: objects only): its address and size; and the virtual
 * address of file offset off (the probe's).  0 or -ENOENT. */
static int elf_object(const char *path, const char *name, uint64_t off, uint64_t *addr, uint64_t *size, uint64_t *probe)
{
	const void *data;
	size_t len;
	struct elf_view ev;
	int r = -ENOENT;

	if (elf_map_file(path, &data, &len) < 0)
		return -ENOENT;
	if (elf_open(&ev, data, len) == 0) {
		for (size_t k = 0; k < ev.phnum; k++) {
			const Elf64_Phdr *ph = &ev.phdrs[k];

			if (ph->p_type == PT_LOAD && off >= ph->p_offset && off - ph->p_offset < ph->p_filesz)
				*probe = ph->p_vaddr + (off - ph->p_offset);
		}
		for (int pass = 0; pass < 2 && r; pass++)
			for (size_t k = 0; k < ev.shnum && r; k++) {
				const Elf64_Shdr *sh = elf_shdr(&ev, k);
				struct elf_symtab st;

				if (sh->sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) || elf_symtab(&ev, sh, &st) < 0)
					continue;
				for (size_t i = 1; i < st.count && r; i++)
					if (ELF64_ST_TYPE(st.syms[i].st_info) == STT_OBJECT && st.syms[i].st_value &&
					    !strcmp(elf_sym_name(&st, &st.syms[i]), name)) {
						*addr = st.syms[i].st_value;
						*size = st.syms[i].st_size;
						r = 0;
					}
			}
	}
	err_clear();
	elf_unmap_file(data, len);
	return r;
}

int bt_uaddr(struct gen *g, const struct bt_prog *p, int pi, struct node *n, const char *probe_name, struct ctype *t)
{
	struct emit *e = gen_emit(g);
	const struct loc *l = gen_loc(g);
	const char *sym = n->a ? n->a->str : NULL, *ap = p->p[pi].ap[0].text, *tgt;
	uint64_t addr = 0, size = 0, probe = 0;
	char msg[300];

	if (l->mech != M_UPROBE && l->mech != M_URETPROBE) {
		snprintf(msg, sizeof(msg), "uaddr can not be used with \"%.*s\" probes", (int)strcspn(probe_name, ":"),
			 probe_name);
		return gen_fail(g, n, msg);
	}
	if (!n->a || n->a->next || n->a->kind != N_STR)
		return gen_fail(g, n, "uaddr() expects a string literal");
	for (tgt = sym; *tgt && (isalnum((unsigned char)*tgt) || strchr("./_-", *tgt)); tgt++)
		;
	if (!*sym || *tgt) {
		snprintf(msg, sizeof(msg),
			 "uaddr() expects a string that is a valid symbol (^[a-zA-Z0-9./_-]+$) as input (\"%.100s\" provided)", sym);
		return gen_fail(g, n, msg);
	}
	if (elf_object(l->target, sym, l->off, &addr, &size, &probe) < 0) {
		tgt = strchr(ap, ':') + 1; /* the binary as the program names it */
		snprintf(msg, sizeof(msg), "Could not resolve symbol: %.*s:%.100s", (int)strcspn(tgt, ":"), tgt, sym);
		return gen_fail(g, n, msg);
	}
	emit_ld64(e, R0, addr);
	if (l->mech == M_UPROBE && probe) {
		/* a position-independent binary runs elsewhere than it was
		 * linked: the probe's address now (the context's instruction
		 * pointer) less its address in the file is how far */
		int ip = arch_reg_offset(ARCH_HOST, ARCH_HOST == ARCH_X86_64 ? "rip" : "pc", NULL);

		emit_ldx(e, arch_reg_size(ARCH_HOST) == 4 ? 4 : 8, R1, R6, (int16_t)ip);
		emit_ld64(e, R2, probe);
		emit_alu(e, BPF_SUB, R1, R2);
		emit_alu(e, BPF_ADD, R0, R1);
	}
	/* a pointer to an integer of the symbol's width (else 64 bits), in
	 * the traced process */
	*t = ct_int(size == 1 || size == 2 || size == 4 ? (int)size : 8, true);
	t->ptr = 1;
	t->user = true;
	return 0;
}

int bt_helper_action(struct bt_prog *p, const char *name, int pos, int end)
{
	struct bt_action *a;

	for (int i = 0; i < p->nacts; i++)
		if (p->acts[i].kind == BA_HELPER && p->acts[i].top == pos && p->acts[i].div == end && !strcmp(p->acts[i].fmt, name))
			return i;
	p->acts = xrealloc(p->acts, (size_t)(p->nacts + 1) * sizeof(*p->acts));
	a = &p->acts[p->nacts];
	memset(a, 0, sizeof(*a));
	a->kind = BA_HELPER;
	a->map = -1;
	a->fmt = xstrdup(name);
	a->top = pos;
	a->div = end;
	a->size = 16;
	return p->nacts++;
}
