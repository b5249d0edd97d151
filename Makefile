# corebox: one static binary with its own BPF loader.
#
#   make            build ./corebox (static, musl, stripped)
#   make ARCH=arm64 cross-build ./corebox-arm64 (static aarch64, musl; objects in build/arm64);
#                   `make corebox-arm64` is the same
#   make ARCH=arm   cross-build ./corebox-arm (static 32-bit armv7 hard-float, Thumb-2, musl;
#                   objects in build/arm); `make corebox-arm` is the same
#   make demo       install build deps (Debian, as root), build, run execsnoop on a live workload
#   make check      install deps, build, run every test (unit under ASan+UBSan, end-to-end, a part of
#                   them again against `make corebox-asan`, fuzz smoke; with the cross toolchain: the
#                   arm64 unit tests and fuzz corpora under qemu-user)
#   make vmtest     boot other kernels (Debian 6.1, 6.12, arm64 6.1) under qemu, run the tools and every
#                   attach mechanism
#   make bench      measurements (size, start-up, RSS, map memory, overhead) vs libbpf-tools
#   make vmlinux.h  regenerate the trimmed kernel-types header with corebox's own BTF dumper
#                   from the pinned tools/include/vmlinux.btf (make vmlinux.btf refreshes it)
#   make readme     regenerate README.md's tool table from the applet lines of the tools' sources

VERSION  := 0.2

# ---- target architecture ---------------------------------------------------
# ARCH: x86_64, arm64 or arm (aliases: amd64, x86, aarch64, armhf, armv7,
# armv7l); default the host's.  A native build makes ./corebox in build/;
# a cross build makes ./corebox-ARCH in build/ARCH/ with Debian's musl
# wrapper (musl-dev:arm64 + gcc-aarch64-linux-gnu: aarch64-linux-musl-gcc;
# musl-dev:armhf + gcc-arm-linux-gnueabihf: arm-linux-musleabihf-gcc,
# armv7-a, hard float, Thumb-2 by default) and the target's UAPI asm/
# headers (linux-libc-dev:ARCH, or linux-libc-dev-ARCH-cross).  BPF
# objects get -D__TARGET_ARCH_{x86,arm64,arm} (tools/include/arch.bpf.h).
arch_norm = $(strip $(patsubst amd64,x86_64,$(patsubst x86,x86_64,$(patsubst aarch64,arm64,$(patsubst \
	    armhf,arm,$(patsubst armv7l,arm,$(patsubst armv7,arm,$(1))))))))
HOST_ARCH := $(call arch_norm,$(shell uname -m))
ARCH     ?= $(HOST_ARCH)
override ARCH := $(call arch_norm,$(ARCH))
TRIPLET_x86_64 := x86_64-linux-gnu
TRIPLET_arm64  := aarch64-linux-gnu
TRIPLET_arm    := arm-linux-gnueabihf
BPF_ARCH_x86_64 := x86
BPF_ARCH_arm64  := arm64
BPF_ARCH_arm    := arm
# the musl wrapper of musl-dev:TARGET (Debian names armhf's musleabihf)
MUSL_CC_x86_64 := x86_64-linux-musl-gcc
MUSL_CC_arm64  := aarch64-linux-musl-gcc
MUSL_CC_arm    := arm-linux-musleabihf-gcc
TRIPLET  := $(TRIPLET_$(ARCH))
BPF_ARCH := $(BPF_ARCH_$(ARCH))
ifeq ($(TRIPLET),)
$(error ARCH=$(ARCH): corebox builds for x86_64, arm64 and arm (armv7 hard-float))
endif
ifeq ($(ARCH),$(HOST_ARCH))
CC       := musl-gcc
B        := build
COREBOX  := corebox
else
CC       := $(MUSL_CC_$(ARCH))
B        := build/$(ARCH)
COREBOX  := corebox-$(ARCH)
endif
HOSTCC   := gcc
CLANG    := clang
LLVM_STRIP   := llvm-strip
LLVM_OBJCOPY := llvm-objcopy

