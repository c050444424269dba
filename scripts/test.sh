#!/usr/bin/env bash
# Quick start, command 2: the whole test suite — typecheck, unit tests, the demo
# build's reproducibility, and the integration tests that replay demo chains in
# real Docker containers.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npx tsc --noEmit -p .
npx vitest run --project unit
npx vitest run --project demo
npx vitest run --project docker
