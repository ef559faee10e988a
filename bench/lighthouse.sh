#!/usr/bin/env bash
# Lighthouse in Debian's Chromium against a running production server: bench/lighthouse.sh [BASE_URL] [PATH]
# Fetches lighthouse from the npm registry on first use (it is not a project dependency).
set -euo pipefail
#
# Desktop is Lighthouse's own desktop preset (as PageSpeed Insights' desktop tab: 40 ms RTT, 10 Mbps, no CPU
# slowdown, desktop scoring). LH_THROTTLING=slow4g keeps the desktop form factor and scoring but throttles like
# a phone on slow 4G (150 ms RTT, 1.6 Mbps, 4× CPU): what this script ran before 2026-11-23, kept for comparison.
# LH_THROTTLING=mobile is Lighthouse's own default, as PageSpeed Insights' mobile tab: a Moto G Power's screen,
# slow 4G and a 4× CPU slowdown, mobile scoring.
base="${1:-http://localhost:3700}"; path="${2:-/marketplace}"
out="bench/.tmp/lighthouse"; mkdir -p "$out"
case "${LH_THROTTLING:-desktop}" in
  slow4g) mode=(--form-factor=desktop --screenEmulation.disabled) ;;
  mobile) mode=(--form-factor=mobile) ;;
  *) mode=(--preset=desktop) ;;
esac
CHROME_PATH=/usr/bin/chromium npx -y lighthouse@13 "$base$path" --quiet --output=json --output-path="$out/report.json" \
  --only-categories=performance,accessibility,seo,best-practices "${mode[@]}" \
  --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic"
node -e 'const r=require(process.argv[1]);for(const [k,c] of Object.entries(r.categories))console.log(k.padEnd(16),Math.round(c.score*100));' "$PWD/$out/report.json"
