# gpu.mk — NVIDIA OpenMP-offload build settings for feint (GNU make fragment).
#
# What: included by the top-level Makefile.  `make GPU=sm_90` (sm_80, sm_70, ...)
#   builds the same OpenMP sources for the host *and* an NVIDIA GPU with clang-19:
#   CC becomes clang-19, offload flags are appended to CFLAGS and LDFLAGS, and
#   BUILD becomes build-$(GPU) so host and GPU builds coexist.  Without GPU= this
#   file adds no flags and changes no variable; it only defines `gpu-toolchain`.
# Why these flags (see DESIGN.md "Toolchain facts"):
#   --cuda-path: CUDA 11.8 ptxas/nvlink/libdevice unpacked by tools/gpu-toolchain.sh
#     into build/cuda-11.8 (never /usr/local/cuda: CUDA 13 cubins carry an e_flags ABI
#     the LLVM 19 runtime rejects).
#   --libomptarget-nvptx-bc-path: Debian puts the device runtime in
#     /usr/lib/llvm-19/lib/libomptarget-nvptx-sm_XX.bc, where clang-19 does not look
#     by itself ("no library 'libomptarget-nvptx-sm_90.bc' found").  It is linked into
#     the binary at compile time; nothing .bc is needed at run time.
#   -Wl,-rpath (RUNPATH, via --enable-new-dtags): the binary NEEDs
#     libomptarget.so.19.1, which is not on the default search path; RUNPATH (unlike
#     RPATH) lets LD_LIBRARY_PATH (tools/gpu-bundle.sh's run.sh) take precedence.
#   -DFEINT_OFFLOAD: compiles the device element loops (src/kernel/driver_device.h) and
#     the device API (src/device.c); without it the library is host-only.
#   Programs (tests, examples, bench, perfmodel) are compiled and linked without
#     `-mllvm -pragma-unroll-threshold`: they hold no element kernels, and in an offload
#     link the option reaches a clang that only links and warns that it is unused.
#   No -fopenmp-offload-mandatory: it removes the host fallback, and binaries must
#     run without a GPU (OMP_TARGET_OFFLOAD=DISABLED) for the host-vs-device checks.
# Include it AFTER CC/CFLAGS/LDFLAGS/BUILD are set and before rules that use
# $(BUILD).  CC and BUILD are set with `override`, so a later plain assignment
# cannot undo them; BUILD=... given on the command line is respected.

FEINT_GPU_MK_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

LLVM19_LIB ?= /usr/lib/llvm-19/lib
GPU_CC     ?= clang-19
CUDA_PATH  ?= $(FEINT_GPU_MK_DIR)/build/cuda-11.8

.PHONY: gpu-toolchain
gpu-toolchain:
	sh $(FEINT_GPU_MK_DIR)/tools/gpu-toolchain.sh $(CUDA_PATH)

ifneq ($(strip $(GPU)),)

GPU_DEVICE_RTL := $(LLVM19_LIB)/libomptarget-nvptx-$(GPU).bc

# The host half of an offload build runs on the GPU machine's CPU, not on the
# one that built it: -march=native on an AMD (Zen) build machine allows SSE4A
# (AMD only), and the first GPU machine had an Intel Xeon (Emerald Rapids).
# So the default host target of a GPU build is x86-64-v3 (AVX2 + FMA, every
# x86 CPU these machines have shown); OPT=... on the command line still wins.
ifeq ($(origin OPT),file)
OPT := -O3 -march=x86-64-v3
endif

# Per-case tuning values (-DFEINT_GPU_<PARAM>_<CASE>=...), written by
# tools/gpu-tune.sh; GPU_TUNING= (empty) or another file overrides.  Extra
# -D values for one build (the tuning driver's combinations): GPU_TUNE_FLAGS.
GPU_TUNING ?= $(FEINT_GPU_MK_DIR)/gpu/tuning/$(GPU).mk
FEINT_GPU_TUNING_DEFS :=
ifneq ($(strip $(GPU_TUNING)),)
-include $(GPU_TUNING)
endif
GPU_TUNE_FLAGS ?=

