#!/usr/bin/env bash
# What the test suite needs from the system beyond Python packages, before any test runs
# (`make test` calls this; so does CI, through make test):
#   chromium      the report's and the explorer's browser tests (headless, DevTools)
#   wordnet-base  the WordNet lists' and hierarchy's regeneration (/usr/share/wordnet)
#   graphviz      `make rulegraph`, which the README gives (dot)
# Installs what is missing where it can (root and apt-get, as on CI), else stops with one
# line naming the packages, so that none is discovered as a failure minutes into the run.
# (The SLURM test installs and starts its own one-node cluster: tests/slurm/cluster.sh.)
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || need+=(chromium)
# (WORDNET_DIR: where WordNet's database is; tests/test_system.py points it elsewhere)
[ -f "${WORDNET_DIR:-/usr/share/wordnet}/data.noun" ] || need+=(wordnet-base)
command -v dot >/dev/null 2>&1 || need+=(graphviz)
[ "${#need[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    exit 0
fi
echo "make test needs the system packages ${need[*]} (Debian's names): install them" \
    "(sudo apt-get install ${need[*]}), or run make test as root to let it install them" >&2
exit 1
