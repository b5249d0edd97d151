/* See usdt.h.  A note: namesz, descsz, type (3: NT_STAPSDT), the name
 * "stapsdt", then desc = pc, base, semaphore (8 bytes each, 4 in a 32-bit
 * file) and the provider, name and argument strings; name and desc padded
 * to 4. */
#include "usdt.h"

#include <errno.h>
#include <string.h>

#include "elf/elf.h"
#include "lib/err.h"

int usdt_notes(const struct elf_view *ev, const char *path, usdt_note_fn fn, void *ctx)
{
	const Elf64_Shdr *notes = elf_find_sec(ev, ".note.stapsdt");
	const Elf64_Shdr *base_sh = elf_find_sec(ev, ".stapsdt.base");
	const uint8_t *p, *end;
	const void *nd;
	size_t nsz;
	/* 32-bit ARM or i386: elf_map_file widened the headers, not the notes */
	unsigned as = ev->ehdr->e_machine == EM_ARM || ev->ehdr->e_machine == EM_386 ? 4 : 8;
	int err;

	if (!notes)
		return err_set(ENOENT, "%s has no USDT probes (no .note.stapsdt)", path);
	if ((err = elf_sec_data(ev, notes, &nd, &nsz)) < 0 || !nd)
		return err;
	p = nd;
	end = p + nsz;
	while (p + 12 <= end) {
		uint32_t namesz, descsz, type;
		const uint8_t *name, *desc;
		const char *dend;
		struct usdt_note n;
		uint64_t base = 0;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		name = p + 12;
		desc = name + ((namesz + 3) & ~3u);
		if (namesz > (size_t)(end - name) || descsz > (size_t)(end - desc) ||
		    (size_t)(end - desc) < ((descsz + 3) & ~3u))
			break;
		p = desc + ((descsz + 3) & ~3u);
		if (type != 3 || namesz != 8 || memcmp(name, "stapsdt", 8) || descsz < 3 * as + 3)
			continue;
		n.pc = n.sema = 0;
		memcpy(&n.pc, desc, as);
		memcpy(&base, desc + as, as);
		memcpy(&n.sema, desc + 2 * as, as);
		dend = (const char *)desc + descsz;
		n.provider = (const char *)desc + 3 * as;
		if (!memchr(n.provider, 0, (size_t)(dend - n.provider)))
			continue;
		n.name = n.provider + strlen(n.provider) + 1;
		if (n.name >= dend || !memchr(n.name, 0, (size_t)(dend - n.name)))
			continue;
		n.args = n.name + strlen(n.name) + 1;
		if (n.args >= dend || !memchr(n.args, 0, (size_t)(dend - n.args)))
			n.args = "";
		if (base_sh && base)
			n.pc += base_sh->sh_addr - base;
		if ((err = fn(ctx, &n)) != 0)
			return err;
	}
	return 0;
}

int usdt_uprobe_ok(const struct elf_view *ev, const char *path, const struct usdt_note *n, uint64_t off)
{
	const char *fn = NULL;
	const Elf64_Sym *sym;
	unsigned half = 0;

	if (ev->ehdr->e_machine != EM_ARM)
		return 0;
	sym = elf_func_at(ev, n->pc, &fn);
	if (off <= ev->size && ev->size - off >= 2)
		half = ev->data[off] | (unsigned)ev->data[off + 1] << 8;
	if (!(sym && elf_uprobe_sym_ok(ev, sym, fn) < 0) && !(n->pc & 3) && half != 0xbf00 && half != 0x46c0)
		return 0;
	return err_set(ENOTSUP, "USDT probe %s:%s in %s is Thumb code%s%s%s, and 32-bit ARM uprobes take ARM "
		       "instructions only: probe a build with -marm", n->provider, n->name, path, fn ? " (" : "",
		       fn ? fn : "", fn ? "())" : "");
}