GPU_OFFLOAD_FLAGS := -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda \
  --offload-arch=$(GPU) --cuda-path=$(CUDA_PATH) \
  --libomptarget-nvptx-bc-path=$(GPU_DEVICE_RTL) \
  -DFEINT_OFFLOAD $(if $(GPU_TUNE_FLAGS),$(GPU_TUNE_FLAGS),$(FEINT_GPU_TUNING_DEFS))

# Checks, skipped when the goal is only to install the toolchain.
ifeq ($(filter-out gpu-toolchain clean distclean,$(MAKECMDGOALS)),$(MAKECMDGOALS))
ifeq ($(wildcard $(GPU_DEVICE_RTL)),)
$(error GPU=$(GPU): no device runtime $(GPU_DEVICE_RTL); have: $(patsubst libomptarget-nvptx-%.bc,%,$(notdir $(wildcard $(LLVM19_LIB)/libomptarget-nvptx-sm_*.bc))) (run `make gpu-toolchain` if none))
endif
ifneq ($(words $(wildcard $(CUDA_PATH)/bin/ptxas $(CUDA_PATH)/include/cuda.h)),2)
$(error GPU=$(GPU): no CUDA 11.8 tree in $(CUDA_PATH); run `make gpu-toolchain` first)
endif
endif

ifeq ($(findstring clang-19,$(notdir $(CC))),)
ifeq ($(origin CC),command line)
$(info gpu.mk: GPU=$(GPU) needs clang-19; using $(GPU_CC) instead of CC=$(CC))
endif
override CC := $(GPU_CC)
endif

ifneq ($(origin BUILD),command line)
override BUILD := build-$(GPU)
endif

GPU_LDFLAGS := $(GPU_OFFLOAD_FLAGS) -Wl,--enable-new-dtags -Wl,-rpath,$(LLVM19_LIB)

ifeq ($(origin CFLAGS),command line)
override CFLAGS += $(GPU_OFFLOAD_FLAGS)
else
CFLAGS += $(GPU_OFFLOAD_FLAGS)
endif
ifeq ($(origin LDFLAGS),command line)
override LDFLAGS += $(GPU_LDFLAGS)
else
LDFLAGS += $(GPU_LDFLAGS)
endif

# Element kernels in clang's CUDA data-sharing mode (the variant objects hold
# every element, mesh and operator kernel, matfree.o the per-element loops of
# the precomputed and quadrature-point operators).  In the default (generic) mode
# clang hands each local array whose address reaches a function call (the
# per-element geometry, coefficient and A^e arrays of kernel/driver_*.h and of
# the variants) to __kmpc_alloc_shared; OpenMPOpt moves most back to the
# stack, but one it cannot prove uncaptured stays, and the device runtime's
# 512-byte team stack (512 / threads bytes each) sends it to the CUDA heap:
# a malloc and a free per element and thread (H200, 2026-11-26: 0.02-0.2 % of
# the bound; illegal memory access once the heap ran out).  In CUDA mode a
# local is private to the thread that declares it, which is all these kernels
# need: the one team-level parallel region (the staged input path) takes its
# values firstprivate and its buffer from omp_pteam_mem_alloc.  The other
# objects stay generic: solve.c's per-team sums are reduction variables of a
# team's threads, which CUDA mode refuses.  make gpu-heap-check verifies it.
GPU_CUDA_MODE_FLAGS ?= -fopenmp-cuda-mode
GPU_CUDA_MODE_OBJS := $(VARIANT_OBJS) $(BUILD)/obj/src/operator/matfree.o
$(GPU_CUDA_MODE_OBJS): private CFLAGS += $(GPU_CUDA_MODE_FLAGS)
$(GPU_CUDA_MODE_OBJS): $(FEINT_GPU_MK_DIR)/gpu.mk

