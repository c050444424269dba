#!/usr/bin/env bash
# Builds the demo base image from a Debian root filesystem (no registry here):
# python3 + pytest + git + patch. Cached: does nothing when the image exists.
set -euo pipefail
IMAGE="${CHAINSWE_BASE_IMAGE:-chainswe/python:bookworm}"
if docker image inspect "$IMAGE" >/dev/null 2>&1; then exit 0; fi
if ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
fi
rootfs=$(mktemp -d /tmp/chainswe-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
echo "building $IMAGE with debootstrap (about a minute)…" >&2
debootstrap --variant=minbase --include=python3,python3-pytest,git,patch bookworm "$rootfs" >/tmp/chainswe-debootstrap.log 2>&1 \
  || { tail -20 /tmp/chainswe-debootstrap.log >&2; exit 1; }
tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' - "$IMAGE" >/dev/null
echo "built $IMAGE" >&2
