# feint - top-level GNU Makefile.
#   make            library (static + shared), tests, bench, examples, tools
#   make test       build and run the tests (prints "N passed, N failed")
#   make bench      run the benchmark on this machine (writes bench/results/)
#   make bench-ffcx hex8 elasticity against the FFCx-generated kernel (part of bench)
#   make report     model-vs-measured report from bench/results/ (bench/REPORT.md)
#   make sanitize   build and run the tests with AddressSanitizer + UBSan
#   make fuzz       build and run every libFuzzer target (FUZZ_SECONDS each)
#   make info       resolved toolchain and flags
#   make GPU=sm_90  offload build (see gpu.mk)
# Overridable: CC, OPT, GPU, BUILD, LIKWID=1.

SHELL := /bin/bash
.DEFAULT_GOAL := all

# ---- toolchain: clang-19 by default, the system C compiler otherwise --------
CLANG19 := $(shell command -v clang-19 2>/dev/null)
ifeq ($(origin CC),default)
  ifneq ($(CLANG19),)
    CC := $(CLANG19)
  else
    CC := cc
    $(info feint: clang-19 not found; building the host library with '$(shell cc --version 2>/dev/null | head -n1)' (run 'make deps' as root to install clang-19))
  endif
endif
IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)

# 512-bit vectors wherever the CPU has AVX-512: clang and gcc tune every Intel
# AVX-512 CPU (Skylake-SP to Sapphire/Emerald Rapids) to prefer 256-bit ones,
# so a block of FEINT_BLOCK_LEN = 8 doubles took two ymm registers and two
# instructions per operation.  On an Emerald Rapids Xeon, 512-bit vectors
# took a median 0.79x the time over 88 bench rows (0.56-1.17x;
# bench/results/intel_vector_width/).  clang already uses them on Zen 4 and
# Zen 5 (gcc 12 does not); AVX2-only targets are unaffected.
ifeq ($(shell uname -m),x86_64)
  OPT ?= -O3 -march=native -mprefer-vector-width=512
else
  OPT ?= -O3 -march=native
endif
BUILD ?= build
CFLAGS_BASE := -std=c11 -Wall -Wextra -fPIC -fopenmp -Iinclude -Isrc -Iperfmodel
# The variants need their inner loops fully unrolled before the element loop
# is vectorised across SIMD lanes; clang's default size cap for `#pragma
# unroll` stops short of the prism geo_generic loop nests (200000 stops short
# of the hex8 ssq_geo_generic ones: "loop not vectorized").
ifeq ($(IS_CLANG),1)
  CFLAGS_UNROLL := -mllvm -pragma-unroll-threshold=1000000
endif
# The variants' element loops are compiled without LLVM's machine scheduler
# (the pass that reorders instructions before register allocation) where the
# target has AVX-512.  Their unrolled bodies keep more values live than the
# vector registers hold, and the reordering cost time.  Zen 4, ns per element,
# clang's default -> source order: one thread, 16 Ki elements, conv-diff tet4 22-30 ->
# 18-23, prism6 geo_linear 98 -> 70-73, hex8 geo_linear 268-424 -> 184-237;
# two threads, 4 Mi elements: prism6 conv-diff geo_linear 0.76-0.81x, hex8
# 0.54-0.65x, tet4 0.81-1.15x; most other rows within the noise, a few
# 1.07-1.17x slower (hex8 conv-diff ssq_geo_generic, hex8 Poisson
# sqs_geo_linear).  With 16 registers (AVX2: x86-64-v3, Zen 3) Poisson and
# elasticity lose up to 1.28x, so those builds keep the scheduler; so do the
# offload builds (untested on a device).  The order of the instructions
# changes, not the arithmetic: the outputs are bitwise unchanged.
# bench/results/scheduler_off/ has the runs.
ifeq ($(IS_CLANG),1)
ifeq ($(strip $(GPU)),)
ifneq ($(shell $(CC) $(OPT) -dM -E -x c /dev/null 2>/dev/null | grep -c __AVX512F__),0)
  CFLAGS_SCHED := -mllvm -enable-misched=false
