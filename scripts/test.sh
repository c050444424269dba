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
phase "services: PostgreSQL, Redis" bash scripts/ensure-services.sh

# Two cores and a 30-minute CI budget. The browser tests are the longest chain of
# work that cannot be split (one worker: the specs share a site and its evaluations),
# so they start first and everything else runs beside them, in three lanes:
#   browser   the production build and Chromium, beside the demo images and the demo evaluated once
#             into a database; then the browser tests
#   checks    the unit tests; the lint once the build is done (tsc reads the build's route
#             types); the Docker files that compute, once the demo's database is made
#   waiting   once the images are built: the Docker files that spend most of their time
#             waiting (leases, locks, agents, timers); then the PostgreSQL and demo tests
# The lanes meet only through the marker files below. Each Docker file tags its own
# containers (tests/docker/setup.ts) and each site's worker reaps only its own
# database's, so none sees another's. A new Docker file joins the computing half.
# A failure in any lane stops the others and fails the run.
set -m # each lane in its own process group, so a failed run stops a lane's whole tree
marks="$(mktemp -d)"
e2e_dist="${CHAINSWE_E2E_DIST:-.next-e2e}"
waiting=(tests/docker/distributed.test.ts tests/docker/queue.test.ts tests/docker/rollout.test.ts tests/docker/mining.test.ts tests/docker/run-dir.test.ts)

# waits until the lane that makes `mark` has made it; fails if that lane failed first
await_mark() {
  until [ -e "$marks/$1" ]; do
    [ -e "$marks/$1.failed" ] && { echo "not run: $1 failed" >&2; return 1; }
    sleep 1
  done
}
# runs a command with each output line tagged, for the lanes that share the terminal
prefixed() {
  local tag=$1
  shift
  "$@" 2>&1 | sed -u "s/^/[$tag] /"
}

browser_build() {
  CHAINSWE_NEXT_DIST="$e2e_dist" NEXT_TELEMETRY_DISABLED=1 npx next build >"$marks/build.log" 2>&1 && bash scripts/ensure-chromium.sh >>"$marks/build.log" 2>&1
}
# the demo repositories' images, which the Docker and the browser tests both use, built once before
# either runs; then the demo benchmark seeded and evaluated in the portal's database once
# (lib/testing/demo-database.ts), which the browser tests serve and the demo test reads
demo_images_and_database() {
  if ! phase "demo images, beside the build" node bin/chainswe.mjs demo images >"$marks/images.log" 2>&1; then
    touch "$marks/images.failed" "$marks/demo-db.failed"
    tail -60 "$marks/images.log" >&2
    return 1
  fi
  touch "$marks/images"
  if ! phase "demo evaluated once, for the browser and demo tests" npx tsx lib/testing/demo-database.ts "$marks/demo.db" >"$marks/demo-db.log" 2>&1; then
    touch "$marks/demo-db.failed"
    tail -60 "$marks/demo-db.log" >&2
    return 1
  fi
  touch "$marks/demo-db"
}
browser_lane() {
  local tsconfig_before="$marks/tsconfig.json"
  cp tsconfig.json "$tsconfig_before"
  demo_images_and_database &
  if ! phase "browser build, Chromium, beside the unit tests" browser_build; then
    touch "$marks/build.failed"
    tail -60 "$marks/build.log" >&2
    return 1
  fi
  # next build may add its dist dir to tsconfig.json's include; leave the file as it was
  cp "$tsconfig_before" tsconfig.json
  touch "$marks/build"
  await_mark demo-db
  phase "browser tests, beside the others" prefixed browser env CHAINSWE_E2E_REUSE_BUILD=1 CHAINSWE_DEMO_DB="$marks/demo.db" npx playwright test
}
checks_lane() {
  phase "unit tests, beside the build" npx vitest run --project unit
  await_mark build
  phase "lint (ESLint, tsc)" npm run -s lint
  await_mark demo-db
  phase "docker tests: computing half" env CHAINSWE_DEMO_DB="$marks/demo.db" npx vitest run --project docker $(printf -- '--exclude %s ' "${waiting[@]}")
}
waiting_lane() {
  await_mark images
  phase "docker tests: waiting half" prefixed docker-waiting npx vitest run --project docker "${waiting[@]}"
  phase "pg tests" prefixed pg npx vitest run --project pg
  phase "demo tests" prefixed demo npx vitest run --project demo
}

browser_lane &
lanes=($!)
checks_lane &
lanes+=($!)
waiting_lane &
lanes+=($!)
for _ in "${lanes[@]}"; do
  if ! wait -n; then
    for lane in "${lanes[@]}"; do kill -- -"$lane" 2>/dev/null || true; done
    wait || true
    exit 1
  fi
done
rm -rf "$marks"
