#!/usr/bin/env bash
# Sets up a fresh clone: pnpm, Chromium (Debian's, when none is found and we are root), dependencies and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! command -v pnpm >/dev/null 2>&1; then
  say "installing pnpm"
  npm install -g pnpm@12 >/dev/null
fi

find_chromium() {
  for c in "${CRAWLKIT_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

if ! find_chromium >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's chromium"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "warning: no Chromium found; browser features need it (install chromium, or set CRAWLKIT_CHROMIUM)"
  fi
fi

# Distributed mode's tests start a throwaway redis-server on a free loopback port.
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's redis-server"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    # The package starts a system service; the tests run their own server.
    (service redis-server stop || true) >/dev/null 2>&1
  else
    say "warning: no redis-server found; distributed-mode tests need it (install redis-server)"
  fi
fi

say "installing dependencies"
pnpm install --frozen-lockfile
say "building"
pnpm build
say "done: $(pnpm exec node -v), chromium: $(find_chromium || echo none), redis: $(command -v redis-server || echo none)"
