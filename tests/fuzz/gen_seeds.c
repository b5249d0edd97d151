/* Write the in-memory test images (tests/fuzz/elf_image.h) as files: the
 * ELF fuzzer's generated seeds.  Usage: gen_seeds DIR */
#include <stdio.h>

#include "tests/fuzz/elf_image.h"

int main(int argc, char **argv)
{
	static const struct { unsigned type, machine; const char *name; } kinds[] = {
		{ ET_DYN, EM_X86_64, "image-dyn.elf" },
		{ ET_EXEC, EM_X86_64, "image-exec.elf" },
		{ ET_REL, EM_BPF, "image-rel-bpf.elf" },
	};
	char path[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct elf_image im;
		FILE *f;

		if (elf_image_build(&im, kinds[i].type, kinds[i].machine) < 0)
			return 1;
		snprintf(path, sizeof(path), "%s/%s", argv[1], kinds[i].name);
		f = fopen(path, "wb");
		if (!f || fwrite(im.buf, 1, im.size, f) != im.size || fclose(f) != 0) {
			perror(path);
			return 1;
		}
		elf_image_free(&im);
	}
	return 0;
}
