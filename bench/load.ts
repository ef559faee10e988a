// Load generators for the bench, over node:http with keep-alive: a closed loop (N connections, each sends its
// next request when the last one answers: the most the server does) and an open loop (requests start on a fixed
// schedule whether or not earlier ones answered, as independent users' do). Open-loop latency runs from the moment
// a request was due, so time spent waiting behind a slow server counts (no coordinated omission).
import http from "node:http";

/** One request: a path (GET) or a path and a JSON body (POST), and how to tell a good answer. */
export type Shot = {
  path: string;
  body?: string;
  headers?: Record<string, string>;
  ok?: (status: number, body: string) => boolean;
};

export type LoadResult = {
  mode: "closed" | "open";
  rate: number | null;
  sent: number;
  ok: number;
  failed: number;
  rps: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  seconds: number;
};

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 512 });

function fire(base: URL, shot: Shot, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: shot.path,
        method: shot.body === undefined ? "GET" : "POST",
        agent,
        headers:
          shot.body === undefined
            ? shot.headers
            : { "content-type": "application/json", "content-length": Buffer.byteLength(shot.body), ...shot.headers },
        timeout: timeoutMs,
      },
      (res) => {
        // Only a body that is read is an answer; only a check that needs the body keeps it.
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => shot.ok && chunks.push(c));
        res.on("end", () =>
          resolve(shot.ok ? shot.ok(res.statusCode ?? 0, Buffer.concat(chunks).toString()) : res.statusCode === 200),
        );
        res.on("error", () => resolve(false));
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end(shot.body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 10) / 10;
}

function summarise(
  mode: LoadResult["mode"],
  rate: number | null,
  latencies: number[],
  failed: number,
  seconds: number,
): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    mode,
    rate,
    sent: latencies.length + failed,
    ok: latencies.length,
    failed,
    rps: Math.round((latencies.length / seconds) * 10) / 10,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    p999: percentile(latencies, 0.999),
    max: percentile(latencies, 1),
    seconds: Math.round(seconds * 10) / 10,
  };
}

/** `connections` loops, each sending `next()` as soon as its previous request answered, for `seconds`. */
export async function closedLoop(
  baseUrl: string,
  next: () => Shot,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        if (await fire(base, next(), 30_000)) latencies.push(performance.now() - t);
        else failed++;
      }
    }),
  );
  return summarise("closed", null, latencies, failed, (performance.now() - started) / 1000);
}

/**
 * `rate` requests a second for `seconds`, each started when due. The achieved rate is the answers per second
 * over the whole run, from the first request to the last answer (a server that falls behind stretches it).
 * A request unanswered after `timeoutMs` counts as failed.
 */
export async function openLoop(
  baseUrl: string,
  next: () => Shot,
  rate: number,
  seconds: number,
  timeoutMs = 10_000,
): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    // Every request due by now starts now; its latency counts from when it was due.
    while (sent < total && started + (sent * 1000) / rate <= now) {
      const due = started + (sent * 1000) / rate;
      pending.push(
        fire(base, next(), timeoutMs).then((ok) => (ok ? void latencies.push(performance.now() - due) : void failed++)),
      );
      sent++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  return summarise("open", rate, latencies, failed, (performance.now() - started) / 1000);
}
