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
  print_phases() {
    local rc=$? at name secs status
    echo
    echo "Phase times in seconds (from the start of the run; a phase may run beside others):"
    printf '  %6s %6s  %-62s %s\n' "start" "took" "phase" "outcome"
    sort -n "$CHAINSWE_PHASES" | while IFS=$'\t' read -r at secs name status; do
      printf '  %6s %6s  %-62s %s\n' "$at" "$secs" "$name" "$status"
    done
    printf '  %6s %6s  %-62s %s\n' 0 "$(($(date +%s) - CHAINSWE_RUN_START))" "whole run (wall clock)" "$([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)")"
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
