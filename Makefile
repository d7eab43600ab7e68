# SPDX-License-Identifier: GPL-2.0-only
#
# pagehop: one entry point.
#
#   make / make all   build the command (build/pagehop) and the unit tests
#   make run          install what is missing, build the command alone (not
#                     the tests: cmocka is installed by check only), run the
#                     default job
#   make check        install what the tests need, build with gcc, run unit
#                     tests (plain, and under ASan+UBSan built by clang),
#                     host and VM tests
#   make install      install the command, the man page, contrib/ (Slurm, NHC,
#                     Prometheus; docs/diagnostics.md) and the module (dkms
#                     when present, else /lib/modules/KVER/extra + depmod)
#   make install-kmod the module alone
#   make deb          the Debian packages pagehop and pagehop-dkms, built
#                     in a copy of the tree, into BUILD/deb/
#   make kmod         build pagehop.ko against KVER (default: running kernel)
#   make load/unload  insmod / rmmod the module built for the running kernel
#   make clean
#
# Variables: CC, BUILD (output directory), CFLAGS (optimisation, sanitizers),
# KVER, PREFIX, DESTDIR.

ifeq ($(origin CC),default)
CC       := gcc
endif
BUILD    ?= build
V        ?= 0
CFLAGS   ?= -O2 -g
PREFIX   ?= /usr/local
KVER     ?= $(shell uname -r)
KDIR     ?= /lib/modules/$(KVER)/build

PKGS     := numa hwloc libcpuid json-c
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Iinclude $(USER_DIRS:%=-I%) -Ikernels \
             $(PKG_CFLAGS) -MMD -MP
LDLIBS     = $(PKG_LIBS) -lpfm -lpthread -lm

# The OpenMP runtime's lock for 'pagehop locks' (user/study/locks_omp.c,
# the one file built against it): when this compiler has <omp.h> and
# libgomp links.  Without it the omp kind is refused (exit 4).
HAVE_OMP := $(shell printf '\043include <omp.h>\nint main(void){omp_lock_t l;omp_init_lock(&l);return 0;}\n' | \
	$(CC) -x c - -o /dev/null -lgomp >/dev/null 2>&1 && echo y)
ifeq ($(HAVE_OMP),y)
LDLIBS    += -lgomp
$(BUILD)/obj/user/study/locks_omp.o: ALL_CFLAGS += -DPAGEHOP_HAVE_OMP
endif

