/* Replay fuzz inputs without libFuzzer: each file named on the command
 * line is handed once to LLVMFuzzerTestOneInput in an exact-size heap
 * copy.  For builds that have no libFuzzer runtime -- the arm64 build run
 * under qemu-user by tests/cross/run.sh.  Prints the number of inputs;
 * exits 1 when a file cannot be read (a crash ends the process). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL, *copy;
		size_t len = 0, cap = 0, r;

		if (!f) {
			fprintf(stderr, "replay: cannot open %s\n", argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					return 1;
			}
			r = fread(buf + len, 1, cap - len, f);
			len += r;
		} while (r > 0);
		fclose(f);
		copy = malloc(len ? len : 1);
		if (!copy)
			return 1;
		memcpy(copy, buf, len);
		free(buf);
		fprintf(stderr, "Running: %s\n", argv[i]);
		LLVMFuzzerTestOneInput(copy, len);
		free(copy);
		n++;
	}
	printf("%d inputs replayed\n", n);
	return 0;
}
