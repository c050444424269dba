#!/usr/bin/env bash
# The browser the Playwright tests drive: Debian's Chromium (Playwright's own
# browser downloads are not reachable here). Installs it when missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "installing chromium…" >&2
apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1
/usr/bin/chromium --version >&2
