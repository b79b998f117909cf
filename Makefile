# copyperf: the command, libcopyperf (static and shared) and their tests.
#
#   make                      build for this machine (or CROSS_COMPILE=powerpc-linux-gnu- ...)
#   make run                  build, then run the default sweep
#   make test                 every test suite (installs the Debian packages they need when root)
#   make install PREFIX=/usr/local DESTDIR= [LIBDIR=$(PREFIX)/lib]
#
# Slow suites have their own targets (see mk/*.mk); `make test` runs them all.

VERSION    := 0.1.0
CROSS_COMPILE ?=
CC         := $(if $(filter default,$(origin CC)),$(CROSS_COMPILE)gcc,$(CC))
AR         := $(if $(filter default,$(origin AR)),$(CROSS_COMPILE)ar,$(AR))
PREFIX     ?= /usr/local
# Debian's packages put the libraries in /usr/lib/<multiarch triplet>.
LIBDIR     ?= $(PREFIX)/lib
DESTDIR    ?=

TARGET     := $(shell $(CC) -dumpmachine 2>/dev/null)
ifeq ($(TARGET),)
$(error cannot run the compiler '$(CC)': install it, or set CC / CROSS_COMPILE)
endif
# The library's architecture directory, as in musl: its files override lib/generic/ by name.
ARCH_DIR   := $(strip \
	$(if $(filter x86_64-%,$(TARGET)),x86_64, \
	$(if $(filter aarch64-%,$(TARGET)),aarch64, \
	$(if $(filter powerpc64le-% powerpc64-%,$(TARGET)),powerpc64, \
	$(if $(filter powerpc-%,$(TARGET)),powerpc,generic)))))

# Native builds go to build/, cross builds to build/<target>/.
BUILD      ?= $(if $(CROSS_COMPILE),build/$(TARGET),build)

WARNINGS   := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS     ?= -O2 -g
ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -Iinclude $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
LDFLAGS    ?=
# Cross builds link the command statically, so it runs under qemu-user or on a board as is.
STATIC     := $(if $(CROSS_COMPILE),-static,)
# -pthread: -j's workers.
LDLIBS     := -lm -pthread

