#!/usr/bin/env bash
# Quick start, command 2: the whole test suite — lint (ESLint and the
# typecheck: npm run lint), unit tests, the demo
# build's reproducibility, the data layer and queue again on PostgreSQL, the
# integration tests that replay demo chains in real Docker containers (with the
# distributed workers on Redis), and the browser tests (Playwright in Debian's
# Chromium against the real site, its database and its worker).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Two cores and a 30-minute CI budget: work that leaves the CPU idle in part runs
# beside other work. The lint runs beside the unit tests; the browser tests'
# production build (CHAINSWE_E2E_DIST, reused by their global setup) and Chromium's
# install run beside the database and demo tests; each is waited for, and a failure
# fails the run.
npm run -s lint &
lint=$!
npx vitest run --project unit
wait "$lint"
bash scripts/ensure-services.sh
e2e_dist="${CHAINSWE_E2E_DIST:-.next-e2e}"
build_log="$(mktemp)"
tsconfig_before="$(mktemp)"
cp tsconfig.json "$tsconfig_before"
( CHAINSWE_NEXT_DIST="$e2e_dist" NEXT_TELEMETRY_DISABLED=1 npx next build >"$build_log" 2>&1 && bash scripts/ensure-chromium.sh >>"$build_log" 2>&1 ) &
browser_prep=$!
npx vitest run --project pg
npx vitest run --project demo
wait "$browser_prep" || { tail -60 "$build_log" >&2; exit 1; }
# next build adds its dist dir to tsconfig.json's include; leave the file as it was
cp "$tsconfig_before" tsconfig.json
# The Docker tests in two processes side by side: the distributed, queue, rollout and
# mining files spend most of their time waiting (leases, locks, agents, timers), the
# rest compute; each file tags its own containers (tests/docker/setup.ts), so neither
# half sees the other's. A new file joins the second half.
waiting=(tests/docker/distributed.test.ts tests/docker/queue.test.ts tests/docker/rollout.test.ts tests/docker/mining.test.ts tests/docker/run-dir.test.ts)
npx vitest run --project docker "${waiting[@]}" &
waiting_half=$!
npx vitest run --project docker $(printf -- '--exclude %s ' "${waiting[@]}") || { kill "$waiting_half" 2>/dev/null; exit 1; }
wait "$waiting_half"
CHAINSWE_E2E_REUSE_BUILD=1 npx playwright test
