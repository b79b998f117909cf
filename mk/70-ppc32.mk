# The seed's platform in the kernel, from Debian's linux-source-6.1 (trees cached under
# /var/cache/copyperf/ppc32, see scripts/ppc32/kernel-tree.sh):
#   test-kmod-ppc32     the module built, warning-free, against mpc83xx_defconfig (the MPC8313)
#   test-kernel-ppc32   a pmac32 kernel booted in qemu-system-ppc, copyperf --kernel run there
TEST_SUITES    += test-kmod-ppc32 test-kernel-ppc32
PPC32_PACKAGES := linux-source-6.1 gcc-powerpc-linux-gnu libc6-dev-powerpc-cross make flex bison \
	bc libssl-dev libelf-dev xz-utils qemu-system-ppc cpio
TEST_PACKAGES  += $(PPC32_PACKAGES)
PPC32_BUILD    := build/powerpc-linux-gnu

# The guest's /init: Debian has no powerpc busybox, so a static C program does its work.
$(BUILD)/ppc32/guest-init: scripts/ppc32/guest-init.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static $(LDFLAGS) -o $@ $<

.PHONY: test-kmod-ppc32 test-kernel-ppc32
test-kmod-ppc32:
	@scripts/ensure-packages.sh $(PPC32_PACKAGES)
	@scripts/ppc32/test-kmod.sh

test-kernel-ppc32:
	@scripts/ensure-packages.sh $(PPC32_PACKAGES)
	@$(MAKE) --no-print-directory CROSS_COMPILE=powerpc-linux-gnu- \
		$(PPC32_BUILD)/copyperf $(PPC32_BUILD)/ppc32/guest-init
	@scripts/ppc32/test-kernel.sh $(PPC32_BUILD)/copyperf $(PPC32_BUILD)/ppc32/guest-init
