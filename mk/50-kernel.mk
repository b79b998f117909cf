# The kernel module: `make kmod` (against the running kernel, or KDIR=... ARCH=...
# CROSS_COMPILE=...), and test-kernel, which boots Debian's packaged kernel in QEMU
# and runs the module's tests inside it (tests/kernel/run.sh).
TEST_SUITES   += test-kernel
KERNEL_TEST_PACKAGES := linux-headers-amd64 qemu-system-x86 busybox-static cpio
TEST_PACKAGES += $(KERNEL_TEST_PACKAGES)

KDIR ?= /lib/modules/$(shell uname -r)/build
# The guest's programs: static, so the initramfs needs no C library.
KERNEL_TEST_BUILD := build/static

.PHONY: kmod kmod-clean test-kernel
kmod:
	@test -f $(KDIR)/Makefile || { echo "kmod: no kernel build tree at $(KDIR)" \
		"(install this kernel's headers, or give KDIR=/path/to/kernel/build)" >&2; exit 2; }
	$(MAKE) -C kmod KDIR=$(KDIR) $(if $(ARCH),ARCH=$(ARCH)) \
		$(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE))

kmod-clean:
	$(MAKE) -C kmod KDIR=$(KDIR) clean

$(BUILD)/tests/kernel/ioctl_cases: tests/kernel/ioctl_cases.c tests/kernel/routine_by_name.h \
		include/uapi/copyperf_ioctl.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static $(LDFLAGS) -o $@ $<

test-kernel:
	@scripts/ensure-packages.sh $(KERNEL_TEST_PACKAGES)
	@$(MAKE) --no-print-directory BUILD=$(KERNEL_TEST_BUILD) STATIC=-static \
		$(KERNEL_TEST_BUILD)/copyperf $(KERNEL_TEST_BUILD)/tests/kernel/ioctl_cases
	@tests/kernel/run.sh $(KERNEL_TEST_BUILD)/copyperf $(KERNEL_TEST_BUILD)/tests/kernel/ioctl_cases
