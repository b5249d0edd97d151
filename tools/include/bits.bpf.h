/* Bucket arithmetic for the BPF side's log2 histograms: slot i counts the
 * values v with floor(log2 v) == i (0 and 1 both in slot 0), as
 * libbpf-tools' histograms do. */
#ifndef COREBOX_BITS_BPF_H
#define COREBOX_BITS_BPF_H

static __always_inline __u32 log2_u32(__u32 v)
{
	__u32 r, shift;

	r = (v > 0xFFFF) << 4;
	v >>= r;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_u32(hi) + 32 : log2_u32((__u32)v);
}

/* The slot of v in a histogram of n slots (the last one takes the rest).
 * barrier_var keeps a 64-bit bound: 6.1's verifier loses it after the
 * 32-bit ORs of log2_u32. */
static __always_inline __u64 log2_slot(__u64 v, __u64 n)
{
	__u64 slot = log2_u64(v);

	barrier_var(slot);
	if (slot >= n)
		slot = n - 1;
	return slot;
}

#endif
