# Sourced by scripts/test.sh and scripts/setup.sh: `phase NAME CMD…` runs one
# phase of the run and records its time and outcome; the first script that
# sources this prints the table of every recorded phase when it exits, whether
# the run passed or failed. A phase run in the background (`phase … &`)
# records its own time too.
if [ -z "${CHAINSWE_PHASES:-}" ]; then
  CHAINSWE_PHASES="$(mktemp)"
  export CHAINSWE_PHASES
  CHAINSWE_RUN_START=$(date +%s)
  export CHAINSWE_RUN_START
  # the machine's CPU time so far (jiffies: busy, all), to say at the end how busy its cores were
  cpu_jiffies() { awk '/^cpu /{ idle = $5 + $6; all = 0; for (i = 2; i <= NF; i++) all += $i; print all - idle, all }' /proc/stat; }
  CHAINSWE_RUN_CPU="$(cpu_jiffies)"
  print_phases() {
    local rc=$? at name secs status
    echo
    echo "Phase times in seconds (from the start of the run; a phase may run beside others):"
    printf '  %6s %6s  %-62s %s\n' "start" "took" "phase" "outcome"
    sort -n "$CHAINSWE_PHASES" | while IFS=$'\t' read -r at secs name status; do
      printf '  %6s %6s  %-62s %s\n' "$at" "$secs" "$name" "$status"
    done
    printf '  %6s %6s  %-62s %s\n' 0 "$(($(date +%s) - CHAINSWE_RUN_START))" "whole run (wall clock)" "$([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)")"
    # whether the run was short of CPU (near 100%: only less work makes it faster) or of order (idle cores)
    read -r busy0 all0 <<<"$CHAINSWE_RUN_CPU"
    read -r busy1 all1 <<<"$(cpu_jiffies)"
    echo "CPU busy $(((busy1 - busy0) * 100 / (all1 - all0 > 0 ? all1 - all0 : 1)))% of the run on $(nproc) core(s), the tests' containers and anything else on the machine included"
    rm -f "$CHAINSWE_PHASES"
  }
  trap print_phases EXIT
fi

phase() {
  local name=$1 start rc=0
  shift
  start=$(date +%s)
  "$@" || rc=$?
  printf '%s\t%s\t%s\t%s\n' "$((start - CHAINSWE_RUN_START))" "$(($(date +%s) - start))" "$name" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")" >>"$CHAINSWE_PHASES"
  return "$rc"
}
