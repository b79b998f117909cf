# make install, checked from the outside: DESTDIR, PREFIX, pkg-config, static and shared, and
# the shipped distributions found by an installed command.
TEST_SUITES   += test-install
TEST_PACKAGES += pkgconf

.PHONY: test-install
test-install:
	@CC="$(CC)" MAKE="$(MAKE)" tests/install/run.sh