# ---- the library ---------------------------------------------------------------------------
GENERIC_SRC := $(wildcard lib/generic/*.c)
ARCH_SRC    := $(filter-out %/preload_entries.S,$(if $(filter generic,$(ARCH_DIR)),,$(wildcard lib/$(ARCH_DIR)/*.c lib/$(ARCH_DIR)/*.S)))
ARCH_NAMES  := $(basename $(notdir $(ARCH_SRC)))
LIB_SRC     := lib/registry.c lib/cache_info.c lib/text.c $(ARCH_SRC) \
	$(filter-out $(addprefix lib/generic/,$(addsuffix .c,$(ARCH_NAMES))),$(GENERIC_SRC)) \
	$(LIB_EXTRA_SRC)
LIB_OBJ     := $(patsubst %,$(BUILD)/%.o,$(basename $(LIB_SRC)))
LIB_A       := $(BUILD)/libcopyperf.a
# The shared library's ABI is VERSION's major number: libcopyperf.so.0 is the SONAME, the file
# libcopyperf.so.0.1.0, and libcopyperf.so the link a build finds with -lcopyperf.
SO_MAJOR    := $(firstword $(subst ., ,$(VERSION)))
LIB_SONAME  := libcopyperf.so.$(SO_MAJOR)
LIB_SO_FILE := libcopyperf.so.$(VERSION)
LIB_SO      := $(BUILD)/libcopyperf.so
# Only include/copyperf.h's functions are exported, under the version node COPYPERF_<major>
# (test-abi holds the map to the header).
LIB_MAP     := lib/libcopyperf.map

# ---- the LD_PRELOAD shim -------------------------------------------------------------------
# libcopyperf-preload.so: the library's copies in place of the C library's memcpy and memmove,
# for any program, which need not be rebuilt (lib/preload.c).
PRELOAD_SO  := $(BUILD)/libcopyperf-preload.so
# The recorder behind COPYPERF_RECORD is the shim's alone: libcopyperf has no calls to count.
PRELOAD_OBJ := $(BUILD)/lib/preload.o $(BUILD)/lib/record.o $(BUILD)/lib/record_file.o
# Where the architecture lays out the shim's memcpy and memmove itself (lib/preload.c says how).
PRELOAD_ENTRIES := $(if $(filter generic,$(ARCH_DIR)),,$(wildcard lib/$(ARCH_DIR)/preload_entries.S))
PRELOAD_OBJ += $(patsubst %.S,$(BUILD)/%.o,$(PRELOAD_ENTRIES))
PRELOAD_MAP := lib/preload.map
# On x86-64 a shim for each ladder besides the first's, for the CPUs whose variant it is: in
# glibc-hwcaps/LEVEL/ beside the first, where the dynamic loader looks before the first's
# directory for a shim preloaded by its name alone on a CPU of that level, and where `copyperf
# program` looks on a CPU whose library copies with that variant. LEVEL:VARIANT:VECTORS (the
# ladder's vectors, lib/x86_64/vec_ladder.inc), the best level first: AVX2 for x86-64-v3,
# SSE2 for x86-64-v2 (lib/x86_64/preload_entries.S). x86-64-v4/ holds a link to the first,
# which CPUs with AVX-512 would otherwise pass over.
PRELOAD_LEVELS := $(if $(filter x86_64,$(ARCH_DIR)),x86-64-v3:avx2:AVX2_VECTORS \
	x86-64-v2:sse2:SSE2_VECTORS)
preload_level = $(word $(2),$(subst :, ,$(1)))
# A level's shim, from the top of its tree (LEVEL:VARIANT:VECTORS, or a level's name).
preload_level_file = glibc-hwcaps/$(call preload_level,$(1),1)/libcopyperf-preload.so
PRELOAD_HWCAPS := $(foreach l,$(PRELOAD_LEVELS),$(call preload_level_file,$(l)))
PRELOAD_V4     := $(if $(PRELOAD_LEVELS),$(call preload_level_file,x86-64-v4))
PRELOAD_LEVEL_SO := $(addprefix $(BUILD)/,$(PRELOAD_HWCAPS))
PRELOAD_V4_LINK := $(addprefix $(BUILD)/,$(PRELOAD_V4))
# VARIANT:FILE for each, as the tests and make bench take them.
PRELOAD_LEVEL_SPECS := $(foreach l,$(PRELOAD_LEVELS),$(call preload_level,$(l),2):$(BUILD)/$(call \
	preload_level_file,$(l)))
# Loaded by path, never linked: Debian's packages keep it in a directory of its own.
PRELOADDIR  ?= $(LIBDIR)

# ---- the command ---------------------------------------------------------------------------
CMD_SRC     := $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c src/*/*/*.c))
CMD_OBJ     := $(patsubst %.c,$(BUILD)/%.o,$(CMD_SRC))
MAIN_OBJ    := $(BUILD)/src/main.o
COPYPERF    := $(BUILD)/copyperf

.PHONY: all run test install uninstall clean help
all: $(COPYPERF) $(LIB_A) $(LIB_SO) $(BUILD)/$(LIB_SONAME) $(PRELOAD_SO) $(PRELOAD_LEVEL_SO) \
	$(PRELOAD_V4_LINK)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(BUILD)/src/%.o: ALL_CFLAGS += -Isrc -pthread
# libnuma and routines from shared objects are loaded with dlopen (src/measure/placement/numa.c,
# src/measure/backends/shared_routine.c), which a static program cannot do.
# src/program/run.c loads the preload shim to check it; a static program reads its ELF header.
$(BUILD)/src/measure/placement/numa.o $(BUILD)/src/measure/backends/shared_routine.o \
	$(BUILD)/src/program/run.o: ALL_CFLAGS += $(if $(STATIC),-DCOPYPERF_NO_DLOPEN)
# `copyperf program` preloads the installed shim when none is built beside it, and the shim
# of the variant the library chose where PRELOAD_LEVELS has one ("VARIANT:LEVEL ...").
$(BUILD)/src/builtin-program.o: ALL_CFLAGS += -DCOPYPERF_PRELOADDIR='"$(PRELOADDIR)"' \
	-DCOPYPERF_PRELOAD_LEVELS='"$(foreach l,$(PRELOAD_LEVELS),$(call preload_level,$(l),2):$(call \
	preload_level,$(l),1) )"'

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/$(LIB_SO_FILE): $(LIB_OBJ) $(LIB_MAP)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=$(LIB_MAP) $(LDFLAGS) \
		-o $@ $(LIB_OBJ)

$(BUILD)/$(LIB_SONAME) $(LIB_SO): $(BUILD)/$(LIB_SO_FILE)
	ln -sf $(LIB_SO_FILE) $@

# The C library's string functions are what the shim replaces: do not let the compiler call them.
$(PRELOAD_OBJ): ALL_CFLAGS += -fno-builtin
$(BUILD)/lib/preload.o: ALL_CFLAGS += $(if $(PRELOAD_ENTRIES),-DCOPYPERF_PRELOAD_ENTRIES)
# Never unloaded (-z nodelete): a thread that exits after a dlclose would call the
# recorder's thread-exit handler in unmapped code.
PRELOAD_LINK = $(CC) -shared -Wl,-soname,libcopyperf-preload.so -Wl,-z,nodelete \
	-Wl,--version-script=$(PRELOAD_MAP) $(LDFLAGS) -o $@ $(filter %.o,$^)
$(PRELOAD_SO): $(PRELOAD_OBJ) $(LIB_OBJ) $(PRELOAD_MAP)
	$(PRELOAD_LINK)

# A level's shim (LEVEL:VARIANT:VECTORS): its entries' object and the shim.
define PRELOAD_LEVEL_RULES
$(BUILD)/lib/x86_64/preload_entries_$(call preload_level,$(1),2).o: lib/x86_64/preload_entries.S
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) -DCOPYPERF_PRELOAD_VARIANT=$(call preload_level,$(1),2) \
		-DCOPYPERF_PRELOAD_VECTORS=$(call preload_level,$(1),3) -fPIC -MMD -MP -c $$< -o $$@

$(BUILD)/$(call preload_level_file,$(1)): $(filter-out %/preload_entries.o,$(PRELOAD_OBJ)) \
		$(BUILD)/lib/x86_64/preload_entries_$(call preload_level,$(1),2).o $(LIB_OBJ) $(PRELOAD_MAP)
	@mkdir -p $$(dir $$@)
	$$(PRELOAD_LINK)
endef
$(foreach l,$(PRELOAD_LEVELS),$(eval $(call PRELOAD_LEVEL_RULES,$(l))))
$(if $(PRELOAD_V4_LINK),$(eval $(PRELOAD_V4_LINK): | $(PRELOAD_SO); @mkdir -p $$(dir $$@) && \
	ln -sfn ../../libcopyperf-preload.so $$@))

$(COPYPERF): $(MAIN_OBJ) $(CMD_OBJ) $(LIB_A)
	$(CC) $(STATIC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The shipped distributions (data/distributions/): the command looks for them beside itself
# (<prefix>/share), then in DATADIR, then in this tree.  Those two paths are compiled into the
# object that searches for them; the stamp holds them, so that a new PREFIX or a moved tree
# rebuilds it (a change of flags alone would not).
DATADIR    := $(PREFIX)/share/copyperf
DIST_DATA  := $(wildcard data/distributions/*.csv) $(addprefix data/distributions/,LICENSE SOURCE)
DIST_OBJ   := $(BUILD)/src/measure/call_mixes/distribution_files.o
DIST_STAMP := $(BUILD)/src/measure/call_mixes/distribution_files.paths
# SOURCE_DATA= (as the Debian packages build) leaves the tree out of a command that is shipped.
SOURCE_DATA ?= $(CURDIR)/data
DIST_PATHS := $(DATADIR) $(SOURCE_DATA)
$(DIST_OBJ): ALL_CFLAGS += -DCOPYPERF_DATADIR_DEFAULT='"$(DATADIR)"' \
	$(if $(SOURCE_DATA),-DCOPYPERF_SOURCE_DATA='"$(SOURCE_DATA)"')
$(DIST_OBJ): $(DIST_STAMP)
$(DIST_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(DIST_PATHS)' | cmp -s - $@ 2>/dev/null || echo '$(DIST_PATHS)' >$@

.PHONY: FORCE
FORCE:

run: $(COPYPERF)
	$(COPYPERF)

help:
	@echo 'make              the command, the library and the preload shim, in build/'
	@echo 'make run          the seed'"'"'s sweep with every routine (the main job)'
	@echo 'make check        the quick suites: $(CHECK_SUITES)'
	@echo 'make test         every test suite (installs the Debian packages they need)'
	@echo 'make test-SUITE   one of: $(sort $(CHECK_SUITES) $(TEST_SUITES))'
	@echo 'make bench        libcopyperf against the C library, then through the preload shim (BENCHMARKS.md)'
	@echo 'make bench-apps   real programs without and with the preload shim (docs/bench-apps.md)'
	@echo 'make install      under PREFIX (default /usr/local), LIBDIR, DESTDIR; make uninstall'
	@echo 'make deb          the Debian packages, in build/deb/'
	@echo 'make kmod         the kernel module for KDIR (default: the running kernel)'

# ---- install -------------------------------------------------------------------------------
define PC_FILE
prefix=$(PREFIX)
libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
includedir=$${prefix}/include

Name: copyperf
Description: memory-copy routines measured, explained and beaten
Version: $(VERSION)
Libs: -L$${libdir} -lcopyperf
Cflags: -I$${includedir}
endef
export PC_FILE

# Into the system itself (no DESTDIR, as root), the loader must learn of the library's change:
# packages do this by trigger.
LDCONFIG_INTO_SYSTEM = @if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
	command -v ldconfig >/dev/null; then echo ldconfig; ldconfig; fi

# <copyperf_ioctl.h>, the module's ABI, goes beside <copyperf.h> (in libcopyperf-dev): for
# programs of one's own that talk to /dev/copyperf.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(COPYPERF) $(DESTDIR)$(PREFIX)/bin/copyperf
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libcopyperf.a
	install -m 644 $(BUILD)/$(LIB_SO_FILE) $(DESTDIR)$(LIBDIR)/$(LIB_SO_FILE)
	ln -sf $(LIB_SO_FILE) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libcopyperf.so
	install -m 644 include/copyperf.h $(DESTDIR)$(PREFIX)/include/copyperf.h
	install -D -m 644 $(PRELOAD_SO) $(DESTDIR)$(PRELOADDIR)/libcopyperf-preload.so
	$(if $(PRELOAD_HWCAPS),$(foreach f,$(PRELOAD_HWCAPS),install -D -m 644 $(BUILD)/$(f) \
		$(DESTDIR)$(PRELOADDIR)/$(f) &&) true)
	$(if $(PRELOAD_V4),install -d $(DESTDIR)$(PRELOADDIR)/$(dir $(PRELOAD_V4)) && \
		ln -sfn ../../libcopyperf-preload.so $(DESTDIR)$(PRELOADDIR)/$(PRELOAD_V4))
	install -m 644 include/uapi/copyperf_ioctl.h $(DESTDIR)$(PREFIX)/include/copyperf_ioctl.h
	install -D -m 644 copyperf.1 $(DESTDIR)$(PREFIX)/share/man/man1/copyperf.1
	printf '%s\n' "$$PC_FILE" > $(BUILD)/copyperf.pc
	install -m 644 $(BUILD)/copyperf.pc $(DESTDIR)$(LIBDIR)/pkgconfig/copyperf.pc
	install -d $(DESTDIR)$(DATADIR)/distributions
	install -m 644 $(DIST_DATA) $(DESTDIR)$(DATADIR)/distributions/
	$(LDCONFIG_INTO_SYSTEM)

# What install wrote, and its directories where they are left empty; not a system directory.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/copyperf $(DESTDIR)$(LIBDIR)/libcopyperf.a \
		$(DESTDIR)$(LIBDIR)/$(LIB_SO_FILE) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) \
		$(DESTDIR)$(LIBDIR)/libcopyperf.so $(DESTDIR)$(PREFIX)/include/copyperf.h \
		$(DESTDIR)$(PRELOADDIR)/libcopyperf-preload.so \
		$(addprefix $(DESTDIR)$(PRELOADDIR)/,$(PRELOAD_HWCAPS) $(PRELOAD_V4)) \
		$(DESTDIR)$(PREFIX)/include/copyperf_ioctl.h $(DESTDIR)$(PREFIX)/share/man/man1/copyperf.1 \
		$(DESTDIR)$(LIBDIR)/pkgconfig/copyperf.pc \
		$(addprefix $(DESTDIR)$(DATADIR)/distributions/,$(notdir $(DIST_DATA)))
	-rmdir $(DESTDIR)$(DATADIR)/distributions $(DESTDIR)$(DATADIR) 2>/dev/null
	-$(if $(PRELOAD_HWCAPS),cd $(DESTDIR)$(PRELOADDIR) && rmdir $(dir $(PRELOAD_HWCAPS) \
		$(PRELOAD_V4)) glibc-hwcaps 2>/dev/null)
	$(LDCONFIG_INTO_SYSTEM)

clean:
	rm -rf build

# ---- the kernel module and the Debian packages -----------------------------------------------
# The module against the running kernel, or KDIR=... ARCH=... CROSS_COMPILE=... (kmod/).
KDIR ?= /lib/modules/$(shell uname -r)/build

.PHONY: kmod kmod-clean deb
kmod:
	@test -f $(KDIR)/Makefile || { echo "kmod: no kernel build tree at $(KDIR)" \
		"(install this kernel's headers, or give KDIR=/path/to/kernel/build)" >&2; exit 2; }
	$(MAKE) -C kmod KDIR=$(KDIR) $(if $(ARCH),ARCH=$(ARCH)) \
		$(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE))

kmod-clean:
	$(MAKE) -C kmod KDIR=$(KDIR) clean

# copyperf, libcopyperf0, libcopyperf-dev and copyperf-dkms (debian/), into build/deb/.
DEB_DIR            := build/deb
DEB_BUILD_PACKAGES := debhelper dh-dkms dpkg-dev gcc make libc6-dev
deb:
	@scripts/ensure-packages.sh $(DEB_BUILD_PACKAGES)
	@scripts/deb/build.sh $(DEB_DIR) $(VERSION)

# ---- tests ---------------------------------------------------------------------------------
# Each mk/*.mk adds its suites to CHECK_SUITES (quick: no package installs, no kernels, no
# cross builds) or TEST_SUITES (the rest), and its Debian packages to TEST_PACKAGES; the
# numbers in their names put the quick suites first.
CHECK_SUITES  :=
TEST_SUITES   :=
TEST_PACKAGES := python3
include mk/*.mk

.PHONY: test-deps check test
test-deps:
	@scripts/ensure-packages.sh $(sort $(TEST_PACKAGES))

# The suites in $(1), one after the other, so their output stays readable; a failing suite
# does not stop the others. Each suite ends with its verdict and its wall time, so a slow
# gate shows which suite to look at, and the last line counts them.
define run_suites
	@passed=0; failed=0; failures=; \
	for s in $(1); do \
		echo "==== make $$s"; start=$$(date +%s); \
		if $(MAKE) --no-print-directory $$s; then passed=$$((passed + 1)); verdict=passed; \
		else failed=$$((failed + 1)); failures="$$failures $$s"; verdict=FAILED; fi; \
		echo "==== make $$s: $$verdict in $$(( $$(date +%s) - start )) s"; \
	done; \
	[ -z "$$failures" ] || echo "==== failed:$$failures"; \
	echo "test suites: $$passed passed, $$failed failed"; \
	[ "$$failed" -eq 0 ]
endef

# The everyday loop: unit, command-line, library and ABI tests, in a few minutes.
check:
	$(call run_suites,$(CHECK_SUITES))

# The whole gate: make check's suites first, then the others.
test: test-deps
	$(call run_suites,$(CHECK_SUITES) $(TEST_SUITES))

# Files only: test-deb unpacks a Debian root under build/, whose /etc/rc2.d is a directory.
-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
