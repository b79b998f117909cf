# libcopyperf's own suites: the correctness program (natively, under ASan/UBSan, once per ISA
# and with each threshold forced), a libFuzzer run, the LD_PRELOAD shim; and `make bench`.
TEST_SUITES   += test-lib test-fuzz test-preload
TEST_PACKAGES += clang

# ---- the correctness suite: one plain C program, cross-buildable -----------------------------
LIBCHECK_SRC := $(wildcard tests/lib/*.c)
LIBCHECK_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIBCHECK_SRC))
LIBCHECK     := $(BUILD)/tests/libcheck

$(LIBCHECK): $(LIBCHECK_OBJ) $(LIB_A)
	$(CC) $(STATIC) $(LDFLAGS) -o $@ $^

# ISAs to force: those this CPU has (read from /proc/cpuinfo, as the kernel reports them).
LIB_ISAS = generic $(if $(filter x86_64,$(ARCH_DIR)),sse2 \
	$(if $(shell grep -qw avx2 /proc/cpuinfo && echo y),avx2) \
	$(if $(shell grep -w avx512f /proc/cpuinfo | grep -w avx512bw | grep -qw avx512vl && echo y),avx512))

# Each threshold path forced for every size above 8 vectors, so the small sizes reach it.
LIB_FORCED := "COPYPERF_REP_MOVSB_MIN=0 COPYPERF_REP_MOVSB_MAX=1G" \
	"COPYPERF_REP_MOVSB_MAX=0 COPYPERF_NT_THRESHOLD=0"

SANITIZE_BUILD := $(BUILD)/sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: test-lib
test-lib: $(LIBCHECK)
	@echo "== libcheck, defaults"; $(LIBCHECK) | tail -1
	@set -e; for env in $(LIB_FORCED); do echo "== libcheck, $$env"; \
		env $$env $(LIBCHECK) | tail -1; done
	@$(MAKE) --no-print-directory BUILD=$(SANITIZE_BUILD) EXTRA_CFLAGS="$(SANITIZE_FLAGS)" \
		LDFLAGS="$(SANITIZE_FLAGS)" $(SANITIZE_BUILD)/tests/libcheck >/dev/null
	@echo "== libcheck under ASan/UBSan"; $(SANITIZE_BUILD)/tests/libcheck | tail -1
	@set -e; for isa in $(LIB_ISAS); do echo "== libcheck, COPYPERF_ISA=$$isa"; \
		COPYPERF_ISA=$$isa $(LIBCHECK) | tail -1; done
