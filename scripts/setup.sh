#!/usr/bin/env bash
# Everything the demo and the tests need on a fresh machine: node modules,
# a Docker engine, the base image. Idempotent and quick when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund >/dev/null
fi
bash scripts/ensure-docker.sh
bash scripts/build-base-image.sh
