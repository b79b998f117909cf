# test-kernel: boots Debian's packaged kernel in QEMU and runs the module's tests inside it
# (tests/kernel/run.sh); `make kmod` builds the module (Makefile).
TEST_SUITES   += test-kernel
KERNEL_TEST_PACKAGES := linux-headers-amd64 qemu-system-x86 busybox-static cpio
TEST_PACKAGES += $(KERNEL_TEST_PACKAGES)

# The guest's programs: static, so the initramfs needs no C library.
KERNEL_TEST_BUILD := build/static

.PHONY: test-kernel
$(BUILD)/tests/kernel/ioctl_cases: tests/kernel/ioctl_cases.c tests/kernel/routine_by_name.h \
		include/uapi/copyperf_ioctl.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static $(LDFLAGS) -o $@ $<

test-kernel:
	@scripts/ensure-packages.sh $(KERNEL_TEST_PACKAGES)
	@$(MAKE) --no-print-directory BUILD=$(KERNEL_TEST_BUILD) STATIC=-static \
		$(KERNEL_TEST_BUILD)/copyperf $(KERNEL_TEST_BUILD)/tests/kernel/ioctl_cases
	@tests/kernel/run.sh $(KERNEL_TEST_BUILD)/copyperf $(KERNEL_TEST_BUILD)/tests/kernel/ioctl_cases
