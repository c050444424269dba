#!/usr/bin/env bash
# Makes sure a Docker engine answers: installs Debian's docker.io and starts
# dockerd when none runs (CI starts on a machine with nothing running).
set -euo pipefail
if docker info >/dev/null 2>&1; then exit 0; fi
if [ -n "${DOCKER_HOST:-}" ]; then
  echo "DOCKER_HOST=$DOCKER_HOST does not answer" >&2; exit 1
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "installing docker.io…" >&2
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io >/dev/null
fi
echo "starting dockerd…" >&2
setsid dockerd >/var/log/dockerd.log 2>&1 < /dev/null &
for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then exit 0; fi
  sleep 1
done
echo "dockerd did not come up; see /var/log/dockerd.log" >&2
tail -20 /var/log/dockerd.log >&2 || true
exit 1
