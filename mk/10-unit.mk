# Unit tests (cmocka) of the command's parts, and the command-line tests (--plot needs gnuplot).
CHECK_SUITES  += test-unit test-cli
# libnuma1: the --numa tests (copyperf loads libnuma.so.1 with dlopen, it does not link it).
TEST_PACKAGES += libcmocka-dev libnuma1 gnuplot-nox

# test_x86_tuning.c, test_masked_fits.c: the x86-64 thresholds and page test, where the library has them.
UNIT_X86   := tests/unit/test_x86_tuning.c tests/unit/test_masked_fits.c
UNIT_SRC   := $(filter-out $(if $(filter x86_64,$(ARCH_DIR)),,$(UNIT_X86)),\
	$(wildcard tests/unit/test_*.c))
UNIT_BIN   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
# A copyperf with a deliberately wrong routine registered, to prove verification catches it.
COPYPERF_BROKEN := $(BUILD)/tests/copyperf-broken

$(BUILD)/tests/%.o: ALL_CFLAGS += -Isrc
$(BUILD)/tests/test_%: $(BUILD)/tests/unit/test_%.o $(CMD_OBJ) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

$(COPYPERF_BROKEN): $(MAIN_OBJ) $(BUILD)/tests/broken_routine.o $(CMD_OBJ) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Copies in a shared object of their own, for -r FILE:SYMBOL (and copybench's -c and -C).
SHARED_ROUTINES := $(BUILD)/tests/shared_routines.so
$(SHARED_ROUTINES): tests/shared_routines.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -fPIC -o $@ $<

# A preloaded malloc that fails the Nth allocation: test-cli fails each in turn.
FAIL_ALLOC := $(BUILD)/tests/fail_alloc.so
$(FAIL_ALLOC): tests/cli/fail_alloc.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -fPIC -o $@ $<

.PHONY: test-unit test-cli
test-unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $$t; done

test-cli: $(COPYPERF) $(COPYPERF_BROKEN) $(SHARED_ROUTINES) $(FAIL_ALLOC)
	@tests/cli/run.sh $(COPYPERF) $(COPYPERF_BROKEN) $(SHARED_ROUTINES) $(FAIL_ALLOC)
