# What copyperf makes of its results: plot, compare, the progress line, --counters, the manual.
CHECK_SUITES  += test-results
# gnuplot draws the plots, mandoc lints the manual, script (bsdutils) gives a pseudo-terminal.
TEST_PACKAGES += gnuplot-nox mandoc bsdutils python3

.PHONY: test-results
test-results: $(COPYPERF)
	@tests/results/run.sh $(COPYPERF)
