# perfmodel/perfmodel.mk - GNU make fragment of the performance model,
# included by the top-level Makefile, which defines CC, CFLAGS (with
# -Iinclude -Iperfmodel), LDFLAGS, LDLIBS and BUILD before including it, and
# LIB_STATIC = $(BUILD)/lib/libfeint.a after (so prerequisites below name
# the archive by its path: make expands prerequisites when it reads them).
#
# - The model's library sources go into libfeint (LIB_SRCS).
# - $(BUILD)/bin/perfmodel is the command-line tool (BINS).
# - `make report` writes bench/REPORT.md and bench/report/<platform>.png
#   from bench/results/*.csv.
# - LIKWID=1 (handled by the top-level Makefile: -DFEINT_LIKWID
#   -DLIKWID_PERFMON -llikwid) makes perfmodel/feint_likwid.h call likwid's
#   marker API.

PM_DIR := perfmodel

LIB_SRCS += $(PM_DIR)/names.c $(PM_DIR)/counts.c $(PM_DIR)/flopdag.c $(PM_DIR)/assembly.c $(PM_DIR)/operator.c \
  $(PM_DIR)/solve.c $(PM_DIR)/platform.c $(PM_DIR)/measure.c

# The host characterisation kernels need the machine's vector FMA
# instructions (AVX2/AVX-512 intrinsics, vmovntpd stores); without them
# they still run, with scalar fma() (feint_pm_fma_width() then says 1).
# Pattern-specific: applies to the object of measure.c whatever its path.
PM_MEASURE_FLAGS ?= -O3 -march=native
%measure.o: CFLAGS += $(PM_MEASURE_FLAGS)

PM_CLI_SRCS := $(PM_DIR)/cli.c $(PM_DIR)/characterise.c $(PM_DIR)/report.c $(PM_DIR)/spawn.c
PM_CLI_OBJS := $(patsubst $(PM_DIR)/%.c,$(BUILD)/perfmodel-cli/%.o,$(PM_CLI_SRCS))

$(BUILD)/perfmodel-cli/%.o: $(PM_DIR)/%.c $(PM_DIR)/perfmodel_cli.h include/feint_perfmodel.h include/feint.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

PM_LIB_STATIC := $(BUILD)/lib/libfeint.a

$(BUILD)/bin/perfmodel: $(PM_CLI_OBJS) $(PM_LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(PM_CLI_OBJS) -o $@ $(LDFLAGS) $(PM_LIB_STATIC) $(LDLIBS) -lm

BINS += $(BUILD)/bin/perfmodel

.PHONY: report
report: $(BUILD)/bin/perfmodel
	$(BUILD)/bin/perfmodel report --results bench/results --out bench/REPORT.md --plots bench/report
