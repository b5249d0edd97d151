/* CRC-32 (IEEE 802.3, the one of gzip, xz and .gnu_debuglink). */
#ifndef COREBOX_CRC32_H
#define COREBOX_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* crc: 0 to start, then the previous result to continue. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