# Kernel UAPI headers: musl-gcc does not search /usr/include, so give it a
# directory holding only the kernel's linux/, asm/ and asm-generic/ (asm/
# of the target architecture; the BPF side takes __NR_* from it too).
KINC     := $(B)/kinc
UAPI_DIR := /usr/include
ASM_DIR  := $(firstword $(wildcard /usr/include/$(TRIPLET)/asm /usr/$(TRIPLET)/include/asm) \
	      $(if $(filter $(ARCH),$(HOST_ARCH)),$(wildcard /usr/include/asm)))

WARN     := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS   ?= -Os
# -fno-pie: Debian's gcc compiles position-independent code by default,
# but corebox links static at a fixed address (-static: ET_EXEC), so PIE
# code only costs: GOT loads for addresses on arm64, 7-byte RIP-relative
# LEAs where a 5-byte MOV of the address does on x86_64 (10.7 KB arm64,
# 14.7 KB x86_64).
# -flto: the link optimizes the whole program at once (inlining and dead
# code across files: 16 KB arm64, 10 KB x86_64); -ffat-lto-objects keeps
# machine code in each object too, for make bench's per-applet sizes and
# for links without -flto.
CFLAGS   += -std=gnu11 $(WARN) -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables \
	    -fno-pie -flto=auto -ffat-lto-objects -D_GNU_SOURCE -I. -Ilib -isystem $(KINC)
# -z norelro: a static non-PIE musl binary has no dynamic linker to make
# RELRO read-only, so the segment only costs its alignment padding (about
# 60 KB on arm64, whose linker aligns it to 64 KiB pages).
# -z noseparate-code: code and read-only data in one R+X segment, as the
# arm64 and arm linkers lay them out by default; x86_64's default gives
# the headers, the code and the read-only data a segment each, each
# padded to a page in the file (7 KB).  -z common-page-size=8: the data
# segment starts in the file right after the code's last byte (its
# address stays congruent to its offset modulo the page size, as the
# kernel maps it) instead of at the next 4 KiB boundary (up to 4 KB).
# (-Wno-maybe-uninitialized at the link only: the whole-program inlining of
# -flto makes gcc guess at paths the per-file compile, which still warns,
# rules out)
LDFLAGS  += -static -no-pie -Wno-maybe-uninitialized -Wl,--gc-sections -s -Wl,-z,norelro -Wl,-z,noseparate-code -Wl,-z,common-page-size=8 \
	    -Wl,--sort-section=alignment

# Header dependencies come from the compiler: each object's .d file lists
# the headers it included (-MP: a deleted header is no error).
DEPFLAGS := -MMD -MP

# The BPF side: pinned CPU v3 (ALU32 + JMP32, kernel 5.1+; clang 14 keeps
# unused-result atomics as plain xadd, so no 5.12 atomic-fetch requirement).
# BPF_BASE alone serves BPF test objects that include no corebox header.
BPF_BASE   := -target bpf -mcpu=v3 -O2 -g
BPF_CFLAGS := $(BPF_BASE) -D__TARGET_ARCH_$(BPF_ARCH) -Itools/include -isystem $(KINC) -Wall -Wno-unused-function \
	      -fno-stack-protector
# (arm: tools/include/corebox.bpf.h declares these two with 4-byte signed fields)
BPF_CFLAGS += $(if $(filter arm,$(ARCH)),-Dtrace_event_raw_sys_enter=trace_event_raw_sys_enter___vmlinux_h \
	      -Dtrace_event_raw_sys_exit=trace_event_raw_sys_exit___vmlinux_h)

