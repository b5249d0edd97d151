# corebox: one static binary with its own BPF loader.
#
#   make            build ./corebox (static, musl, stripped)
#   make demo       install build deps (Debian, as root), build, run execsnoop on a live workload
#   make check      install deps, build, run every test (unit under ASan+UBSan, end-to-end, fuzz smoke)
#   make vmtest     boot other kernels (Debian 6.1, 6.12) under qemu, run the tools and every attach mechanism
#   make bench      measurements (size, start-up, RSS, map memory, overhead) vs libbpf-tools
#   make vmlinux.h  regenerate the trimmed kernel-types header with corebox's own BTF dumper

VERSION  := 0.2
CC       := musl-gcc
HOSTCC   := gcc
CLANG    := clang
LLVM_STRIP   := llvm-strip
LLVM_OBJCOPY := llvm-objcopy
B        := build

# Kernel UAPI headers: musl-gcc does not search /usr/include, so give it a
# directory holding only the kernel's linux/, asm/ and asm-generic/.
KINC     := $(B)/kinc
UAPI_DIR := /usr/include
ASM_DIR  := $(firstword $(wildcard /usr/include/x86_64-linux-gnu/asm /usr/include/$(shell $(HOSTCC) -dumpmachine 2>/dev/null)/asm /usr/include/asm))

WARN     := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS   ?= -Os
CFLAGS   += -std=gnu11 $(WARN) -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
	    -D_GNU_SOURCE -I. -Ilib -isystem $(KINC)
LDFLAGS  += -static -Wl,--gc-sections -s

# The BPF side: pinned CPU v3 (ALU32 + JMP32, kernel 5.1+; clang 14 keeps
# unused-result atomics as plain xadd, so no 5.12 atomic-fetch requirement).
BPF_CFLAGS := -target bpf -mcpu=v3 -O2 -g -D__TARGET_ARCH_x86 -Itools/include -Wall -Wno-unused-function \
	      -fno-stack-protector

# tools/SUBSYSTEM/NAME.bpf.c + NAME.c (+ NAME.h shared by both sides);
# tools/common, tools/stack, tools/cmd: the shared user side and commands.
LIB_SRCS  := $(wildcard lib/*.c elf/*.c btf/*.c bpf/*.c loader/*.c)
BPF_SRCS  := $(wildcard tools/*/*.bpf.c)
BPF_TOOLS := $(notdir $(BPF_SRCS:.bpf.c=))
TOOL_SRCS := tools/main.c $(filter-out $(BPF_SRCS),$(wildcard tools/*/*.c))
HEADERS   := $(wildcard lib/*.h elf/*.h btf/*.h bpf/*.h loader/*.h tools/*.h tools/*/*.h)
BPF_OBJS  := $(patsubst %,$(B)/bpf/%.bpf.o,$(BPF_TOOLS))
OBJS      := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRCS) $(TOOL_SRCS)) $(B)/obj/bpfobjs.o

# The version: `git describe` when built from a git checkout (tags, else
# VERSION-gHASH), else VERSION.  build/version.h is rewritten only when it
# changes, so only tools/common/version.c rebuilds.
GIT_DESCRIBE := $(shell git describe --tags --dirty 2>/dev/null || \
		  { h=$$(git rev-parse --short HEAD 2>/dev/null) && echo "$(VERSION)-g$$h$$(git diff --quiet HEAD 2>/dev/null || echo -dirty)"; })
BUILD_VERSION := $(or $(GIT_DESCRIBE),$(VERSION))

all: corebox

corebox: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS) $(LDFLAGS)
	@echo "corebox: $$(stat -c %s $@) bytes"

$(B)/version.h: FORCE
	@mkdir -p $(B)
	@echo '#define COREBOX_VERSION "$(BUILD_VERSION)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(B)/obj/tools/common/version.o: $(B)/version.h
$(B)/obj/tools/common/version.o: CFLAGS += -I$(B)

