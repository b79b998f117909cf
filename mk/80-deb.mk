# Debian packages (debian/): `make deb` builds copyperf, libcopyperf0, libcopyperf-dev and
# copyperf-dkms into build/deb/; test-deb lints them, installs them into a clean Debian 12 root
# and boots the module DKMS built there in the QEMU guest of test-kernel (tests/deb/run.sh).
TEST_SUITES   += test-deb
DEB_DIR       := build/deb
DEB_BUILD_PACKAGES := debhelper dh-dkms dpkg-dev gcc make libc6-dev
DEB_TEST_PACKAGES  := lintian mmdebstrap $(KERNEL_TEST_PACKAGES) python3
TEST_PACKAGES += $(DEB_BUILD_PACKAGES) $(DEB_TEST_PACKAGES)

.PHONY: deb test-deb
deb:
	@scripts/ensure-packages.sh $(DEB_BUILD_PACKAGES)
	@scripts/deb/build.sh $(DEB_DIR) $(VERSION)

test-deb: deb
	@scripts/ensure-packages.sh $(DEB_TEST_PACKAGES)
	@tests/deb/run.sh $(DEB_DIR)