endif
endif
endif
CFLAGS ?= $(OPT)
CFLAGS += $(CFLAGS_BASE) $(CFLAGS_UNROLL)
# -fopenmp links the OpenMP runtime every binary needs: appended even when
# LDFLAGS comes from the command line (make sanitize sets it; gpu.mk appends
# its flags the same way).
ifeq ($(origin LDFLAGS),command line)
override LDFLAGS += -fopenmp
else
LDFLAGS += -fopenmp
endif
LDLIBS += -lm
ifeq ($(LIKWID),1)
  CFLAGS += -DFEINT_LIKWID -DLIKWID_PERFMON
  LDLIBS += -llikwid
endif

# The variant objects, one per file of src/variant/: the scheduler switch
# (CFLAGS_SCHED, after the object rule) and gpu.mk's CUDA mode apply to them.
# Recursive, so that it expands with the BUILD gpu.mk sets.
VARIANT_OBJS = $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/variant/*.c))

-include gpu.mk

LIB_SRCS := $(wildcard src/*.c) $(wildcard src/variant/*.c) $(wildcard src/mesh/*.c) \
  $(wildcard src/assembly/*.c) $(wildcard src/operator/*.c) \
  $(wildcard src/solve/*.c)
BINS :=
-include perfmodel/perfmodel.mk

LIB_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
LIB_STATIC := $(BUILD)/lib/libfeint.a
LIB_SHARED := $(BUILD)/lib/libfeint.so

TEST_SRCS := $(sort $(wildcard tests/t*.c))
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRCS))
BENCH_BIN := $(BUILD)/bin/feint_bench
BENCH_ASM_BIN := $(BUILD)/bin/feint_bench_assembly
BENCH_OP_BIN := $(BUILD)/bin/feint_bench_operator
BENCH_SOLVE_BIN := $(BUILD)/bin/feint_bench_solve
BINS += $(BENCH_BIN) $(BENCH_ASM_BIN) $(BENCH_OP_BIN) $(BENCH_SOLVE_BIN)

HEADERS := $(wildcard include/*.h src/*.h src/kernel/*.h src/mesh/*.h src/assembly/*.h \
  src/operator/*.h src/solve/*.h perfmodel/*.h)

.PHONY: all lib tests examples test check bench bench-ffcx report sanitize info format clean install deps \
  check-install flop-census
# the version in the installed feint.pc: feint.h's FEINT_VERSION_STRING
FEINT_VERSION := $(shell sed -n 's/^\#define FEINT_VERSION_STRING "\(.*\)"/\1/p' include/feint.h)
# OpenMP flags a consumer links with (an offload build's consumers link its
# device code too: gpu.mk's GPU_LDFLAGS without the -D defines)
PC_OPENMP_LIBS = $(if $(GPU),$(filter-out -D%,$(GPU_LDFLAGS)),-fopenmp)
all: lib tests examples $(BINS)
lib: $(LIB_STATIC) $(LIB_SHARED)
tests: $(TEST_BINS)
examples: $(EXAMPLE_BINS)

$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# the variants' scheduler switch (CFLAGS_SCHED above); a change of it rebuilds them
$(VARIANT_OBJS): private CFLAGS += $(CFLAGS_SCHED)
$(VARIANT_OBJS): Makefile

$(LIB_STATIC): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIB_SHARED): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Per-test extra flags: TEST_CFLAGS_<name>, TEST_LIBS_<name>.
# t706 builds against PETSc (pkg-config: Debian's libpetsc-real-dev, with its
# MPI) and hypre (libhypre-dev, no .pc: its header directory); without them
# it compiles to a program that prints SKIP and exits 77.
PETSC_FOUND := $(shell pkg-config --exists PETSc ompi-c 2>/dev/null && echo 1)
HYPRE_INC ?= /usr/include/hypre
ifeq ($(PETSC_FOUND),1)
PETSC_CFLAGS := -DFEINT_HAVE_PETSC $(shell pkg-config --cflags PETSc ompi-c)
PETSC_LIBS := $(shell pkg-config --libs PETSc ompi-c)
TEST_CFLAGS_t706_petsc_hypre += $(PETSC_CFLAGS)
TEST_LIBS_t706_petsc_hypre += $(PETSC_LIBS)
# example 04 (PETSc under MPI; t905 runs it with mpirun -n 2)
EXAMPLE_CFLAGS_04_petsc_mpi += $(PETSC_CFLAGS)
EXAMPLE_LIBS_04_petsc_mpi += $(PETSC_LIBS)
endif
ifneq ($(wildcard $(HYPRE_INC)/HYPRE_IJ_mv.h),)
TEST_CFLAGS_t706_petsc_hypre += -DFEINT_HAVE_HYPRE -I$(HYPRE_INC)
TEST_LIBS_t706_petsc_hypre += -lHYPRE
endif

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS_$*) -Itests $< -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS) $(TEST_LIBS_$*)

# Per-example extra flags: EXAMPLE_CFLAGS_<name>, EXAMPLE_LIBS_<name>.
$(BUILD)/examples/%: examples/%.c $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXAMPLE_CFLAGS_$*) $< -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS) $(EXAMPLE_LIBS_$*)

GIT_HASH := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
# The CPU the build flags target (clang: -target-cpu, e.g. znver4 for
# -march=native on a Zen 4, x86-64-v3; gcc: -march): names the bench's result file.
BUILD_ARCH = $(or $(shell $(CC) $(OPT) -### -x c /dev/null 2>&1 | grep -o '"-target-cpu" "[^"]*"' | cut -d'"' -f4),$(shell $(CC) $(OPT) -Q --help=target 2>/dev/null | awk '$$1 == "-march=" {print $$2}'),unknown)
# perfmodel/spawn.c: external programs (compiler, nvidia-smi) run without a
# shell; perfmodel/bench_common.c: the CPU a run measured, its result file name
# and the FMA probe's length.
BENCH_SUPPORT := perfmodel/spawn.c perfmodel/bench_common.c
BENCH_DEFS = -DFEINT_GIT_HASH='"$(GIT_HASH)"' -DFEINT_BUILD_FLAGS='"$(notdir $(CC)) $(filter-out -I% -mllvm -pragma-unroll-threshold=%,$(CFLAGS))$(if $(CFLAGS_SCHED),; variants $(CFLAGS_SCHED))"' -DFEINT_BUILD_ARCH='"$(BUILD_ARCH)"'
$(BENCH_BIN): bench/feint_bench.c $(BENCH_SUPPORT) perfmodel/perfmodel_cli.h $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_DEFS) $< $(BENCH_SUPPORT) -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS)

$(BENCH_ASM_BIN): bench/assembly_bench.c $(BENCH_SUPPORT) perfmodel/perfmodel_cli.h $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_DEFS) $< $(BENCH_SUPPORT) -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS)

$(BENCH_OP_BIN): bench/operator_bench.c $(BENCH_SUPPORT) perfmodel/perfmodel_cli.h $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_DEFS) $< $(BENCH_SUPPORT) -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS)

$(BENCH_SOLVE_BIN): bench/solve_bench.c $(BENCH_SUPPORT) perfmodel/perfmodel_cli.h $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_DEFS) $< $(BENCH_SUPPORT) -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS)

# ---- the two commands of README.md -----------------------------------------
# deps first (installs clang-19 & co. when root), then a fresh make so that the
# toolchain is resolved again.
# `make test` builds with one job per core (the six -O3 variant files take
# ~5 min of a core each on a Zen 1) and then runs the tests one at a time.
NPROC := $(shell nproc 2>/dev/null || echo 2)
test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(TEST_BINS) $(EXAMPLE_BINS) $(BINS)
	@$(MAKE) --no-print-directory check

# the tools are part of the suite: t004 runs perfmodel and feint_bench
check: $(TEST_BINS) $(EXAMPLE_BINS) $(BINS)
	@tools/run-tests.sh $(BUILD)

bench: deps
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(BENCH_ASM_BIN) $(BENCH_OP_BIN) $(BENCH_SOLVE_BIN)
	@tools/run-bench.sh $(BENCH_BIN)
	@tools/run-bench.sh $(BENCH_ASM_BIN) --csv auto
	@tools/run-bench.sh $(BENCH_OP_BIN) --csv auto
	@tools/run-bench.sh $(BENCH_SOLVE_BIN) --csv auto
	@$(MAKE) --no-print-directory bench-ffcx

# ---- feint against FFCx (issue 8): Debian's python3-ffcx (make deps) generates
# the kernel of bench/ffcx/elasticity_hex8.py; it is compiled as DOLFINx's JIT
# compiles it (gcc -O2), and at -O3 -march=native by gcc and by $(CC); the
# bench opens each with dlopen.  ufcx.h lives in the ffcx package.
FFCX_DIR := $(BUILD)/ffcx
FFCX_INC = $(shell /usr/bin/python3 -c 'import os, ffcx.codegeneration as c; print(os.path.dirname(c.__file__))' 2>/dev/null)
FFCX_SOS := $(FFCX_DIR)/gcc-O2.so $(FFCX_DIR)/gcc-O3-native.so $(FFCX_DIR)/clang-O3-native.so
BENCH_FFCX_BIN := $(BUILD)/bin/feint_bench_ffcx
$(FFCX_DIR)/elasticity_hex8.c: bench/ffcx/elasticity_hex8.py
	@mkdir -p $(dir $@)
	/usr/bin/python3 -m ffcx -o $(FFCX_DIR) $<
$(FFCX_DIR)/gcc-O2.so: $(FFCX_DIR)/elasticity_hex8.c
	gcc -O2 -g0 -fPIC -shared -I$(FFCX_INC) $< -o $@
$(FFCX_DIR)/gcc-O3-native.so: $(FFCX_DIR)/elasticity_hex8.c
	gcc -O3 -march=native -fPIC -shared -I$(FFCX_INC) $< -o $@
$(FFCX_DIR)/clang-O3-native.so: $(FFCX_DIR)/elasticity_hex8.c
	$(CC) -O3 -march=native -fPIC -shared -I$(FFCX_INC) $< -o $@
$(BENCH_FFCX_BIN): bench/ffcx_bench.c $(BENCH_SUPPORT) perfmodel/perfmodel_cli.h $(LIB_STATIC) $(FFCX_DIR)/elasticity_hex8.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_DEFS) -I$(FFCX_INC) $< $(BENCH_SUPPORT) -o $@ $(LDFLAGS) $(LIB_STATIC) $(LDLIBS) -ldl
bench-ffcx: deps
	@if /usr/bin/python3 -c 'import ffcx' 2>/dev/null; then \
	  $(MAKE) --no-print-directory $(BENCH_FFCX_BIN) $(FFCX_SOS) && \
	  tools/run-bench.sh $(BENCH_FFCX_BIN) $(foreach so,$(FFCX_SOS),--ffcx $(basename $(notdir $(so)))=$(so)) --csv auto; \
	else echo "bench-ffcx: skipped, FFCx is not installed (make deps as root installs python3-ffcx)"; fi

deps:
	@tools/deps.sh

# perfmodel's executed flops against the compiled kernels, every case and
# variant (t408 runs the quick part; prism6 and hex8 elasticity take ~15 min)
flop-census: $(BUILD)/bin/perfmodel
	@tools/flop-census.sh $(BUILD)

# Sanitizer build: the kernels' forced full unrolling is switched off
# (FEINT_NO_UNROLL): instrumented, fully unrolled prism loop nests take many
# minutes to compile, and the checks are about memory and UB, not speed.
sanitize:
	@$(MAKE) --no-print-directory BUILD=build-sanitize OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -DFEINT_NO_UNROLL" CFLAGS_UNROLL= LDFLAGS="-fsanitize=address,undefined" check

# ---- fuzzing (libFuzzer; clang only) ------------------------------------------
# Every fuzz/fuzz_<name>.c is a target (LLVMFuzzerTestOneInput) with its seed
# corpus in fuzz/corpus/<name>/: drop in a file, and `make fuzz` builds it
# against a libfeint instrumented for coverage + ASan + UBSan and runs it for
# FUZZ_SECONDS (tools/run-fuzz.sh; any crash, leak or sanitizer report fails).
# -Wno-pass-failed: with coverage instrumentation clang cannot honour every
# `omp simd` of the kernels at -O1 (correctness is what is fuzzed, not speed).
# A library of its own, not make sanitize's: sharing one with the coverage
# instrumentation in it (its trace-cmp callbacks on every comparison of the
# kernels' loops) kept t302 under the sanitizers running for over 16 min of
# a Zen 3, longer than building the second library.
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst fuzz/%.c,$(FUZZ_BUILD)/fuzz/%,$(FUZZ_SRCS))
.PHONY: fuzz fuzz-build
fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@tools/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)
fuzz-build:
	@if [ "$(IS_CLANG)" != 1 ]; then echo "make fuzz needs clang (libFuzzer): run 'make deps' as root" >&2; exit 1; fi
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN) -DFEINT_NO_UNROLL -Wno-pass-failed" CFLAGS_UNROLL= LDFLAGS="$(FUZZ_SAN)" $(FUZZ_BINS)
$(FUZZ_BUILD)/fuzz/%: fuzz/%.c $(FUZZ_BUILD)/lib/libfeint.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -O1 -g -fno-omit-frame-pointer -fopenmp -Iinclude -fsanitize=fuzzer $(FUZZ_SAN) $< -o $@ $(FUZZ_BUILD)/lib/libfeint.a -lm

info:
	@echo "CC       = $(CC) ($(shell $(CC) --version 2>/dev/null | head -n1))"
	@echo "CFLAGS   = $(CFLAGS)"
	@echo "LDFLAGS  = $(LDFLAGS)"
	@echo "LDLIBS   = $(LDLIBS)"
	@echo "BUILD    = $(BUILD)"
	@echo "GPU      = $(if $(GPU),$(GPU),none (host build))"
	@echo "OpenMP   = $(shell echo '_OPENMP' | $(CC) -fopenmp -E -P -x c - 2>/dev/null | tail -n1)"
	@echo "threads  = $(shell nproc)"

format:
	clang-format -i $(wildcard include/*.h src/*.c src/*.h src/kernel/*.h src/variant/*.c src/mesh/*.c src/mesh/*.h src/assembly/*.c src/assembly/*.h src/operator/*.c src/operator/*.h src/solve/*.c src/solve/*.h tests/*.c tests/*.h bench/*.c examples/*.c perfmodel/*.c perfmodel/*.h fuzz/*.c)

# Installs the headers, both libraries and a pkg-config file, so that a
# consumer builds with `$(CC) $$(pkg-config --cflags feint) app.c $$(pkg-config
# --libs feint)` (PKG_CONFIG_PATH=$(PREFIX)/lib/pkgconfig for a prefix off the
# default search path).  Cflags carry -fopenmp (feint.h needs nothing more,
# but the caller's compiler must link the same OpenMP runtime: build with the
# compiler that built the library, recorded as the .pc's `compiler`); Libs
# carry -fopenmp and -lm, which the static library needs (pkg-config
# --static) and the shared one leaves harmless.  tools/check-install.sh is
# the check (a CI stage).
PREFIX ?= /usr/local
install: lib
	install -d $(PREFIX)/include $(PREFIX)/lib $(PREFIX)/lib/pkgconfig
	install -m 644 include/*.h $(PREFIX)/include
	install -m 644 $(LIB_STATIC) $(LIB_SHARED) $(PREFIX)/lib
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@CC@|$(notdir $(CC))|' \
	  -e 's|@VERSION@|$(FEINT_VERSION)|' -e 's|@OPENMP_LIBS@|$(PC_OPENMP_LIBS)|' \
	  tools/feint.pc.in > $(PREFIX)/lib/pkgconfig/feint.pc
	chmod 644 $(PREFIX)/lib/pkgconfig/feint.pc

# installed use, out of tree (tools/check-install.sh): the examples that need
# only feint.h, built against `make install` with pkg-config
INSTALL_CHECK_EXAMPLES ?= examples/01_single_tet.c examples/02_mesh_batch.c \
  examples/03_gmsh_poisson.c
check-install: lib
	@tools/check-install.sh $(CC) $(INSTALL_CHECK_EXAMPLES)

clean:
	rm -rf build build-*
