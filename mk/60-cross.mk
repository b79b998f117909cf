# Cross builds for the boards, run under qemu-user: powerpc (e300c3, the seed's MPC8313
# core, 32-byte lines, and an e500mc, 64-byte lines), aarch64 (two dc zva block sizes), ppc64le and riscv64.
#   make CROSS_COMPILE=powerpc-linux-gnu-    the library and a static copyperf in build/<target>/
#   make test-cross                          build, install and test every target
TEST_SUITES    += test-cross
CROSS_PACKAGES := qemu-user-static clang \
	gcc-powerpc-linux-gnu libc6-dev-powerpc-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
TEST_PACKAGES  += $(CROSS_PACKAGES)
CROSS_TARGETS  ?= powerpc-linux-gnu aarch64-linux-gnu powerpc64le-linux-gnu riscv64-linux-gnu

# The line-path counter test, linked against a library built with -DCOPYPERF_COUNT_LINES
# in a BUILD of its own (tests/cross/run.sh makes it for the PowerPC targets).
$(BUILD)/tests/line_count: $(BUILD)/tests/cross/line_count.o $(LIB_A)
	$(CC) $(STATIC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: test-cross
test-cross:
	@scripts/ensure-packages.sh $(CROSS_PACKAGES)
	@MAKE="$(MAKE)" tests/cross/run.sh $(CROSS_TARGETS)