# user/ by layer (README.md, "Layout"): cli over study over service over
# analysis over io and machine over base; each folder is on the include path.
USER_DIRS   := user/cli user/study user/service user/analysis user/io user/machine user/base
USER_SRCS   := $(filter-out user/cli/main.c,$(wildcard $(USER_DIRS:%=%/*.c)))
KERNEL_SRCS := $(wildcard kernels/*.c)
LIB_OBJS    := $(patsubst %.c,$(BUILD)/obj/%.o,$(USER_SRCS) $(KERNEL_SRCS))
MAIN_OBJ    := $(BUILD)/obj/user/cli/main.o
LIB         := $(BUILD)/libpagehop.a

UNIT_SRCS   := $(wildcard tests/unit/test_*.c)
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

# The test build, BUILD/test/pagehop: the command with its test hooks
# (-DPAGEHOP_TEST_HOOKS: PAGEHOP_FAULT_INJECT), for the tests that make a
# verification fail on purpose.  Never installed: the shipping BUILD/pagehop
# has no hook (tests/host/test_hooks.sh).  Only the sources that have a
# hook are compiled twice.
HOOK_SRCS   := $(shell grep -l PAGEHOP_TEST_HOOKS $(USER_SRCS))
HOOK_OBJS   := $(patsubst %.c,$(BUILD)/obj-hooks/%.o,$(HOOK_SRCS))
TEST_BIN    := $(BUILD)/test/pagehop

# Helper programs the QEMU guests run: build/vm/NAME from the files of
# tests/vm/guest/NAME/, each linked with the test harness and the helpers
# they share (tests/vm/guest/lib).
VM_SUITES      := kmodtest kwalk
VM_LIB_SRCS    := $(wildcard tests/vm/guest/lib/*.c)
VM_LIB_DEPS    := $(VM_LIB_SRCS) $(wildcard tests/vm/guest/lib/*.h)
VM_HELPERS     := $(VM_SUITES:%=$(BUILD)/vm/%)

# The ABI version: dkms packages the module under it (dkms.conf).
PAGEHOP_API := $(shell sed -n 's/^\#define PAGEHOP_API_VERSION[[:space:]]*\([0-9]*\).*/\1/p' include/uapi/pagehop.h)
DKMS_SRC    := $(DESTDIR)/usr/src/pagehop-$(PAGEHOP_API)

# pagehop.ko is built out of tree in a copy per kernel, so that one tree can
# hold modules for several kernels at once (the guests boot 6.1 and 6.12).
KMOD_OUT    = $(BUILD)/kmod/$(KVER)

.PHONY: deb all run check unit unit-asan clang host-tests vm-tests structure dkms-test \
        install install-kmod install-contrib-files uninstall kmod load unload clean deps deps-check

all: $(BUILD)/pagehop $(TEST_BIN) $(UNIT_BINS) $(VM_HELPERS)

# Quiet by default, as Kbuild is; V=1 shows the commands.
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/pagehop: $(MAIN_OBJ) $(LIB)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj-hooks/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -DPAGEHOP_TEST_HOOKS -c -o $@ $<

# The hooked objects come first: the linker then takes no member of the
# library that defines the same symbols.
$(TEST_BIN): $(MAIN_OBJ) $(HOOK_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(LIB) $(LDLIBS) -lcmocka

$(foreach s,$(VM_SUITES),$(eval $(BUILD)/vm/$(s): $(wildcard tests/vm/guest/$(s)/*.[ch])))
$(VM_HELPERS): $(VM_LIB_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -Itests/vm/guest/lib -o $@ $(filter %.c,$^) $(LIB) $(LDLIBS)

-include $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(HOOK_OBJS:.o=.d) $(UNIT_BINS:=.d)

kmod:
	@test -d $(KDIR) || { echo "pagehop: no kernel headers at $(KDIR): apt-get install linux-headers-$(KVER)" >&2; exit 4; }
	@rm -rf $(KMOD_OUT) && mkdir -p $(KMOD_OUT)/include
	@cp -r kmod $(KMOD_OUT)/ && cp -r include/uapi $(KMOD_OUT)/include/
	$(MAKE) -C $(KDIR) M=$(abspath $(KMOD_OUT))/kmod PAGEHOP_WERROR=y modules

load: kmod
	insmod $(KMOD_OUT)/kmod/pagehop.ko

unload:
	rmmod pagehop

deps:
	@bash scripts/install-deps.sh run

deps-check:
	@bash scripts/install-deps.sh check

# The default job: the survey a user runs first.  Only what it runs is
# built: the unit tests need cmocka, which "make deps" does not install
# (tests/host/test_make_run.sh checks it).
run: deps
	@$(MAKE) --no-print-directory $(BUILD)/pagehop
	$(BUILD)/pagehop

unit: all
	@bash tests/unit/run.sh $(BUILD)/tests

# The same unit tests under AddressSanitizer and UndefinedBehaviorSanitizer,
# built by clang where clang is installed: that one build is also the
# -Werror build under clang (every source, as "make clang" compiles them),
# so "make check" compiles the tree twice, not three times.
# Objects of one compiler never link with the other's sanitizer runtime:
# build/asan/.cc names the compiler it holds, and another one starts afresh.
ASAN_CC  := $(shell command -v clang >/dev/null && echo clang || echo $(CC))
ASAN_DIR := build/asan
unit-asan:
	@if [ "$$(cat $(ASAN_DIR)/.cc 2>/dev/null)" != "$(ASAN_CC)" ]; then \
		rm -rf $(ASAN_DIR) && mkdir -p $(ASAN_DIR) && echo $(ASAN_CC) >$(ASAN_DIR)/.cc; fi
	@$(MAKE) --no-print-directory BUILD=$(ASAN_DIR) CC=$(ASAN_CC) \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" all
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		bash tests/unit/run.sh $(ASAN_DIR)/tests

# -Werror under clang too, where clang is installed.
clang:
	@if command -v clang >/dev/null; then \
		$(MAKE) --no-print-directory BUILD=build/clang CC=clang all; \
	else echo "clang not installed: skipping the clang build"; fi

host-tests: all
	@bash tests/host/run.sh $(BUILD)/pagehop

vm-tests: all
	@bash tests/vm/run.sh

check: deps-check
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory unit-asan
	@$(MAKE) --no-print-directory host-tests
	@$(MAKE) --no-print-directory vm-tests
	@$(MAKE) --no-print-directory structure
	@echo "make check: all tests passed"

# The shape of the tree, with the module's calls (the guests built it):
# no dependency cycle, no import up the layers (scripts/structure.py).
structure:
	@python3 scripts/structure.py --check $(BUILD)

install: all
	install -D -m 0755 $(BUILD)/pagehop $(DESTDIR)$(BINDIR)/pagehop
	install -D -m 0644 docs/pagehop.1 $(DESTDIR)$(PREFIX)/share/man/man1/pagehop.1
	@mkdir -p $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	$(BUILD)/pagehop --bash-completion >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pagehop
	@$(MAKE) --no-print-directory install-contrib-files
	@$(MAKE) --no-print-directory install-kmod

# Where clusters run the check (docs/diagnostics.md): Slurm, Prometheus, NHC.
# The files that name pagehop's own paths are made from contrib/*.in, with
# @BINDIR@ and @PKGDATADIR@ this PREFIX's: make install (/usr/local) and the
# .deb (/usr: debian/rules runs this target) each name paths that exist.
BINDIR      = $(PREFIX)/bin
PKGDATADIR  = $(PREFIX)/share/pagehop
CONTRIB_DIR = $(DESTDIR)$(PKGDATADIR)
# $(call contrib_in,TEMPLATE,MODE): TEMPLATE.in substituted into CONTRIB_DIR,
# refused if a placeholder is left.
define contrib_in
	@mkdir -p $(dir $(CONTRIB_DIR)/$(1))
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@PKGDATADIR@|$(PKGDATADIR)|g' contrib/$(1).in >$(CONTRIB_DIR)/$(1).tmp
	@! grep -n '@[A-Z_][A-Z_]*@' $(CONTRIB_DIR)/$(1).tmp || \
		{ echo "pagehop: contrib/$(1).in: a placeholder left unsubstituted" >&2; rm -f $(CONTRIB_DIR)/$(1).tmp; exit 1; }
	@chmod $(2) $(CONTRIB_DIR)/$(1).tmp && mv $(CONTRIB_DIR)/$(1).tmp $(CONTRIB_DIR)/$(1)
endef
install-contrib-files:
	$(call contrib_in,slurm/pagehop-healthcheck.sh,0755)
	$(call contrib_in,slurm/pagehop-fleet.sbatch,0644)
	$(call contrib_in,prometheus/pagehop-check.service,0644)
	$(call contrib_in,prometheus/pagehop-check.timer,0644)
	$(call contrib_in,nhc/pagehop.nhc,0644)
	install -D -m 0644 contrib/prometheus/pagehop.rules.yml $(CONTRIB_DIR)/prometheus/pagehop.rules.yml
	install -D -m 0644 docs/diagnostics.md $(DESTDIR)$(PREFIX)/share/doc/pagehop/diagnostics.md

# The module: through dkms when it is there (rebuilt on kernel updates), else
# built for KVER into /lib/modules/KVER/extra.  With DESTDIR (packaging) the
# sources go to DESTDIR/usr/src/pagehop-API for the package's dkms hooks.
install-kmod:
	@if command -v dkms >/dev/null 2>&1; then \
		rm -rf $(DKMS_SRC) && mkdir -p $(DKMS_SRC)/include && \
		cp -r dkms.conf kmod $(DKMS_SRC)/ && cp -r include/uapi $(DKMS_SRC)/include/ && \
		rm -f $(DKMS_SRC)/kmod/*.o $(DKMS_SRC)/kmod/*.ko $(DKMS_SRC)/kmod/.*.cmd; \
		if [ -z "$(DESTDIR)" ]; then \
			dkms remove pagehop/$(PAGEHOP_API) --all >/dev/null 2>&1 || true; \
			dkms add pagehop/$(PAGEHOP_API) && \
			dkms install pagehop/$(PAGEHOP_API) -k $(KVER); \
		fi; \
	else \
		$(MAKE) --no-print-directory kmod KVER=$(KVER) && \
		install -D -m 0644 $(KMOD_OUT)/kmod/pagehop.ko \
			$(DESTDIR)/lib/modules/$(KVER)/extra/pagehop.ko && \
		{ [ -n "$(DESTDIR)" ] || depmod -a $(KVER); }; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pagehop $(DESTDIR)$(PREFIX)/share/man/man1/pagehop.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/pagehop
	rm -rf $(CONTRIB_DIR) $(DESTDIR)$(PREFIX)/share/doc/pagehop/diagnostics.md
	-@if command -v dkms >/dev/null 2>&1 && [ -z "$(DESTDIR)" ]; then \
		dkms remove pagehop/$(PAGEHOP_API) --all; fi
	rm -rf $(DKMS_SRC) $(DESTDIR)/lib/modules/$(KVER)/extra/pagehop.ko

# dpkg-buildpackage writes its packages beside the source tree (../), so it
# runs in a copy under BUILD/deb: nothing outside the tree is written.
deb:
	@command -v dpkg-buildpackage >/dev/null || { echo "pagehop: dpkg-buildpackage missing: apt-get install dpkg-dev debhelper dh-dkms" >&2; exit 4; }
	@rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/src
	@tar -C . --exclude=./build --exclude=./.git -cf - . | tar -C $(BUILD)/deb/src -xf -
	cd $(BUILD)/deb/src && dpkg-buildpackage -us -uc -b -J
	@ls $(BUILD)/deb/*.deb

clean:
	rm -rf build
