# shellcheck shell=sh
# Sourced: sets $cache, the directory where the slow suites keep what they make
# once (kernel trees, Debian roots, downloaded kernels), outside the repository.
# $COPYPERF_CACHE if set; else /var/cache/copyperf when it can be made or written
# (root); else the user's own cache.
cache=${COPYPERF_CACHE:-/var/cache/copyperf}
if [ -z "${COPYPERF_CACHE:-}" ] && ! [ -w "$cache" ] && ! [ -w "$(dirname "$cache")" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/copyperf
fi
