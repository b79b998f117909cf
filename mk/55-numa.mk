# test-numa: --numa on a machine of two nodes, Debian's kernel in QEMU (tests/numa/run.sh). The
# guest runs the native copyperf (dynamically linked: it opens libnuma with dlopen).
TEST_SUITES   += test-numa
NUMA_TEST_PACKAGES := $(KERNEL_TEST_PACKAGES) libnuma1
TEST_PACKAGES += $(NUMA_TEST_PACKAGES)

.PHONY: test-numa
test-numa: $(COPYPERF)
	@scripts/ensure-packages.sh $(NUMA_TEST_PACKAGES)
	@tests/numa/run.sh $(COPYPERF)
