#!/usr/bin/env bash
# Lighthouse in Debian's Chromium against a running production server: bench/lighthouse.sh [BASE_URL] [PATH]
# Fetches lighthouse from the npm registry on first use (it is not a project dependency).
set -euo pipefail
base="${1:-http://localhost:3700}"; path="${2:-/marketplace}"
out="bench/.tmp/lighthouse"; mkdir -p "$out"
CHROME_PATH=/usr/bin/chromium npx -y lighthouse@12 "$base$path" --quiet --output=json --output-path="$out/report.json" \
  --only-categories=performance,accessibility,seo,best-practices --form-factor=desktop --screenEmulation.disabled \
  --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic"
node -e 'const r=require(process.argv[1]);for(const [k,c] of Object.entries(r.categories))console.log(k.padEnd(16),Math.round(c.score*100));' "$PWD/$out/report.json"
