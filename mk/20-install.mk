# make install, checked from the outside: DESTDIR, PREFIX, pkg-config, static and shared, and
# the shipped distributions found by an installed command.
TEST_SUITES   += test-install
TEST_PACKAGES += pkgconf

# Finds the distributions as the command does, until the command has -d (see run.sh).
DIST_FINDER := $(BUILD)/tests/find_distributions
$(DIST_FINDER): $(BUILD)/tests/install/find_distributions.o $(DIST_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: test-install
test-install:
	@INSTALL_CHECK_EXTRA="$(INSTALL_CHECK_EXTRA)" CC="$(CC)" MAKE="$(MAKE)" \
		DIST_FINDER="$(DIST_FINDER)" tests/install/run.sh
