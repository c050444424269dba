#!/usr/bin/env bash
# Quick start, command 2: the whole test suite — lint (ESLint and the
# typecheck: npm run lint), unit tests, the demo
# build's reproducibility, the data layer and queue again on PostgreSQL, the
# integration tests that replay demo chains in real Docker containers (with the
# distributed workers on Redis), and the browser tests (Playwright in Debian's
# Chromium against the real site, its database and its worker). Ends with a
# table of how long each phase took (scripts/phases.sh), also when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phases.sh
bash scripts/setup.sh
# Two cores and a 30-minute CI budget: work that leaves the CPU idle in part runs
# beside other work. The lint runs beside the unit tests; the browser tests' production
# build (CHAINSWE_E2E_DIST, reused by their global setup), Chromium's install and the
# demo images run beside the database and demo tests; each is waited for, and a failure
# fails the run.
phase "lint (ESLint, tsc), beside the unit tests" npm run -s lint &
lint=$!
phase "unit tests, beside the lint" npx vitest run --project unit
wait "$lint"
phase "services: PostgreSQL, Redis" bash scripts/ensure-services.sh
e2e_dist="${CHAINSWE_E2E_DIST:-.next-e2e}"
build_log="$(mktemp)"
tsconfig_before="$(mktemp)"
cp tsconfig.json "$tsconfig_before"
browser_build() {
  CHAINSWE_NEXT_DIST="$e2e_dist" NEXT_TELEMETRY_DISABLED=1 npx next build >"$build_log" 2>&1 && bash scripts/ensure-chromium.sh >>"$build_log" 2>&1
}
phase "browser build, Chromium, beside pg and demo tests" browser_build &
browser_prep=$!
# the demo repositories' images, which the Docker and the browser tests both use: built
# once here, before they run side by side
images_log="$(mktemp)"
phase "demo images, beside pg and demo tests" node bin/chainswe.mjs demo images >"$images_log" 2>&1 &
demo_images=$!
phase "pg tests, beside the browser build" npx vitest run --project pg
phase "demo tests, beside the browser build" npx vitest run --project demo
wait "$browser_prep" || { tail -60 "$build_log" >&2; exit 1; }
wait "$demo_images" || { tail -60 "$images_log" >&2; exit 1; }
# next build adds its dist dir to tsconfig.json's include; leave the file as it was
cp "$tsconfig_before" tsconfig.json
# The Docker tests and the browser tests, side by side in three processes: the Docker
# files in two halves, the distributed, queue, rollout, mining and run-dir ones spending
# most of their time waiting (leases, locks, agents, timers) and the rest computing; the
# browser tests mostly wait for the site and its evaluations. Each Docker file tags its
# own containers (tests/docker/setup.ts) and each site's worker reaps only its own
# database's, so none sees another's. A new Docker file joins the computing half. The
# two in the background print their lines with a prefix; a failure in any of the three
# fails the run.
waiting=(tests/docker/distributed.test.ts tests/docker/queue.test.ts tests/docker/rollout.test.ts tests/docker/mining.test.ts tests/docker/run-dir.test.ts)
prefixed() {
  local tag=$1
  shift
  "$@" 2>&1 | sed -u "s/^/[$tag] /"
}
phase "docker tests: waiting half, beside the others" prefixed docker-waiting npx vitest run --project docker "${waiting[@]}" &
waiting_half=$!
phase "browser tests, beside the docker tests" prefixed browser env CHAINSWE_E2E_REUSE_BUILD=1 npx playwright test &
browser=$!
stop_lanes() { kill "$waiting_half" "$browser" 2>/dev/null || true; }
phase "docker tests: computing half, beside the others" npx vitest run --project docker $(printf -- '--exclude %s ' "${waiting[@]}") || { stop_lanes; exit 1; }
wait "$waiting_half" || { stop_lanes; exit 1; }
wait "$browser"
