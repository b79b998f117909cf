# libcopyperf's own suites: its exported ABI, the correctness program (natively in make check;
# under ASan/UBSan, once per ISA and with each threshold forced in make test), the LD_PRELOAD
# shim; and `make bench`, whose program test-bench checks.  Its libFuzzer run is in test-fuzz
# (35-fuzz.mk).
CHECK_SUITES  += test-abi test-lib-quick test-preload test-bench
TEST_SUITES   += test-lib
TEST_PACKAGES += clang libclang-rt-14-dev binutils

# ---- the library's exports: include/copyperf.h, lib/libcopyperf.map and the .so agree, and the
# static archive's symbols all carry its prefix ----
.PHONY: test-abi
test-abi: $(BUILD)/$(LIB_SO_FILE) $(BUILD)/$(LIB_SONAME) $(LIB_SO) $(LIB_A)
	@CC="$(CC)" tests/abi/run.sh $(BUILD)/$(LIB_SO_FILE) include/copyperf.h $(LIB_MAP) $(LIB_SONAME) $(LIB_A)

# ---- the correctness suite: one plain C program, cross-buildable -----------------------------
LIBCHECK_SRC := $(wildcard tests/lib/*.c)
LIBCHECK_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIBCHECK_SRC))
LIBCHECK     := $(BUILD)/tests/libcheck

# The call mixes check draws its calls as copyperf -d does: the command's reader and drawing.
LIBCHECK_OBJ += $(addprefix $(BUILD)/src/measure/call_mixes/,distribution.o distribution_files.o \
	call_list.o)
# Routines named on its command line as copyperf -r names them, those of shared objects too.
LIBCHECK_OBJ += $(BUILD)/src/measure/backends/shared_routine.o
$(LIBCHECK): $(LIBCHECK_OBJ) $(LIB_A)
	$(CC) $(STATIC) $(LDFLAGS) -o $@ $^ -lm

# ISAs to force: those this CPU has, as the kernel reports them.
LIB_ISAS = $(shell scripts/cpu-isas.sh $(ARCH_DIR))

# Each threshold path forced for every size above 8 vectors, so the small sizes reach it (the
# string copy where source and destination share their offset in a line, too, and in its
# window the loop for a destination 1-31 B past the source within 4 KiB, the string copy from 32);
# with each, the overlapping memmoves that go forward take each of the AVX-512 variant's loops
# (libcheck runs every variant's functions, whichever COPYPERF_ISA picks). Then the machine's
# thresholds with each AVX-512 loop, which the ladders jump to below the string copy's sizes.
LIB_FORCED := "COPYPERF_REP_MOVSB_MIN=0 COPYPERF_REP_MOVSB_MAX=1G COPYPERF_NT_THRESHOLD=1G COPYPERF_REP_MOVSB_STEP=16K COPYPERF_REP_MOVSB_NEAR=32" \
	"COPYPERF_REP_MOVSB_MIN=1G COPYPERF_REP_MOVSB_MAX=1G COPYPERF_NT_THRESHOLD=1G COPYPERF_REP_MOVSB_ALIGNED=0" \
	"COPYPERF_REP_MOVSB_MAX=0 COPYPERF_NT_THRESHOLD=0 COPYPERF_NT_STREAMS=1 COPYPERF_LOOP_VEC=32" \
	"COPYPERF_REP_MOVSB_MAX=0 COPYPERF_NT_THRESHOLD=0 COPYPERF_NT_STREAMS=2 COPYPERF_LOOP_VEC=64" \
	"COPYPERF_REP_MOVSB_MAX=0 COPYPERF_NT_THRESHOLD=0 COPYPERF_NT_STREAMS=4 COPYPERF_LOOP_VEC=64" \
	"COPYPERF_LOOP_VEC=32" "COPYPERF_LOOP_VEC=64"

# The ladders' layout in assembly, the library's and the preload shim's (tests/lib/layout.sh
# says which lines each path takes).
LIB_LAYOUT := $(if $(filter x86_64,$(ARCH_DIR)),tests/lib/layout.sh $(BUILD)/$(LIB_SO_FILE) $(PRELOAD_SO) \
	$(PRELOAD_LEVEL_SO))

.PHONY: test-lib-quick test-lib
test-lib-quick: $(LIBCHECK) $(BUILD)/$(LIB_SO_FILE) $(PRELOAD_SO) $(PRELOAD_LEVEL_SO)
	@tests/lib/run.sh $(LIBCHECK)
	@$(LIB_LAYOUT)
	@tests/lib/no_copy_calls.sh $(PRELOAD_SO) $(PRELOAD_LEVEL_SO)

test-lib: $(LIBCHECK)
	@$(SAN_MAKE) $(SAN_BUILD)/tests/libcheck >/dev/null
	@tests/lib/run.sh $(LIBCHECK) $(SAN_BUILD)/tests/libcheck "$(strip $(LIB_ISAS))" $(LIB_FORCED)

# ---- the LD_PRELOAD shim, built and installed by the Makefile (PRELOAD_SO): its tests --------
PRELOAD_PROBE := $(BUILD)/tests/preload-probe
$(PRELOAD_PROBE): $(BUILD)/tests/preload/probe.o
	$(CC) $(LDFLAGS) -o $@ $^

# The call mix test-preload records with COPYPERF_RECORD, and checks with tests/preload/check_mix.py.
PRELOAD_MIX := $(BUILD)/tests/preload-mix
$(PRELOAD_MIX): $(BUILD)/tests/preload/mix.o
	$(CC) $(LDFLAGS) -pthread -o $@ $^

# A program linked against libcopyperf.so, which test-preload also runs under the shim.
PRELOAD_LINKED := $(BUILD)/tests/preload-linked
$(PRELOAD_LINKED): $(BUILD)/tests/preload/linked.o $(BUILD)/$(LIB_SONAME) $(LIB_SO)
	$(CC) $(LDFLAGS) -o $@ $< -L$(BUILD) -lcopyperf

.PHONY: test-preload
test-preload: $(PRELOAD_SO) $(PRELOAD_LEVEL_SO) $(PRELOAD_V4_LINK) $(PRELOAD_PROBE) $(PRELOAD_MIX) $(COPYPERF) $(PRELOAD_LINKED) $(LIBCHECK)
	@tests/preload/run.sh $(PRELOAD_SO) $(PRELOAD_PROBE) $(PRELOAD_MIX) $(COPYPERF) $(PRELOAD_LINKED) $(LIBCHECK) \
		$(PRELOAD_LEVEL_SPECS)

# ---- make bench: copyperf_memcpy against the C library's memcpy (not part of make test) -------
COPYBENCH := $(BUILD)/bench/copybench
BENCH_ARGS ?=

# copybench's parts (bench/copybench.h says which does what).
COPYBENCH_PARTS := $(addprefix $(BUILD)/bench/,copybench.o cases.o tables.o processes.o verdicts.o)
$(COPYBENCH_PARTS) $(BUILD)/bench/all_cpus.o: ALL_CFLAGS += -Isrc
# The dist tables replay the command's call lists: its reader, drawing and working sets; the
# flushed and cold sweeps walk the command's own buffers (lane.c), with its cache handling.
COPYBENCH_OBJ := $(BUILD)/bench/all_cpus.o $(BUILD)/bench/footprint.o $(BUILD)/bench/fresh_process.o \
	$(addprefix $(BUILD)/src/,stats/mann_whitney.o stats/stats.o xalloc.o sizes.o interrupt.o report/atomic_file.o) \
	$(addprefix $(BUILD)/src/measure/,engine/lane.o engine/pattern.o engine/replay.o \
	engine/timing.o backends/shared_routine.o placement/cpu_order.o placement/numa.o \
	placement/pages.o placement/pinned_pool.o hardware/cache.o hardware/counters.o \
	hardware/llc_probe.o hardware/sys_file.o call_mixes/call_list.o call_mixes/distribution.o \
	call_mixes/distribution_files.o call_mixes/workloads.o)
$(COPYBENCH): $(COPYBENCH_PARTS) $(COPYBENCH_OBJ) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# With the test build's wrong routines: test-bench checks that a wrong copy meets no target.
COPYBENCH_BROKEN := $(BUILD)/tests/copybench-broken
$(COPYBENCH_BROKEN): $(COPYBENCH_PARTS) $(BUILD)/tests/broken_routine.o $(COPYBENCH_OBJ) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# What masked moves cost on this CPU (BENCHMARKS.md, "What a masked move costs"); x86-64 with AVX-512 only.
MASKED_OPS := $(BUILD)/bench/masked_ops
$(BUILD)/bench/masked_ops.o: ALL_CFLAGS += -Isrc
$(MASKED_OPS): $(BUILD)/bench/masked_ops.o $(BUILD)/src/stats/stats.o $(BUILD)/src/xalloc.o $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-masked
bench-masked: $(MASKED_OPS)
	$(MASKED_OPS)

# Then the copies a program gets under the preload shim, its memcpy (a memmove, as the shim's is)
# where one call's cost shows: fixed sizes at one placement and at others, the same pointers,
# chained calls, the call mixes. The shim is the one this CPU's programs get, whose entries are
# the variant the library chose (the description's second word, as `copyperf program` takes
# it): on a CPU without AVX-512 the first shim would reach that variant through two jumps more.
# Either run's NOT MET fails the target, after both have run.
BENCH_SHIM_CASES ?= sweep sweep-offsets repeat chain dist
bench_variant = $$($(COPYPERF) --list | sed -n 's|^\# copyperf_memcpy/copyperf_memmove: [^ ]* \([^ ]*\) variant.*|\1|p')

# Then, on x86-64, the variants other CPUs run, each against the glibc variant such a CPU gets
# (GLIBC_TUNABLES hides the same features from glibc's choice), where this CPU can run them
# and the default is another: ISA:CPU-FLAG:TUNABLES[:SHIM], the flag /proc/cpuinfo must list,
# and the preload shim such a CPU gets, whose pass follows the variant's. AVX2 for CPUs
# without AVX-512, SSE2 for those without AVX, each with its shim, and AVX-512's branchless
# variant, a choice (COPYPERF_ISA) against glibc's default.
BENCH_VARIANT_CASES ?= sweep sweep-offsets repeat chain dist
BENCH_HIDE_AVX512 := glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW
BENCH_HIDE_AVX := $(BENCH_HIDE_AVX512),-AVX_Fast_Unaligned_Load
bench_shim_of = $(abspath $(patsubst $(1):%,%,$(filter $(1):%,$(PRELOAD_LEVEL_SPECS))))
BENCH_SHIMS = $(foreach l,$(PRELOAD_LEVELS),$(call preload_level,$(l),2):$(call \
	bench_shim_of,$(call preload_level,$(l),2)))
BENCH_VARIANTS ?= $(if $(filter x86_64,$(ARCH_DIR)),avx2:avx512bw:$(BENCH_HIDE_AVX512):$(call \
	bench_shim_of,avx2) sse2:avx2:$(BENCH_HIDE_AVX):$(call bench_shim_of,sse2) \
	avx512-branchless:avx512bw:)

.PHONY: bench
bench: $(COPYBENCH) $(COPYPERF) $(PRELOAD_SO) $(PRELOAD_LEVEL_SO)
	@echo "machine: $$(uname -srm), $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
		"$$(nproc) CPUs, glibc $$(ldd --version | head -1 | awk '{print $$NF}'); load: $$(cut -d' ' -f1-3 /proc/loadavg)"
	@status=0 shim=$(abspath $(PRELOAD_SO)) chosen=$(bench_variant); \
	for s in $(BENCH_SHIMS); do \
		case $$s in "$$chosen":*) shim=$${s#*:};; esac; \
	done; \
	echo "$(COPYBENCH) $(BENCH_ARGS)"; $(COPYBENCH) $(BENCH_ARGS) || status=1; \
	echo; echo "through the preload shim: $(COPYBENCH) $(BENCH_SHIM_CASES) -c $$shim:memcpy:overlap"; \
	$(COPYBENCH) $(BENCH_SHIM_CASES) -c $$shim:memcpy:overlap || status=1; \
	for v in $(BENCH_VARIANTS); do \
		isa=$${v%%:*} rest=$${v#*:}; flag=$${rest%%:*} rest=$${rest#*:}; \
		hide=$${rest%%:*} shim=; case $$rest in *:*) shim=$${rest#*:};; esac; \
		grep -qw "$$flag" /proc/cpuinfo || continue; \
		echo; echo "the $$isa variant: COPYPERF_ISA=$$isa GLIBC_TUNABLES=$$hide $(COPYBENCH) $(BENCH_VARIANT_CASES)"; \
		COPYPERF_ISA=$$isa GLIBC_TUNABLES=$$hide $(COPYBENCH) $(BENCH_VARIANT_CASES) || status=1; \
		[ -n "$$shim" ] || continue; \
		echo; echo "the $$isa variant through its preload shim: COPYPERF_ISA=$$isa GLIBC_TUNABLES=$$hide $(COPYBENCH) $(BENCH_SHIM_CASES) -c $$shim:memcpy:overlap"; \
		COPYPERF_ISA=$$isa GLIBC_TUNABLES=$$hide $(COPYBENCH) $(BENCH_SHIM_CASES) -c $$shim:memcpy:overlap || status=1; \
	done; \
	exit $$status

# ---- make bench-walk: chunk walks at every placement and in both loop shapes (not in make test) ----
WALK_GRID := $(BUILD)/bench/walk_grid
WALK_ARGS ?= memcpy copyperf_memcpy

$(BUILD)/bench/walk_grid.o: ALL_CFLAGS += -Isrc
$(WALK_GRID): $(BUILD)/bench/walk_grid.o $(BUILD)/bench/fresh_process.o $(addprefix $(BUILD)/src/,stats/stats.o xalloc.o measure/backends/shared_routine.o) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-walk
bench-walk: $(WALK_GRID)
	@echo "machine: $$(uname -srm), $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
		"$$(nproc) CPUs, glibc $$(ldd --version | head -1 | awk '{print $$NF}'); load: $$(cut -d' ' -f1-3 /proc/loadavg)"
	$(WALK_GRID) $(WALK_ARGS)

# ---- make bench-record: what COPYPERF_RECORD costs a call through the shim (not in make test) ----
RECORD_COST := $(BUILD)/bench/record_cost
RECORD_COST_ARGS ?= -p 15 -l

$(BUILD)/bench/record_cost.o: ALL_CFLAGS += -Isrc
$(RECORD_COST): $(BUILD)/bench/record_cost.o $(BUILD)/src/stats/stats.o $(BUILD)/src/xalloc.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-record
bench-record: $(RECORD_COST) $(PRELOAD_SO)
	@echo "machine: $$(uname -srm), $$(nproc) CPUs; load: $$(cut -d' ' -f1-3 /proc/loadavg)"
	$(RECORD_COST) $(RECORD_COST_ARGS) $(abspath $(PRELOAD_SO))

# The program itself (bad input, a short pooled run's tables and verdicts), not its numbers.
.PHONY: test-bench
test-bench: $(COPYBENCH) $(COPYBENCH_BROKEN) $(SHARED_ROUTINES) $(WALK_GRID)
	@tests/bench/run.sh $(COPYBENCH) $(COPYBENCH_BROKEN) $(SHARED_ROUTINES) $(WALK_GRID)