# tools/SUBSYSTEM/NAME.bpf.c + NAME.c (+ NAME.h shared by both sides);
# tools/common, tools/stack, tools/cmd: the shared user side and commands.
LIB_SRCS  := $(wildcard lib/*.c elf/*.c btf/*.c bpf/*.c loader/*.c)
BPF_SRCS  := $(wildcard tools/*/*.bpf.c)
BPF_TOOLS := $(notdir $(BPF_SRCS:.bpf.c=))
TOOL_SRCS := tools/main.c $(filter-out $(BPF_SRCS),$(wildcard tools/*/*.c))
BPF_OBJS  := $(patsubst %,$(B)/bpf/%.bpf.o,$(BPF_TOOLS))
SLIM_OBJS := $(patsubst %,$(B)/bpf/%.slim.o,$(BPF_TOOLS))
OBJS      := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRCS) $(TOOL_SRCS)) $(B)/obj/bpfobjs.o

# The version: `git describe` when built from a git checkout (tags, else
# VERSION-gHASH), else VERSION.  build/version.h is rewritten only when it
# changes, so only tools/common/version.c rebuilds.  (A temporary file of
# its own per make: .ci/run runs make vmtest's builds beside make check's,
# and both visit this rule.)
GIT_DESCRIBE := $(shell git describe --tags --dirty 2>/dev/null || \
		  { h=$$(git rev-parse --short HEAD 2>/dev/null) && echo "$(VERSION)-g$$h$$(git diff --quiet HEAD 2>/dev/null || echo -dirty)"; })
BUILD_VERSION := $(or $(GIT_DESCRIBE),$(VERSION))

all: $(COREBOX)

$(COREBOX): $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS) $(LDFLAGS)
	@echo "$@: $$(stat -c %s $@) bytes"

$(B)/version.h: FORCE
	@mkdir -p $(B)
	@echo '#define COREBOX_VERSION "$(BUILD_VERSION)"' > $@.$$$$.tmp; \
	 cmp -s $@.$$$$.tmp $@ && rm -f $@.$$$$.tmp || mv $@.$$$$.tmp $@

$(B)/obj/tools/common/version.o: $(B)/version.h
$(B)/obj/tools/common/version.o: CFLAGS += -I$(B)

# The applet table tools/main.c includes, generated from the applet lines
# at the top of each tool's source (tools/applets.sh).  Replaced only when
# it changes: editing a tool rebuilds main.o only if its applet lines did.
$(B)/applets.h: $(filter-out tools/main.c,$(TOOL_SRCS)) tools/applets.sh
	@mkdir -p $(B)
	@sh tools/applets.sh header > $@.$$$$.tmp; \
	 cmp -s $@.$$$$.tmp $@ && rm -f $@.$$$$.tmp || mv $@.$$$$.tmp $@

$(B)/obj/tools/main.o: $(B)/applets.h
$(B)/obj/tools/main.o: CFLAGS += -I$(B)

$(KINC)/.stamp:
	@test -n "$(ASM_DIR)" || { echo "no asm/ UAPI headers for $(ARCH) ($(TRIPLET)): run make deps (as root)" >&2; exit 1; }
	@mkdir -p $(KINC)
	@ln -sfn $(UAPI_DIR)/linux $(KINC)/linux
	@ln -sfn $(UAPI_DIR)/asm-generic $(KINC)/asm-generic
	@ln -sfn $(ASM_DIR) $(KINC)/asm
	@touch $@

# (Makefile: the flags are here; a build from before .d files rebuilds.)
$(B)/obj/%.o: %.c Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# BPF objects: compile, drop DWARF, the relocations of .BTF/.BTF.ext and
# .llvm_addrsig (the loader never reads them), keep .BTF and .BTF.ext.  The source is
# found in whichever tools/ subsystem holds it; the headers it includes
# are in its .d file.
.SECONDEXPANSION:
bpf_src = $(filter %/$(1).bpf.c,$(BPF_SRCS))
$(B)/bpf/%.bpf.o: $$(call bpf_src,$$*) Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -MF $(@:.o=.d) -MT $@ -c -o $@.tmp $(call bpf_src,$*)
	$(LLVM_STRIP) -g $@.tmp
	$(LLVM_OBJCOPY) --remove-section=.rel.BTF --remove-section=.rel.BTF.ext --remove-section=.llvm_addrsig $@.tmp
	mv $@.tmp $@

-include $(OBJS:.o=.d) $(BPF_OBJS:.o=.d)

# Keep the plain objects too (tests and `corebox btf min` read them).
.SECONDARY: $(BPF_OBJS) $(SLIM_OBJS)

# Objects are embedded slimmed and packed.  tools/bpfslim.py drops what no
# loader step reads (.BTF.ext line_info and its source-line strings,
# clang's branch-label symbols): about a third of each object.
# BPF_LINE_INFO=1 keeps the line info (source lines in verifier logs;
# `make clean` first).  tools/bpfpack.py then packs each object (raw
# LZMA2, by liblzma through python3's ctypes) against one preset
# dictionary of what they share (their BTF repeats the same kernel structs
# and names), embedded once, plain: a tool unpacks only its own object.  build/bpf/sizes.txt: each packed size (make bench).

$(B)/bpf/%.slim.o: $(B)/bpf/%.bpf.o tools/bpfslim.py
	python3 tools/bpfslim.py $< $@.tmp $(if $(BPF_LINE_INFO),--keep-lines)
	mv $@.tmp $@

# (one step for all: the dictionary depends on every object)
$(B)/bpf/packed.stamp: $(SLIM_OBJS) tools/bpfpack.py
	python3 tools/bpfpack.py $(B)/bpf $(SLIM_OBJS)
	@touch $@

# (pointers: 4 bytes on armv7)
PTR_DIRECTIVE := $(if $(filter arm,$(ARCH)),.long,.quad)

# Embed every object with .incbin: symbols NAME_bpf_obj / NAME_bpf_obj_end,
# the dictionary corebox_bpf_dict / corebox_bpf_dict_end
# (tools/common/bpfobjs.c), and a table of the objects,
# corebox_bpf_objs[] = { name, start, end }..., ending with zeros (for
# `corebox btf min`).
$(B)/bpfobjs.S: $(B)/bpf/packed.stamp Makefile
	@mkdir -p $(B)
	@{ echo '.section .rodata.bpfobjs,"a"'; \
	   echo ".global corebox_bpf_dict"; echo "corebox_bpf_dict:"; \
	   echo ".incbin \"$(B)/bpf/corebox-dict.bin\""; \
	   echo ".global corebox_bpf_dict_end"; echo "corebox_bpf_dict_end:"; \
	   for t in $(BPF_TOOLS); do \
	     echo ".balign 8"; echo ".global $${t}_bpf_obj"; echo "$${t}_bpf_obj:"; \
	     echo ".incbin \"$(B)/bpf/$$t.cbz\""; \
	     echo ".global $${t}_bpf_obj_end"; echo "$${t}_bpf_obj_end:"; \
	   done; \
	   for t in $(BPF_TOOLS); do echo ".Lname_$$t: .asciz \"$$t\""; done; \
	   echo '.section .data.rel.ro.bpfobjs,"aw"'; echo ".balign 8"; \
	   echo ".global corebox_bpf_objs"; echo "corebox_bpf_objs:"; \
	   for t in $(BPF_TOOLS); do echo "$(PTR_DIRECTIVE) .Lname_$$t, $${t}_bpf_obj, $${t}_bpf_obj_end"; done; \
	   echo "$(PTR_DIRECTIVE) 0, 0, 0"; \
	   echo '.section .note.GNU-stack,"",%progbits'; } > $@

$(B)/obj/bpfobjs.o: $(B)/bpfobjs.S $(B)/bpf/packed.stamp
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

# The committed trimmed kernel-types header (see README), dumped by
# corebox's own BTF dumper from a pinned input: tools/include/vmlinux.btf,
# the types vmlinux.types lists (whole, with what their C definitions
# need; ~90 KB) written by corebox's BTF writer from a kernel's BTF.  So
# `make vmlinux.h` gives the same header on any build host (Debian's 6.1
# and 6.12 lack the 6.15+ readahead types).  After adding a type:
# `make vmlinux.btf` on a kernel that has every listed type (it fails on a
# missing one; KERNEL_BTF=FILE for another kernel's), then `make vmlinux.h`.
# vmlinux.types: one name a line, '#' comments.
KERNEL_BTF    ?= /sys/kernel/btf/vmlinux
VMLINUX_TYPES  = $(shell sed -e 's/[[:space:]]*\#.*//' -e '/^[[:space:]]*$$/d' tools/include/vmlinux.types | paste -sd, -)

# (vmlinux.btf.src: the kernel it came from, quoted in vmlinux.h)
vmlinux.btf: corebox
	./corebox btf min $(KERNEL_BTF) -o tools/include/vmlinux.btf.new --types "$(VMLINUX_TYPES)"
	mv tools/include/vmlinux.btf.new tools/include/vmlinux.btf
	echo "$(KERNEL_BTF)$(if $(filter /sys/kernel/btf/vmlinux,$(KERNEL_BTF)), of Linux $$(uname -r) $$(uname -m))" \
		> tools/include/vmlinux.btf.src

vmlinux.h: corebox
	{ echo '/* Generated by `make vmlinux.h`; do not edit.  The types listed in'; \
	  echo ' * tools/include/vmlinux.types and what they need, dumped by corebox'"'"'s BTF'; \
	  echo ' * dumper from tools/include/vmlinux.btf (a pinned input written by'; \
	  echo ' * `make vmlinux.btf` with corebox btf min --types from'; \
	  echo " * $$(cat tools/include/vmlinux.btf.src)):"; \
	  echo ' *   corebox btf dump tools/include/vmlinux.btf --types "$$(vmlinux.types)"'; \
	  echo ' * CO-RE relocates every access against the running kernel'"'"'s BTF. */'; \
	  ./corebox btf dump tools/include/vmlinux.btf --types "$(VMLINUX_TYPES)"; } > tools/include/vmlinux.h.new
	mv tools/include/vmlinux.h.new tools/include/vmlinux.h

# README.md's tool table, between its applets:begin/end marker lines
# (tests/readme.sh fails when it differs from the sources).
readme:
	sh tools/applets.sh readme README.md

deps:
	@sh tests/install-deps.sh

demo: deps
	$(MAKE) corebox
	sh tests/demo.sh

# (the build on every core: CI runs a plain `make check`)
check: deps
	$(MAKE) -j$$(nproc) corebox
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
	rm -rf $(B) $(COREBOX)

# ---- test builds --------------------------------------------------------------
# The test scripts build through these rules and read flags and source
# lists with `make -s print-VAR`: nothing is restated in them.  Sources
# are wildcards, so a new file in a layer is picked up without edits.
#   make unit-tests    tests/unit/test_* in $(UNIT_OUT) (tests/unit/build.sh):
#                      the host compiler under ASan+UBSan; with ARCH=arm64
#                      the cross compiler, static, UBSan trapping (musl has
#                      no sanitizer runtime) for qemu-user (tests/cross/run.sh)
#   make fuzz-harnesses   tests/fuzz/fuzz_* in $(FUZZ_OUT) for libFuzzer
#   make corebox-asan  the whole corebox under ASan+UBSan in $(ASAN_OUT)
#                      (tests/asan.sh runs e2e scripts against it)
#   make loader-test-objs / run-test-objs   the BPF objects of tests/loader
#                      (the tools' headers and flags) and tests/run
#                      (libbpf-style C: BPF_BASE alone)
#   make vm-guest      tests/vm's /init, mechtest and mech.bpf.o for ARCH

# The layers the unit tests and fuzz harnesses link: the libraries and the
# shared user side (not the applets' own files).
TEST_LIB_SRCS := $(LIB_SRCS) $(wildcard tools/common/*.c tools/stack/*.c tools/trace/*.c tools/probe/*.c)
UNIT_SRCS     := $(wildcard tests/unit/test_*.c)
TEST_CFLAGS   := -g -O1 -std=gnu11 -D_GNU_SOURCE -I. -Ilib -isystem $(KINC) -Wall -Wno-unused-parameter
SAN_CFLAGS    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ifeq ($(ARCH),$(HOST_ARCH))
UNIT_CC       := $(HOSTCC)
UNIT_CFLAGS   := $(TEST_CFLAGS) $(SAN_CFLAGS) -DCOREBOX_VERSION='"unit"'
else
UNIT_CC       := $(CC)
UNIT_CFLAGS   := $(TEST_CFLAGS) -fsanitize=undefined -fsanitize-undefined-trap-on-error -static -DCOREBOX_VERSION='"unit"'
endif
UNIT_OUT      ?= $(B)/test/unit
unit_obj       = $(patsubst %.c,$(UNIT_OUT)/obj/%.o,$(1))
UNIT_OBJS     := $(call unit_obj,$(TEST_LIB_SRCS))
UNIT_BINS     := $(patsubst tests/unit/%.c,$(UNIT_OUT)/%,$(UNIT_SRCS))

unit-tests: $(UNIT_BINS)
unit-objs: $(UNIT_OBJS)

$(UNIT_OUT)/obj/%.o: %.c Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(UNIT_OUT)/test_%: tests/unit/test_%.c $(UNIT_OBJS)
	$(UNIT_CC) $(UNIT_CFLAGS) $(DEPFLAGS) -o $@ $< $(UNIT_OBJS)

# the fuzz harnesses' inputs replayed without libFuzzer (tests/fuzz/replay.c)
$(UNIT_OUT)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(UNIT_OBJS)
	$(UNIT_CC) $(UNIT_CFLAGS) $(DEPFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay.c $(UNIT_OBJS)

FUZZ_CFLAGS   := $(TEST_CFLAGS) $(SAN_CFLAGS) -DCOREBOX_VERSION='"fuzz"'
FUZZ_OUT      ?= build/test/fuzz
FUZZ_OBJS     := $(patsubst %.c,$(FUZZ_OUT)/obj/%.o,$(TEST_LIB_SRCS))
FUZZ_BINS     := $(patsubst tests/fuzz/%.c,$(FUZZ_OUT)/%,$(wildcard tests/fuzz/fuzz_*.c))

fuzz-harnesses: $(FUZZ_BINS)

$(FUZZ_OUT)/obj/%.o: %.c Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(DEPFLAGS) -o $@ $< $(FUZZ_OBJS)

# corebox-asan: the whole binary (every applet, the embedded BPF objects)
# built with the host compiler under ASan+UBSan, dynamically linked (the
# sanitizer runtimes need glibc).  tests/asan.sh runs a part of the e2e
# suite against it (COREBOX=...), so user-space bugs that only show on a
# path the unit tests do not reach (an applet's option handling, its
# output) are found in make check too.
# The library layers are the unit tests' objects (same compiler, same
# flags; half the build when make check has built those already); the
# applets, main.c and version.c (no "unit" version) are compiled here.
ASAN_OUT      ?= build/asan
ASAN_CFLAGS   := $(TEST_CFLAGS) $(SAN_CFLAGS) -I$(B)
ASAN_SRCS     := $(filter-out $(TEST_LIB_SRCS),$(LIB_SRCS) $(TOOL_SRCS)) tools/common/version.c
ASAN_OBJS     := $(filter-out $(call unit_obj,tools/common/version.c),$(UNIT_OBJS)) \
		 $(patsubst %.c,$(ASAN_OUT)/obj/%.o,$(ASAN_SRCS))

corebox-asan: $(ASAN_OUT)/corebox-asan

$(ASAN_OUT)/corebox-asan: $(ASAN_OBJS) $(B)/obj/bpfobjs.o
	$(HOSTCC) $(ASAN_CFLAGS) -o $@ $(ASAN_OBJS) $(B)/obj/bpfobjs.o -lm

$(ASAN_OUT)/obj/%.o: %.c Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(HOSTCC) $(ASAN_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(ASAN_OUT)/obj/tools/main.o: $(B)/applets.h
$(ASAN_OUT)/obj/tools/common/version.o: $(B)/version.h

LOADER_OUT    ?= build/test/loader
RUN_OUT       ?= build/test/run
LOADER_TEST_OBJS := $(patsubst tests/loader/%.c,$(LOADER_OUT)/%.o,$(wildcard tests/loader/*.bpf.c))
RUN_TEST_OBJS := $(patsubst tests/run/%.c,$(RUN_OUT)/%.o,$(wildcard tests/run/*.bpf.c))

loader-test-objs: $(LOADER_TEST_OBJS)
run-test-objs: $(RUN_TEST_OBJS) $(RUN_OUT)/getppid_n

$(LOADER_OUT)/%.bpf.o: tests/loader/%.bpf.c Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -MF $(@:.o=.d) -MT $@ -c -o $@ $<

$(RUN_OUT)/%.bpf.o: tests/run/%.bpf.c Makefile
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_BASE) -Wall $(DEPFLAGS) -MF $(@:.o=.d) -MT $@ -c -o $@ $<

$(RUN_OUT)/getppid_n: tests/run/getppid_n.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -O2 -Wall -o $@ $<

# tests/vm: the guest's /init (the driver: frame pointers everywhere, the
# stack-tool checks walk its own user stacks), the mechanism test linked
# with the library layers built above, and its BPF object
VM_OUT        ?= $(B)/vm
VM_LIB_OBJS   := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRCS))
# (32-bit arm's gcc has no leaf frame pointer option; and its /init is
# ARM code, not Thumb-2: the arm kernel's uprobes take ARM instructions
# only.  -mapcs-frame: the arm kernel's user stack walk (perf_callchain_user,
# for bpf_get_stackid and perf) reads APCS frames -- {fp, sp, lr} below
# where fp points; gcc's default {fp, lr} pair gave one user frame, then
# garbage)
VM_LEAF_FP    := $(if $(filter arm,$(ARCH)),-marm -mapcs-frame,-mno-omit-leaf-frame-pointer)

vm-guest: $(VM_OUT)/init $(VM_OUT)/mechtest $(VM_OUT)/mech.bpf.o

# (several sources in one command: their own headers listed, no .d file;
# -fno-lto: the checks trace the driver's own functions by name, which
# the whole-program link may inline, clone or rename, as it did on armhf)
$(VM_OUT)/init: tests/vm/driver.c $(wildcard tests/vm/t_*.c tests/vm/*.h) Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto -fno-omit-frame-pointer $(VM_LEAF_FP) -fno-optimize-sibling-calls \
		-o $@ tests/vm/driver.c $(wildcard tests/vm/t_*.c) -static

$(VM_OUT)/mechtest: tests/vm/mechtest.c $(VM_LIB_OBJS)
	$(CC) $(CFLAGS) -fno-lto $(DEPFLAGS) -o $@ $< $(VM_LIB_OBJS) -static

$(VM_OUT)/mech.bpf.o: tests/vm/mech.bpf.c Makefile $(KINC)/.stamp
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -MF $(@:.o=.d) -MT $@ -c -o $@ $<

-include $(UNIT_OBJS:.o=.d) $(UNIT_BINS:=.d) $(patsubst %.c,$(ASAN_OUT)/obj/%.d,$(ASAN_SRCS)) $(FUZZ_OBJS:.o=.d) $(FUZZ_BINS:=.d) \
	$(LOADER_TEST_OBJS:.o=.d) $(RUN_TEST_OBJS:.o=.d) $(VM_OUT)/mechtest.d $(VM_OUT)/mech.bpf.d

# print-VAR: a variable's value, for the test scripts (make -s print-CFLAGS)
print-%:
	@:$(info $($*))

# ---- arm64 ------------------------------------------------------------------
# `make corebox-arm64` from a native build = `make ARCH=arm64`.  make check
# runs the arm64 unit tests and fuzz corpora under qemu-user
# (tests/cross/run.sh) and make vmtest boots Debian's arm64 kernel
# (tests/vm/run.sh) when the cross toolchain is installed (make deps).
ifneq ($(COREBOX),corebox-arm64)
corebox-arm64:
	$(MAKE) ARCH=arm64
.PHONY: corebox-arm64
endif
ifneq ($(COREBOX),corebox-arm)
corebox-arm:
	$(MAKE) ARCH=arm
.PHONY: corebox-arm
endif

FORCE:

.PHONY: all deps demo check test bench vmtest clean vmlinux.h vmlinux.btf readme FORCE unit-tests unit-objs \
	fuzz-harnesses loader-test-objs run-test-objs vm-guest corebox-asan