$(KINC)/.stamp:
	@mkdir -p $(KINC)
	@ln -sfn $(UAPI_DIR)/linux $(KINC)/linux
	@ln -sfn $(UAPI_DIR)/asm-generic $(KINC)/asm-generic
	@ln -sfn $(ASM_DIR) $(KINC)/asm
	@touch $@

$(B)/obj/%.o: %.c $(KINC)/.stamp $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# BPF objects: compile, drop DWARF and the relocations of .BTF/.BTF.ext
# (the loader never reads them), keep .BTF and .BTF.ext.  The source is
# found in whichever tools/ subsystem holds it, with the headers beside it
# (its NAME.h, the subsystem's shared *.bpf.h).
.SECONDEXPANSION:
bpf_src = $(filter %/$(1).bpf.c,$(BPF_SRCS))
bpf_hdr = $(wildcard $(dir $(call bpf_src,$(1)))*.h)
$(B)/bpf/%.bpf.o: $$(call bpf_src,$$*) $$(call bpf_hdr,$$*) $(wildcard tools/include/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) -c -o $@.tmp $(call bpf_src,$*)
	$(LLVM_STRIP) -g $@.tmp
	$(LLVM_OBJCOPY) --remove-section=.rel.BTF --remove-section=.rel.BTF.ext $@.tmp
	mv $@.tmp $@

# Keep the plain objects too (tests and `corebox btf min` read them).
.SECONDARY: $(BPF_OBJS)

# Objects are embedded gzip'd (BTF compresses ~4x; the loader inflates
# them at open, in well under a millisecond).
$(B)/bpf/%.bpf.o.gz: $(B)/bpf/%.bpf.o
	gzip -9 -n -c $< > $@

# Embed every object with .incbin: symbols NAME_bpf_obj / NAME_bpf_obj_end,
# and a table of them all, corebox_bpf_objs[] = { name, start, end }...,
# ending with zeros (for `corebox btf min`).
$(B)/bpfobjs.S: $(BPF_OBJS:.o=.o.gz) Makefile
	@mkdir -p $(B)
	@{ echo '.section .rodata.bpfobjs,"a"'; \
	   for t in $(BPF_TOOLS); do \
	     echo ".balign 8"; echo ".global $${t}_bpf_obj"; echo "$${t}_bpf_obj:"; \
	     echo ".incbin \"$(B)/bpf/$$t.bpf.o.gz\""; \
	     echo ".global $${t}_bpf_obj_end"; echo "$${t}_bpf_obj_end:"; \
	   done; \
	   for t in $(BPF_TOOLS); do echo ".Lname_$$t: .asciz \"$$t\""; done; \
	   echo '.section .data.rel.ro.bpfobjs,"aw"'; echo ".balign 8"; \
	   echo ".global corebox_bpf_objs"; echo "corebox_bpf_objs:"; \
	   for t in $(BPF_TOOLS); do echo ".quad .Lname_$$t, $${t}_bpf_obj, $${t}_bpf_obj_end"; done; \
	   echo ".quad 0, 0, 0"; \
	   echo '.section .note.GNU-stack,"",@progbits'; } > $@

$(B)/obj/bpfobjs.o: $(B)/bpfobjs.S $(BPF_OBJS:.o=.o.gz)
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

# Regenerate the committed trimmed kernel-types header (see README).
vmlinux.h: corebox
	./corebox btf dump --types "$$(tr '\n' ',' < tools/include/vmlinux.types)" > tools/include/vmlinux.h.new
	mv tools/include/vmlinux.h.new tools/include/vmlinux.h

deps:
	@sh tests/install-deps.sh

demo: deps
	$(MAKE) corebox
	sh tests/demo.sh

check: deps
	$(MAKE) corebox
	$(MAKE) -C . test

test:
	sh tests/run.sh

bench: corebox
	sh tests/bench.sh

# Boot Debian's 6.1 and 6.12 kernels under qemu with corebox in a bare
# initramfs; tests/vm/kernels.txt lists them (see README).
vmtest: corebox
	sh tests/vm/run.sh

clean:
	rm -rf $(B) corebox

FORCE:

.PHONY: all deps demo check test bench vmtest clean vmlinux.h FORCE