# Tests, examples and the bench link libfeint.so (RUNPATH to this build's
# lib/): the device image of the library (~3 MB) then exists once, in
# libfeint.so, instead of once per binary, which keeps the GPU bundle under
# 64 MiB.  GPU_LINK_STATIC=1 links libfeint.a as in the host build (the tuning
# driver does, so that each combination's bench carries its own kernels).
# (`private`: the values do not pass to prerequisites such as the library.)
GPU_PROG_CFLAGS := $(filter-out -mllvm -pragma-unroll-threshold=%,$(CFLAGS))
$(BUILD)/tests/% $(BUILD)/examples/% $(BUILD)/bin/% $(BUILD)/perfmodel-cli/%: private CFLAGS := $(GPU_PROG_CFLAGS)
GPU_LINK_STATIC ?= 0
ifneq ($(GPU_LINK_STATIC),1)
GPU_LIB_LINK := -L$(BUILD)/lib -lfeint -Wl,-rpath,$(abspath $(BUILD)/lib)
# (explicit targets: a prerequisite added by a recipe-less pattern rule would
#  be ignored, and the programs would link a stale libfeint.so)
GPU_PROGS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/t*.c)) \
  $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c)) $(BUILD)/bin/feint_bench \
  $(BUILD)/bin/feint_bench_operator $(BUILD)/bin/feint_bench_solve
$(GPU_PROGS): private LIB_STATIC = $(GPU_LIB_LINK)
$(GPU_PROGS): $(BUILD)/lib/libfeint.so
endif

endif # GPU

# ---- GPU targets (need GPU=sm_XX) ------------------------------------------------
#   check-gpu-fallback  offload build (GPU=sm_90 unless given; -O1, see below), its
#                       gpu-heap-check, tests run with OMP_TARGET_OFFLOAD=DISABLED: the
#                       device code paths on the host
#   gpu-bundle          (refused when gpu-heap-check fails: such a build measures
#                       the CUDA heap, not the kernels) dist/feint-gpu-$(GPU): tests + benches (elements, operator,
#                       solve; each with --target device) + LLVM runtime libs
#                       (tools/gpu-bundle.sh) + run-all.sh (tools/gpu-run-all.sh)
#                       + measure.sh (tools/gpu-measure.sh: one timed lease, from
#                       the repository root: tests, device and host benches)
#   gpu-tune            tools/gpu-tune.sh $(GPU): every tuning combination, one bundle
#   check-gpu-tune-pick the tuning result picker on fake CSVs (no GPU, no GPU= needed)
#   gpu-ptx-check       the staging buffer is team-shared (.shared) in the PTX
#   gpu-heap-check      which device kernels of the built library call the CUDA heap
#                       (malloc/free; tools/gpu-heap-check.sh): no GPU needed
.PHONY: check-gpu-fallback check-gpu-tune-pick gpu-bundle gpu-tune gpu-ptx-check gpu-require \
  gpu-heap-check
# check-gpu-fallback builds in its own folder at -O1 without the kernels'
# forced unrolling (GPU_FALLBACK_FLAGS): it checks the offload plumbing and the
# device code paths run on the host, not their speed, and the -O3 offload
# compile of one variant file takes ~18 min of one core (Zen 1: host side
# 678 s, device side 370 s; a host-only -O3 compile 312 s), ~55 min for the six
# on two cores, which CI's 90 minutes cannot hold beside the other stages; at
# -O1 the whole offload build takes 3 min.  GPU_FALLBACK_FLAGS= (empty) checks
# the -O3 build in build-$(GPU)/, the one gpu-bundle ships.
GPU_FALLBACK_FLAGS ?= BUILD=build-$(or $(GPU),sm_90)-fallback OPT="-O1 -DFEINT_NO_UNROLL" CFLAGS_UNROLL=
check-gpu-fallback: check-gpu-tune-pick
	@$(MAKE) --no-print-directory GPU=$(or $(GPU),sm_90) $(GPU_FALLBACK_FLAGS) all
	@$(MAKE) --no-print-directory GPU=$(or $(GPU),sm_90) $(GPU_FALLBACK_FLAGS) gpu-heap-check
	@OMP_TARGET_OFFLOAD=DISABLED $(MAKE) --no-print-directory GPU=$(or $(GPU),sm_90) $(GPU_FALLBACK_FLAGS) check

