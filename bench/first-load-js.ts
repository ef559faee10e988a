// First-load JavaScript of pages on a running production server, as a browser fetches it:
//   npx tsx bench/first-load-js.ts [BASE_URL] [PATH ...] [--chunks]
// Fetches each page's HTML, takes its <script src> tags (noModule polyfills excluded: modern browsers skip
// them), fetches each script and sums their gzip sizes (zlib default level). The same method as the
// `first-load JS` line of `npm run bench`; --chunks also lists every script with its own size.
// Loopback only: pass a local BASE_URL (default http://localhost:3700).
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
const showChunks = args.includes("--chunks");
const positional = args.filter((a) => !a.startsWith("--"));
const base = positional[0] ?? "http://localhost:3700";
const paths = positional.length > 1 ? positional.slice(1) : ["/marketplace"];

const host = new URL(base).hostname;
if (!["localhost", "127.0.0.1", "::1", "[::1]"].includes(host)) {
  console.error(`refusing ${base}: this bench measures a local server only`);
  process.exit(2);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function scriptsOf(pagePath: string): Promise<string[]> {
  const res = await fetch(base + pagePath);
  if (!res.ok) throw new Error(`${pagePath}: HTTP ${res.status}`);
  const html = await res.text();
  const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]).filter((t) => !/nomodule/i.test(t));
  return [...new Set(tags.map((t) => /src="([^"]+\.js[^"]*)"/.exec(t)?.[1]).filter((s): s is string => Boolean(s)))];
}

async function gzipSize(src: string): Promise<{ raw: number; gz: number }> {
  const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
  return { raw: body.length, gz: gzipSync(body).length };
}

for (const pagePath of paths) {
  const srcs = await scriptsOf(pagePath);
  const sizes = await Promise.all(srcs.map(async (src) => ({ src, ...(await gzipSize(src)) })));
  const gz = sizes.reduce((s, x) => s + x.gz, 0);
  const raw = sizes.reduce((s, x) => s + x.raw, 0);
  console.log(`${pagePath.padEnd(40)} ${kb(gz).padStart(7)} kB gzip  (${kb(raw)} kB raw, ${sizes.length} scripts)`);
  if (showChunks)
    for (const s of sizes.sort((a, b) => b.gz - a.gz)) console.log(`    ${kb(s.gz).padStart(7)} kB  ${s.src}`);
}
