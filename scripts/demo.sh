#!/usr/bin/env bash
# Quick start, command 1: the demo end to end — builds what is missing,
# evaluates every demo system in Oracle and Seq, prints the report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NEXT_TELEMETRY_DISABLED=1
node bin/chainswe.mjs demo run --out "${CHAINSWE_DEMO_OUT:-runs/demo}" "$@"
