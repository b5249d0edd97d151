/* slabratetop: the map records shared by the BPF and user sides. */
#ifndef COREBOX_SLABRATETOP_H
#define COREBOX_SLABRATETOP_H

#define SLAB_NAME_SIZE 32 /* libbpf-tools' CACHE_NAME_SIZE */
#define SLAB_MAX_ENTRIES 10240

struct slabrate_key {
	char name[SLAB_NAME_SIZE];
};

struct slabrate_val {
	__u64 count;
	__u64 size;
};

#endif
