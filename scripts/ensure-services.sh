#!/usr/bin/env bash
# PostgreSQL and Redis on 127.0.0.1 for the deployment-mode tests, from
# Debian's archive. Idempotent: installs what is missing, starts
# what does not answer, and leaves running servers alone. Not needed by the
# quick start, which runs on SQLite with the embedded worker.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! command -v redis-server >/dev/null 2>&1; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql redis-server >/dev/null
fi
cluster=$(ls /etc/postgresql | sort -V | tail -1)
if ! pg_isready -q -h /var/run/postgresql; then
  pg_ctlcluster --skip-systemctl-redirect "$cluster" main start
  for _ in $(seq 1 30); do pg_isready -q -h /var/run/postgresql && break; sleep 0.5; done
fi
# the tests connect as root through the socket (Debian's pg_hba trusts peers there)
su postgres -c "psql -tAc \"select 1 from pg_roles where rolname='root'\"" | grep -q 1 ||
  su postgres -c "psql -qc 'create role root superuser login'"
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi
echo "PostgreSQL $cluster and Redis are up (postgresql://root@localhost/…?host=/var/run/postgresql, redis://127.0.0.1:6379)"
