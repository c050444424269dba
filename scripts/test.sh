#!/usr/bin/env bash
# Quick start, command 2: the whole test suite — typecheck, unit tests, the demo
# build's reproducibility, the data layer and queue again on PostgreSQL, the
# integration tests that replay demo chains in real Docker containers (with the
# distributed workers on Redis), and the browser tests (Playwright in Debian's
# Chromium against the real site, its database and its worker).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npx tsc --noEmit -p .
npx vitest run --project unit
bash scripts/ensure-services.sh
npx vitest run --project pg
npx vitest run --project demo
npx vitest run --project docker
bash scripts/ensure-chromium.sh
npx playwright test
