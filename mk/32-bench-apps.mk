# ---- make bench-apps: real programs from Debian's packages, without and with the preload shim
# (not part of make test) ----
# redis, sqlite3, python3, xz, zstd, gzip and lz4, each timed by `copyperf program --check` in
# PAIRS pairs with the shim copyperf program chooses (the one beside it: on x86-64 the AVX2 or
# SSE2 one where the library copies with that variant), then an A/A control; one table and its verdicts
# (docs/bench-apps.md).  As root it installs the packages it runs; its inputs are made once in
# the cache (scripts/cache-dir.sh), under apps/; each program's JSON is kept in
# build/bench-apps/.
# PAIRS=N: pairs a program (9; make bench-apps-quick: 3).  APPS=NAME,...: only those programs.
BENCH_APPS_DIR := scripts/bench-apps
BENCH_APPS_OUT := $(BUILD)/bench-apps
PAIRS ?= 9
APPS  ?=

.PHONY: bench-apps bench-apps-quick
bench-apps: $(COPYPERF) $(PRELOAD_SO) $(PRELOAD_LEVEL_SO)
	@$(BENCH_APPS_DIR)/install.sh
	@. scripts/cache-dir.sh; python3 $(BENCH_APPS_DIR)/run.py --copyperf $(COPYPERF) \
		--cache "$$cache/apps" --out $(BENCH_APPS_OUT) --pairs '$(PAIRS)' --apps '$(APPS)'

bench-apps-quick:
	@$(MAKE) --no-print-directory bench-apps PAIRS=3
