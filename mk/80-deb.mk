# test-deb: lints the Debian packages `make deb` builds (Makefile), installs them into a clean
# Debian 12 root and boots the module DKMS built there in the QEMU guest of test-kernel
# (tests/deb/run.sh).
TEST_SUITES   += test-deb
DEB_TEST_PACKAGES  := lintian mmdebstrap $(KERNEL_TEST_PACKAGES) python3
TEST_PACKAGES += $(DEB_BUILD_PACKAGES) $(DEB_TEST_PACKAGES)

.PHONY: test-deb
test-deb: deb
	@scripts/ensure-packages.sh $(DEB_TEST_PACKAGES)
	@tests/deb/run.sh $(DEB_DIR)
