# `copyperf program`: a real program timed without and with the preload shim, on programs of
# the tests' own: one that copies, one that does not, one that fails, and a shim that copies
# one size wrongly.
CHECK_SUITES += test-program

PROGRAM_COPIER := $(BUILD)/tests/copier
PROGRAM_BROKEN_SHIM := $(BUILD)/tests/broken_shim.so

$(PROGRAM_COPIER): tests/program/copier.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fno-builtin $(LDFLAGS) -o $@ $<

# Its byte loops stay loops: a compiler would make them the memmove call they define.
$(PROGRAM_BROKEN_SHIM): tests/program/broken_shim.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fno-builtin -fno-tree-loop-distribute-patterns -shared -fPIC -o $@ $<

.PHONY: test-program
test-program: $(COPYPERF) $(PRELOAD_SO) $(PRELOAD_LEVEL_SO) $(PRELOAD_V4_LINK) $(PROGRAM_COPIER) $(PROGRAM_BROKEN_SHIM) $(SHARED_ROUTINES)
	@tests/program/run.sh $(COPYPERF) $(PRELOAD_SO) $(PROGRAM_COPIER) $(PROGRAM_BROKEN_SHIM) \
		$(SHARED_ROUTINES)
