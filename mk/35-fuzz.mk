# libFuzzer (clang) with AddressSanitizer and UndefinedBehaviorSanitizer, in test-fuzz:
#   fuzz_copy          libcopyperf's two functions against a byte loop, 10 s in three settings
#   fuzz_results       a results file as `plot` and `compare` read it
#   fuzz_options       the command line
#   fuzz_distribution  a -d distribution file
# The readers' fuzzers start from tests/fuzz/NAME/seeds and replay tests/fuzz/NAME/regressions
# (every input that ever failed) first; a new failure is copied there (tests/fuzz/run.sh).
TEST_SUITES   += test-fuzz
TEST_PACKAGES += clang libclang-rt-14-dev

FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_LINK  := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BIN   := $(FUZZ_BUILD)/tests/fuzz_copy
FUZZ_SECONDS ?= 10
FUZZ_READERS := results options distribution
FUZZ_READER_BINS := $(addprefix $(FUZZ_BUILD)/tests/fuzz_,$(FUZZ_READERS))
FUZZ_READER_SECONDS ?= 30
# The command's objects, built by clang with the fuzzing flags in FUZZ_BUILD.
FUZZ_CMD_OBJ := $(patsubst $(BUILD)/%,$(FUZZ_BUILD)/%,$(CMD_OBJ))

.PHONY: test-fuzz FORCE_LIB_FUZZ
FORCE_LIB_FUZZ:
	@$(MAKE) --no-print-directory CC=clang BUILD=$(FUZZ_BUILD) EXTRA_CFLAGS="$(FUZZ_FLAGS)" \
		CROSS_COMPILE= $(FUZZ_BUILD)/libcopyperf.a $(FUZZ_CMD_OBJ) >/dev/null

$(FUZZ_BIN): tests/fuzz/fuzz_copy.c FORCE_LIB_FUZZ
	@mkdir -p $(dir $@)
	clang -std=gnu11 $(WARNINGS) -Iinclude -O1 -g $(FUZZ_LINK) -o $@ $< $(FUZZ_BUILD)/libcopyperf.a

$(FUZZ_BUILD)/tests/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/input_file.h FORCE_LIB_FUZZ
	@mkdir -p $(dir $@)
	clang -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -Iinclude -Isrc -O1 -g $(FUZZ_LINK) -o $@ $< \
		$(FUZZ_CMD_OBJ) $(FUZZ_BUILD)/libcopyperf.a -lm

# fuzz_copy: defaults, then 'rep movsb' and non-temporal stores forced down to the smallest
# large size; then the readers.
test-fuzz: $(FUZZ_BIN) $(FUZZ_READER_BINS)
	@mkdir -p $(FUZZ_BUILD)/artifacts; passed=0; failed=0; \
	for env in "COPYPERF_ISA=" $(LIB_FORCED); do \
		if env $$env $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=64 \
			-artifact_prefix=$(FUZZ_BUILD)/artifacts/ -print_final_stats=1 \
			>$(FUZZ_BUILD)/fuzz.log 2>&1; then \
			passed=$$((passed + 1)); echo "ok   fuzz $(FUZZ_SECONDS) s, $$env:" \
			"$$(grep -o 'number_of_executed_units: *[0-9]*' $(FUZZ_BUILD)/fuzz.log)"; \
		else failed=$$((failed + 1)); echo "FAIL fuzz, $$env:"; \
			grep -E -A12 'ERROR|Test unit written' $(FUZZ_BUILD)/fuzz.log; fi; \
	done; echo "fuzz_copy: $$passed passed, $$failed failed"; \
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_READER_SECONDS) $(FUZZ_READERS) && test $$failed = 0
