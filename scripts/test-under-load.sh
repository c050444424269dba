#!/usr/bin/env bash
# The whole test command (scripts/test.sh, or the command given) while another
# process keeps every core busy: Debian's stress-ng, one CPU hog per core, at the
# same priority as the tests. Shows that no test fails for time on a busy
# machine. stress-ng is installed when missing and stopped on every way out
# (pass, failure, Ctrl-C); the test command's table of phase times ends the output.
#   bash scripts/test-under-load.sh                 # scripts/test.sh under load
#   CHAINSWE_LOAD_CPUS=4 bash scripts/test-under-load.sh npx vitest run --project unit
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v stress-ng >/dev/null 2>&1; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q stress-ng >/dev/null
fi
cpus="${CHAINSWE_LOAD_CPUS:-$(nproc)}"
stress-ng --cpu "$cpus" --cpu-method all --quiet &
load=$!
stop_load() {
  kill "$load" 2>/dev/null || true
  wait "$load" 2>/dev/null || true
}
trap stop_load EXIT
trap 'exit 130' INT TERM
echo "stress-ng: $cpus CPU hog(s), pid $load; load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
started=$(date +%s)
rc=0
if [ $# -gt 0 ]; then "$@" || rc=$?; else bash scripts/test.sh || rc=$?; fi
echo "under load: exit $rc after $(($(date +%s) - started)) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
