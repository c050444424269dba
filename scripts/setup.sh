#!/usr/bin/env bash
# Everything the demo and the tests need on a fresh machine: node modules,
# a Docker engine, the base image. Idempotent and quick when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
# timed into scripts/test.sh's table of phases when run from it
if [ -n "${CHAINSWE_PHASES:-}" ]; then source scripts/phases.sh; else phase() { shift; "$@"; }; fi
node_modules_and_clients() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund >/dev/null || return
  fi
  # the Prisma clients (db/generated/prisma for SQLite, db/generated/prisma-pg for PostgreSQL; not
  # committed), remade when the schema changed; the URL only picks the schema (prisma.config.ts), nothing connects
  [ db/generated/prisma/client.ts -nt prisma/schema.prisma ] || DATABASE_URL=file:./data/chainswe.db npx prisma generate >/dev/null || return
  [ db/generated/prisma-pg/client.ts -nt prisma/postgresql/schema.prisma ] ||
    DATABASE_URL=postgresql://localhost/generate-only npx prisma generate >/dev/null
}
# host tools the tests use directly (the replay-script tests run git and patch on the host)
host_tools() {
  if ! command -v patch >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q patch git >/dev/null
  fi
}
phase "setup: node modules, Prisma clients" node_modules_and_clients
phase "setup: git and patch" host_tools
phase "setup: Docker engine" bash scripts/ensure-docker.sh
phase "setup: base image" bash scripts/build-base-image.sh
