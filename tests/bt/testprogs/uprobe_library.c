/* One fread() of an int from /dev/zero, for uprobe:libc:fread. */
#include <stdio.h>
int main(void)
{
	int v;
	FILE *f = fopen("/dev/zero", "r");
	if (!f)
		return 1;
	size_t n = fread(&v, sizeof(v), 1, f);
	fclose(f);
	return n != 1;
}
