# The whole tree builds warning-free with gcc and clang, the ladders' layout holds in both
# builds, neither build's shims call a copy through their PLT, and the command's tests pass under AddressSanitizer and UndefinedBehaviorSanitizer.
TEST_SUITES   += test-warnings test-sanitize-cli
TEST_PACKAGES += clang libclang-rt-14-dev

# One sanitized build, at the usual optimisation, for the command's tests here and libcheck's
# in test-lib: the library's vector paths are checked as they are shipped.
SAN_BUILD := build/sanitize
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_MAKE   = $(MAKE) --no-print-directory -s BUILD=$(SAN_BUILD) EXTRA_CFLAGS="$(SAN_FLAGS)" \
	LDFLAGS="$(SAN_FLAGS)"

.PHONY: test-warnings test-sanitize-cli
test-warnings:
	@for cc in gcc clang; do \
		echo "building with $$cc -Werror"; \
		$(MAKE) --no-print-directory -s CC=$$cc BUILD=build/werror-$$cc EXTRA_CFLAGS=-Werror all \
			$$(echo $(UNIT_BIN) $(COPYPERF_BROKEN) $(COPYBENCH) $(PRELOAD_PROBE) $(PRELOAD_MIX) $(RECORD_COST) $(WALK_GRID) | \
				sed "s|$(BUILD)/|build/werror-$$cc/|g") || exit 1; \
		$(if $(LIB_LAYOUT),tests/lib/layout.sh build/werror-$$cc/$(LIB_SO_FILE) \
			build/werror-$$cc/$(notdir $(PRELOAD_SO)) $(addprefix build/werror-$$cc/,$(PRELOAD_HWCAPS)) \
			|| exit 1;) \
		tests/lib/no_copy_calls.sh build/werror-$$cc/$(notdir $(PRELOAD_SO)) \
			$(addprefix build/werror-$$cc/,$(PRELOAD_HWCAPS)) || exit 1; \
	done

# The two scripts at once, one a CPU, each to a log printed when both are done.
test-sanitize-cli: $(SHARED_ROUTINES) $(PRELOAD_SO) $(PROGRAM_COPIER) $(PROGRAM_BROKEN_SHIM)
	@$(SAN_MAKE) $(SAN_BUILD)/copyperf $(SAN_BUILD)/tests/copyperf-broken
	@export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1; \
	tests/cli/run.sh $(SAN_BUILD)/copyperf $(SAN_BUILD)/tests/copyperf-broken $(SHARED_ROUTINES) \
		>$(SAN_BUILD)/cli-tests.log 2>&1 & cli=$$!; \
	tests/program/run.sh $(SAN_BUILD)/copyperf $(PRELOAD_SO) $(PROGRAM_COPIER) \
		$(PROGRAM_BROKEN_SHIM) $(SHARED_ROUTINES) >$(SAN_BUILD)/program-tests.log 2>&1; program=$$?; \
	wait $$cli; cli=$$?; \
	cat $(SAN_BUILD)/cli-tests.log $(SAN_BUILD)/program-tests.log; \
	[ $$cli -eq 0 ] && [ $$program -eq 0 ]
