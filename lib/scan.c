#include "scan.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static void store(void *p, int size, unsigned long long v)
{
	switch (size) {
	case -2: *(unsigned char *)p = (unsigned char)v; break;
	case -1: *(unsigned short *)p = (unsigned short)v; break;
	case 0: *(unsigned *)p = (unsigned)v; break;
	case 1: *(unsigned long *)p = (unsigned long)v; break;
	default: *(unsigned long long *)p = v; break;
	}
}

int str_scan(const char *s, const char *fmt, ...)
{
	const char *start = s;
	int n = 0, size;
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		bool skip = false;
		size_t width = 0;

		if (isspace((unsigned char)*fmt)) {
			while (isspace((unsigned char)*s))
				s++;
			continue;
		}
		if (*fmt != '%' || fmt[1] == '%') {
			if (*fmt == '%')
				fmt++;
			if (*s != *fmt) {
				if (!*s && !n)
					n = -1; /* input failure, as sscanf's EOF */
				goto out;
			}
			s++;
			continue;
		}
		fmt++;
		if (*fmt == '*') {
			skip = true;
			fmt++;
		}
		while (isdigit((unsigned char)*fmt))
			width = width * 10 + (size_t)(*fmt++ - '0');
		for (size = 0; *fmt == 'h' || *fmt == 'l' || *fmt == 'j' || *fmt == 'z'; fmt++)
			size = *fmt == 'h' ? size - 1 : *fmt == 'l' ? size + 1 : 2;
		if (*fmt == 'n') {
			if (!skip)
				store(va_arg(ap, void *), size, (unsigned long long)(s - start));
			continue;
		}
		if (*fmt != 'c')
			while (isspace((unsigned char)*s))
				s++;
		if (!*s) {
			if (!n)
				n = -1;
			goto out;
		}
		switch (*fmt) {
		case 'd':
		case 'u':
		case 'x': {
			const char *digits = s + (*s == '+' || *s == '-');
			char *end;
			unsigned long long v;
			int saved = errno;

			/* "0x" with no hex digit after it: musl's scanf fails
			 * there (glibc's reads the 0, strtoull too) */
			if (*fmt == 'x' && digits[0] == '0' && (digits[1] | 32) == 'x' &&
			    !isxdigit((unsigned char)digits[2]))
				goto out;
			v = strtoull(s, &end, *fmt == 'x' ? 16 : 10);
			errno = saved;
			if (end == s)
				goto out;
			s = end;
			if (!skip)
				store(va_arg(ap, void *), size, v);
			break;
		}
		case 's':
		case 'c': {
			char *d = skip ? NULL : va_arg(ap, char *);
			size_t i = 0, max = *fmt == 'c' ? (width ? width : 1) : width ? width : (size_t)-1;

			for (; i < max && *s && (*fmt == 'c' || !isspace((unsigned char)*s)); i++, s++)
				if (d)
					d[i] = *s;
			if (*fmt == 'c' && i < max)
				goto out;
			if (d && *fmt == 's')
				d[i] = 0;
			break;
		}
		default:
			goto out;
		}
		if (!skip)
			n++;
	}
out:
	va_end(ap);
	return n;
}
