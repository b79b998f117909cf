# The module under a debug kernel (KASAN, UBSAN, lockdep, kmemleak, hardened usercopy, fault
# injection) built from Debian's linux-source-6.1 with scripts/kernel/x86_64-debug.config and
# cached under /var/cache/copyperf/x86_64-debug (scripts/kernel/kernel-tree.sh), booted in QEMU:
# the ordinary guest checks, a random storm from two processes, every allocation failing in
# turn, a caller killed mid-walk, unloads racing with measurements, a caller's threads changing
# its buffers mid-walk, a kmemleak scan; then a second boot whose module reads past a kmalloc on
# purpose, which KASAN must report.
TEST_SUITES += test-kernel-debug
KERNEL_DEBUG_PACKAGES := linux-source-6.1 make flex bison bc libssl-dev libelf-dev xz-utils \
	qemu-system-x86 busybox-static cpio
TEST_PACKAGES += $(KERNEL_DEBUG_PACKAGES)

# -Isrc: the race mode writes the test pattern (src/measure/engine/pattern.h) as the module does.
$(BUILD)/tests/kernel/ioctl_storm: tests/kernel/ioctl_storm.c include/uapi/copyperf_ioctl.h \
		src/measure/engine/pattern.h tests/kernel/routine_by_name.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -pthread -static $(LDFLAGS) -o $@ $<

.PHONY: test-kernel-debug
test-kernel-debug:
	@scripts/ensure-packages.sh $(KERNEL_DEBUG_PACKAGES)
	@$(MAKE) --no-print-directory BUILD=$(KERNEL_TEST_BUILD) STATIC=-static \
		$(KERNEL_TEST_BUILD)/copyperf $(KERNEL_TEST_BUILD)/tests/kernel/ioctl_cases \
		$(KERNEL_TEST_BUILD)/tests/kernel/ioctl_storm
	@tests/kernel-debug/run.sh $(KERNEL_TEST_BUILD)/copyperf \
		$(KERNEL_TEST_BUILD)/tests/kernel/ioctl_cases $(KERNEL_TEST_BUILD)/tests/kernel/ioctl_storm
