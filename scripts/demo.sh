#!/usr/bin/env bash
# Quick start, command 1: the portal on http://localhost:3000 (PORT to change)
# with the demo dataset imported, the demo systems' submissions queued and
# published, and the site's embedded worker evaluating them in Docker.
# Installs what is missing; quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NEXT_TELEMETRY_DISABLED=1
export PORT="${PORT:-3000}"
mkdir -p data
# a session-signing secret per machine, made once and kept out of git (data/ is ignored)
# (owner-only: whoever reads it can forge any session)
[ -s data/nextauth-secret ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' > data/nextauth-secret)
chmod 600 data/nextauth-secret
export NEXTAUTH_SECRET="${NEXTAUTH_SECRET:-$(cat data/nextauth-secret)}"
export NEXTAUTH_URL="${NEXTAUTH_URL:-http://localhost:$PORT}"
node bin/chainswe.mjs db migrate
node bin/chainswe.mjs demo images
node bin/chainswe.mjs demo seed
dist="${CHAINSWE_NEXT_DIST:-.next}"
if [ ! -f "$dist/BUILD_ID" ] || [ -n "$(find app components lib evaluator env.ts next.config.ts server.ts instrumentation.ts package-lock.json -newer "$dist/BUILD_ID" -type f -print -quit)" ]; then
  echo "building the site…" >&2
  npx next build >/tmp/chainswe-next-build.log 2>&1 || { tail -40 /tmp/chainswe-next-build.log >&2; exit 1; }
fi
echo "ChainSWE on http://localhost:$PORT — the demo submissions are evaluated in the background (a few minutes)." >&2
echo "First site admin: node bin/chainswe.mjs admin create <username> (see README)." >&2
# Ctrl-C / SIGTERM: the site hands its running chains back before it exits (lib/site/worker.ts)
exec node bin/site.mjs -p "$PORT"