check-gpu-tune-pick:
	@sh $(FEINT_GPU_MK_DIR)/tools/gpu-tune-pick-test.sh

gpu-require:
	@test -n "$(GPU)" || { echo "this target needs GPU=sm_XX (e.g. make GPU=sm_90 $(MAKECMDGOALS))"; exit 2; }

# t706 (PETSc, hypre: no device code) stays out of the bundle: PETSc with its
# MPI, HDF5, BLAS and Trilinos libraries adds over 60 MiB, and a lease carries 64.
# So does t408 (no device code either): it compiles the kernels with clang-19,
# which the GPU machine does not have.
GPU_BUNDLE_TESTS = $(filter-out %/t706_petsc_hypre %/t408_pm_flop_census,$(TEST_BINS))
gpu-bundle: gpu-require all
	sh $(FEINT_GPU_MK_DIR)/tools/gpu-heap-check.sh $(BUILD)/lib/libfeint.so $(GPU)
	sh $(FEINT_GPU_MK_DIR)/tools/gpu-bundle.sh dist/feint-gpu-$(GPU) $(GPU_BUNDLE_TESTS) $(BENCH_BIN) \
	  $(BENCH_OP_BIN) $(BENCH_SOLVE_BIN)
	cp $(FEINT_GPU_MK_DIR)/tools/gpu-run-all.sh dist/feint-gpu-$(GPU)/run-all.sh
	cp $(FEINT_GPU_MK_DIR)/tools/gpu-measure.sh dist/feint-gpu-$(GPU)/measure.sh
	rm -rf dist/feint-gpu-$(GPU)/perfmodel && mkdir -p dist/feint-gpu-$(GPU)/perfmodel
	cp -r perfmodel/platforms dist/feint-gpu-$(GPU)/perfmodel/
	chmod 755 dist/feint-gpu-$(GPU)/run-all.sh dist/feint-gpu-$(GPU)/measure.sh
	@echo "gpu-bundle: dist/feint-gpu-$(GPU) ($$(du -sh dist/feint-gpu-$(GPU) | cut -f1)); on the GPU machine: dist/feint-gpu-$(GPU)/run-all.sh OUTDIR"

gpu-heap-check: gpu-require $(BUILD)/lib/libfeint.so
	sh $(FEINT_GPU_MK_DIR)/tools/gpu-heap-check.sh $(BUILD)/lib/libfeint.so $(GPU)

gpu-tune: gpu-require
	sh $(FEINT_GPU_MK_DIR)/tools/gpu-tune.sh $(GPU)

# Device assembly (PTX) of one variant with staging on, then a look for the
# staging buffer: the team-shared array `stage` must be a .shared variable of
# the staged kernels (one per case: stage, stage1, ...).
GPU_PTX_DIR := $(BUILD)/ptx
gpu-ptx-check: gpu-require
	@mkdir -p $(GPU_PTX_DIR)
	$(CC) $(filter-out -DFEINT_GPU_%,$(CFLAGS)) $(GPU_CUDA_MODE_FLAGS) -DFEINT_GPU_STAGE_INPUT=1 --offload-device-only -S \
	  -o $(GPU_PTX_DIR)/qss_geo_linear.s src/variant/qss_geo_linear.c
	@echo "PTX: $(GPU_PTX_DIR)/qss_geo_linear.s"
	@grep -n '\.shared .align [0-9]* .b8 stage[0-9]*\[' $(GPU_PTX_DIR)/qss_geo_linear.s || { echo "gpu-ptx-check: no .shared stage buffer"; exit 1; }
	@echo "shared-window addresses (cvta.shared) taken: $$(grep -c 'cvta\.shared' $(GPU_PTX_DIR)/qss_geo_linear.s); explicit ld/st.shared.f64: $$(grep -c '[ls][dt]\.shared\.f64' $(GPU_PTX_DIR)/qss_geo_linear.s) (the parallel region reaches the buffer through a generic pointer)"
