/* See usdt.h.  A note: namesz, descsz, type (3: NT_STAPSDT), the name
 * "stapsdt", then desc = pc, base, semaphore (8 bytes each) and the
 * provider, name and argument strings; name and desc padded to 4. */
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
		uint64_t base;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		name = p + 12;
		desc = name + ((namesz + 3) & ~3u);
		if (namesz > (size_t)(end - name) || descsz > (size_t)(end - desc) ||
		    (size_t)(end - desc) < ((descsz + 3) & ~3u))
			break;
		p = desc + ((descsz + 3) & ~3u);
		if (type != 3 || namesz != 8 || memcmp(name, "stapsdt", 8) || descsz < 24 + 3)
			continue;
		memcpy(&n.pc, desc, 8);
		memcpy(&base, desc + 8, 8);
		memcpy(&n.sema, desc + 16, 8);
		dend = (const char *)desc + descsz;
		n.provider = (const char *)desc + 24;
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
