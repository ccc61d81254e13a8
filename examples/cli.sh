#!/usr/bin/env bash
# The crawlkit command on the bundled fixture site: scrape, map, crawl into a directory, batch from stdin.
#   pnpm build && bash examples/cli.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ck() { pnpm --silent crawlkit "$@"; }

pnpm exec node --input-type=module -e "
  const { startFixtureServer } = await import('./fixtures/server.ts');
  const s = await startFixtureServer({ port: 45678 });
  process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
" &
server=$!
trap 'kill $server' EXIT
sleep 1
site=http://127.0.0.1:45678
store=$(mktemp -d)

ck scrape "$site/articles/first-post.html" --store "$store" | head -5
ck map "$site/" --store "$store"
ck crawl "$site/" --limit 5 --crawl-entire-domain --out out/cli-example --store "$store"
printf '%s\n' "$site/docs/getting-started.html" "$site/products/widget.html" |
  ck batch - --format links --ndjson --quiet --store "$store" | wc -l
