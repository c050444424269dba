#!/usr/bin/env bash
# Quick start, command 2: the whole test suite — typecheck, unit tests, the demo
# build's reproducibility, the integration tests that replay demo chains in
# real Docker containers, and the browser tests (Playwright in Debian's
# Chromium against the real site, its database and its worker).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npx tsc --noEmit -p .
npx vitest run --project unit
npx vitest run --project demo
npx vitest run --project docker
bash scripts/ensure-chromium.sh
npx playwright test
