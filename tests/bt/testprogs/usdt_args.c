/* One USDT probe per argument form and width, provider usdt_args, each
 * passing 0xf7f6f5f4f3f2f1f0 cast to its type (u64, 64, u32, 32, u16, 16,
 * u8, 8 in that order):
 *   const_*  an immediate operand ($N),
 *   reg_*    a register (x86_64: rax, eax, ax, al by name),
 *   addr_*   memory at base+offset,
 *   index_*  memory at base+offset+index*scale.
 * The operand forms need gcc at -O1 (the suite builds everything -O0).
 * Fires once and exits; any argument: exit 0. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O1")
#endif
#include <stddef.h>
#include <stdint.h>
#include <sys/sdt.h>

#define VALUE 0xf7f6f5f4f3f2f1f0ULL

union word {
	uint64_t u64; int64_t s64; uint32_t u32; int32_t s32;
	uint16_t u16; int16_t s16; uint8_t u8; int8_t s8;
};

#define CONST(t, name) DTRACE_PROBE1(usdt_args, const_##name, (t)VALUE)
#ifdef __x86_64__
#define REG(t, r, name)                                 \
	do {                                            \
		register t v_##name asm(#r) = (t)VALUE; \
		DTRACE_PROBE1(usdt_args, reg_##name, v_##name); \
	} while (0)
#else
volatile uint64_t one = 1;
#define REG(t, r, name)                                 \
	do {                                            \
		t v_##name = (t)(VALUE * one);          \
		DTRACE_PROBE1(usdt_args, reg_##name, v_##name); \
	} while (0)
#endif
#define ADDR(f, t, name)                                                  \
	do {                                                              \
		w[1].f = (t)VALUE;                                        \
		DTRACE_PROBE1(usdt_args, addr_##name, w[1].f);            \
	} while (0)
#define INDEX(f, name) DTRACE_PROBE1(usdt_args, index_##name, w[i].f)

int main(int argc, char **argv)
{
	volatile union word w[10];

	(void)argv;
	if (argc > 1)
		return 0;
	for (volatile size_t k = 0; k < 10; k++)
		w[k].u64 = VALUE;
	CONST(uint64_t, u64); CONST(int64_t, 64); CONST(uint32_t, u32); CONST(int32_t, 32);
	CONST(uint16_t, u16); CONST(int16_t, 16); CONST(uint8_t, u8); CONST(int8_t, 8);
	REG(uint64_t, rax, u64); REG(int64_t, rax, 64); REG(uint32_t, eax, u32); REG(int32_t, eax, 32);
	REG(uint16_t, ax, u16); REG(int16_t, ax, 16); REG(uint8_t, al, u8); REG(int8_t, al, 8);
	ADDR(u64, uint64_t, u64); ADDR(s64, int64_t, 64); ADDR(u32, uint32_t, u32); ADDR(s32, int32_t, 32);
	ADDR(u16, uint16_t, u16); ADDR(s16, int16_t, 16); ADDR(u8, uint8_t, u8); ADDR(s8, int8_t, 8);
	for (volatile int i = 7; i <= 7; i++) {
		INDEX(u64, u64); INDEX(s64, 64); INDEX(u32, u32); INDEX(s32, 32);
		INDEX(u16, u16); INDEX(s16, 16); INDEX(u8, u8); INDEX(s8, 8);
	}
	return 0;
}
