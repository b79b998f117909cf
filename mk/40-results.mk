# What copyperf makes of its results: plot, compare, the progress line, --counters, the manual.
TEST_SUITES   += test-results
# gnuplot draws the plots, mandoc lints the manual, script (bsdutils) gives a pseudo-terminal.
TEST_PACKAGES += gnuplot-nox mandoc bsdutils python3

# The trailing ';' lets other fragments append their own commands to the same recipe line.
INSTALL_EXTRA += install -D -m 644 copyperf.1 $(DESTDIR)$(PREFIX)/share/man/man1/copyperf.1;
INSTALL_CHECK_EXTRA += share/man/man1/copyperf.1
UNINSTALL_EXTRA += rm -f $(DESTDIR)$(PREFIX)/share/man/man1/copyperf.1;

.PHONY: test-results
test-results: $(COPYPERF)
	@tests/results/run.sh $(COPYPERF)
