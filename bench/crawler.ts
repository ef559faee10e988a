// A crawler's walk of the site, for bench/distinct.ts: read robots.txt's sitemap (an index or one sitemap), every
// sitemap it names, then fetch each listing page once, `concurrency` at a time, keeping the ETag; a second pass asks
// again with If-None-Match, as a crawler revisiting does. Pages per second, latency percentiles, and the share of the
// second pass answered 304 (nothing rendered, nothing sent).
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

type Answer = { status: number; etag: string | null; body: string; ms: number };

function get(base: URL, path: string, headers: Record<string, string> = {}, keepBody = false): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({ host: base.hostname, port: base.port, path, agent, headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => keepBody && chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          etag: (res.headers.etag as string | undefined) ?? null,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - started,
        }),
      );
      res.on("error", () => resolve({ status: 0, etag: null, body: "", ms: performance.now() - started }));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ status: 0, etag: null, body: "", ms: performance.now() - started }));
    req.end();
  });
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.trim());

/** The listing pages the sitemaps name (robots.txt → index → sitemaps), as paths. */
export async function sitemapListingPaths(baseUrl: string): Promise<{ paths: string[]; sitemaps: number }> {
  const base = new URL(baseUrl);
  const robots = await get(base, "/robots.txt", {}, true);
  const first = /^Sitemap:\s*(\S+)/im.exec(robots.body)?.[1] ?? `${baseUrl}/sitemap.xml`;
  let queue = [new URL(first).pathname];
  const pages: string[] = [];
  let sitemaps = 0;
  while (queue.length) {
    const next: string[] = [];
    for (const p of queue) {
      const answer = await get(base, p, {}, true);
      if (answer.status !== 200) throw new Error(`${p}: ${answer.status}`);
      sitemaps++;
      const urls = locs(answer.body).map((u) => new URL(u).pathname);
      if (answer.body.includes("<sitemapindex")) next.push(...urls);
      else pages.push(...urls.filter((u) => u.startsWith("/marketplace/")));
    }
    queue = next;
  }
  return { paths: pages, sitemaps };
}

export type CrawlPass = {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  p50: number;
  p99: number;
  notModified: number;
  failed: number;
};

function percentile(sorted: number[], p: number): number {
  return sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 10) / 10
    : NaN;
}

/** One pass over `paths`, `concurrency` at a time; `etags` given: asked with If-None-Match (and filled on the first pass). */
export async function crawlPass(
  baseUrl: string,
  paths: string[],
  concurrency: number,
  etags: Map<string, string>,
  revisit: boolean,
): Promise<CrawlPass> {
  const base = new URL(baseUrl);
  const latencies: number[] = [];
  let notModified = 0;
  let failed = 0;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < paths.length) {
        const path = paths[i++]!;
        const etag = etags.get(path);
        const answer = await get(base, path, revisit && etag ? { "if-none-match": etag } : {});
        if (answer.status === 304) notModified++;
        else if (answer.status !== 200) {
          failed++;
          continue;
        }
        latencies.push(answer.ms);
        if (!revisit && answer.etag) etags.set(path, answer.etag);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    pages: latencies.length,
    seconds: Math.round(seconds * 10) / 10,
    pagesPerSecond: Math.round((latencies.length / seconds) * 10) / 10,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    notModified,
    failed,
  };
}
