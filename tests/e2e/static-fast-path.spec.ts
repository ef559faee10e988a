// The static fast path (server/static-fast-path.mjs) against the production build: the standalone
// server as `npm run start:prod` starts it answers the fully static pages itself, and every answer is the one Next
// gives with the switch off (STATIC_FAST_PATH=0) — status, every header but Date in Next's order, the body bytes —
// for browsers (gzip), programs (identity), HEAD, revalidation (304), a session cookie and a crawler. What Next
// answers differently (RSC, a server action's POST, a query string) still reaches Next. The site under test (`npm
// start` on the PGlite pass, `start:prod` on PostgreSQL) is held to the same answers.
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { productionStart } from "../support/production-start";
import { appPort } from "./support/ports";
import { siteOrigin } from "./support/deployment";
import { startProductionServer, type ProductionServer } from "./support/production-server";
import { createRewriter, packageLine, servedTarball } from "@/server/deployment-rewrite.mjs";
import { contactEmail } from "./support/deployment";

test.skip(({ isMobile }) => isMobile, "server behaviour: one project is enough");
test.describe.configure({ mode: "serial" });

const [fastPort, nextPort] = [appPort + 26, appPort + 27];
// Longer than the build's, so the RSC text rows it lands in change length.
const OTHER_ORIGIN = "https://agora-fast-path.other-origin.example";
/** The site under test's page as a server on OTHER_ORIGIN serves it: origin, contact, and the served tarballs' digests and sizes. */
function toOtherOrigin(page: string): string {
  const manifest = JSON.parse(fs.readFileSync("dist/downloads/manifest.json", "utf8")) as {
    packages: { packageName: string; version: string; file: string; sha256: string; size: number }[];
  };
  const literals = manifest.packages.flatMap((p): [string, string][] => {
    const served = servedTarball(fs.readFileSync(path.join("dist/downloads", p.file)), siteOrigin, OTHER_ORIGIN);
    return [
      [p.sha256, createHash("sha256").update(served).digest("hex")],
      [packageLine(p.packageName, p.version, p.size), packageLine(p.packageName, p.version, served.length)],
    ];
  });
  return createRewriter(
    { siteUrl: siteOrigin, contactEmail },
    { siteUrl: OTHER_ORIGIN, contactEmail: "hello@agora-mcp.dev" },
    literals,
  )!.html(page);
}

type Answer = { status: number; headers: string[]; body: Buffer };

/** One request over node:http: the raw header lines in order (Date left out) and the body bytes as sent. */
function send(
  origin: string,
  target: string,
  method = "GET",
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: target, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const lines: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i]!.toLowerCase() !== "date")
              lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          }
          resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const header = (answer: Answer, name: string) =>
  answer.headers.find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}: `))?.replace(/^[^:]+: /, "");

/** The pages the build prerendered once, never revalidates and tagged with nothing but their path: what the fast path must serve. */
function fullyStaticPages(): string[] {
  const manifest = JSON.parse(fs.readFileSync(".next/prerender-manifest.json", "utf8")) as {
    routes: Record<string, { routeType?: string; initialRevalidateSeconds: number | false; initialStatus?: number }>;
  };
  const onlyPathTags = (route: string) => {
    const meta = JSON.parse(
      fs.readFileSync(`.next/server/app/${route === "/" ? "index" : route.slice(1)}.meta`, "utf8"),
    ) as { headers?: Record<string, string> };
    return (meta.headers?.["x-next-cache-tags"] ?? "")
      .split(",")
      .every((tag) => tag === "" || tag.startsWith("_N_T_/"));
  };
  return Object.entries(manifest.routes)
    .filter(
      ([route, r]) =>
        !route.startsWith("/_") &&
        r.routeType === "page" &&
        r.initialRevalidateSeconds === false &&
        r.initialStatus === undefined &&
        onlyPathTags(route),
    )
    .map(([route]) => route)
    .sort();
}

const BROWSER = "gzip, deflate, br, zstd";
// What the fast path answers itself, each compared with Next's answer to the same request.
const REQUESTS: { name: string; method?: string; headers: (etag: string) => Record<string, string> }[] = [
  { name: "a program (no Accept-Encoding)", headers: () => ({}) },
  {
    name: "a browser (gzip)",
    headers: () => ({
      "accept-encoding": BROWSER,
      accept: "text/html",
      "sec-fetch-site": "none",
      "sec-fetch-mode": "navigate",
    }),
  },
  { name: "curl --compressed", headers: () => ({ "accept-encoding": "deflate, gzip, br, zstd" }) },
  { name: "brotli only (Next sends identity)", headers: () => ({ "accept-encoding": "br" }) },
  { name: "HEAD", method: "HEAD", headers: () => ({ "accept-encoding": BROWSER }) },
  {
    name: "a signed-in browser",
    headers: () => ({ "accept-encoding": BROWSER, cookie: "authjs.session-token=session-value; theme=dark" }),
  },
  {
    name: "a crawler",
    headers: () => ({ "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }),
  },
  { name: "revalidation with the ETag", headers: (etag) => ({ "if-none-match": etag, "accept-encoding": BROWSER }) },
  {
    name: "revalidation with the weak ETag among others",
    headers: (etag) => ({ "if-none-match": `"other", W/${etag}` }),
  },
  {
    name: "a hard reload (no-cache) with the ETag",
    headers: (etag) => ({
      "if-none-match": etag,
      "cache-control": "no-cache",
      pragma: "no-cache",
      "accept-encoding": BROWSER,
    }),
  },
  { name: "a stale ETag", headers: () => ({ "if-none-match": '"not-this-page"', "accept-encoding": BROWSER }) },
];

test.describe("static fast path", () => {
  let fast: ProductionServer;
  let next: ProductionServer;
  const dirs: string[] = [];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const start = productionStart();
    expect(start.serve.join(" "), "npm run start:prod preloads the fast path").toContain(
      "./server/static-fast-path.mjs",
    );
    // Static pages need no catalogue: each server on an embedded database of its own, whatever the pass. Both run
    // on another origin than the build's, so each rewrites the prerendered pages to it (server/deployment-rewrite.mjs):
    // the fast path's rewritten bytes and ETags must be the ones Next serves through its route cache.
    const env = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-fast-path-"));
      dirs.push(dir);
      return {
        NODE_ENV: "production",
        SITE_URL: OTHER_ORIGIN,
        AUTH_SECRET: "static-fast-path-spec-secret-0123456789",
        DATABASE_URL: "",
        PGLITE_DIR: dir,
        CHECK_SCHEDULE_DISABLED: "1",
      };
    };
    // One after the other: each creates its embedded database on start (two at once on two shared cores is slow).
    fast = await startProductionServer(fastPort, env());
    next = await startProductionServer(nextPort, { ...env(), STATIC_FAST_PATH: "0" });
  });

  test.afterAll(async () => {
    await Promise.all([fast?.stop(), next?.stop()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("serves every fully static page itself, and only with the switch on", () => {
    const on = fast
      .log()
      .split("\n")
      .find((l) => l.includes('"msg":"static fast path on"'));
    expect(on, fast.log()).toBeTruthy();
    const routes = (JSON.parse(on!) as { routes: string[] }).routes;
    expect([...routes].sort()).toEqual(fullyStaticPages());
    expect(routes).toEqual(expect.arrayContaining(["/", "/terms-of-service", "/guides/agents", "/login/email"]));
    expect(next.log()).not.toContain("static fast path");
  });

  test("answers every fully static page exactly as Next does", async () => {
    test.setTimeout(120_000);
    for (const route of fullyStaticPages()) {
      const etag = header(await send(next.origin, route), "etag")!;
      expect(etag, route).toMatch(/^"[0-9a-z]+"$/);
      for (const { name, method, headers } of REQUESTS) {
        const [mine, nexts] = await Promise.all([
          send(fast.origin, route, method, headers(etag)),
          send(next.origin, route, method, headers(etag)),
        ]);
        expect(mine.status, `${route}, ${name}`).toBe(nexts.status);
        expect(mine.headers, `${route}, ${name}`).toEqual(nexts.headers);
        expect(mine.body.equals(nexts.body), `${route}, ${name}: the same body bytes`).toBe(true);
      }
      // The site under test answers the same (its own start command, its own preloads), on its own origin (the
      // build's): the same headers but the ETag and length, the same page once the origin is the other's.
      const [site, nexts] = await Promise.all([send(siteOrigin, route, "GET"), send(next.origin, route, "GET")]);
      const unsized = (a: Answer) => a.headers.filter((l) => !/^(etag|content-length): /i.test(l));
      expect(unsized(site), `${route} on the site under test`).toEqual(unsized(nexts));
      expect(toOtherOrigin(site.body.toString()), `${route} on the site under test`).toBe(nexts.body.toString());
    }
  });

  test("what a user notices: gzip for browsers, 304 on revalidation, HEAD without a body, the security headers", async () => {
    const page = await send(fast.origin, "/terms-of-service", "GET", { "accept-encoding": BROWSER });
    expect(page.status).toBe(200);
    expect(header(page, "content-encoding")).toBe("gzip");
    expect(header(page, "content-type")).toBe("text/html; charset=utf-8");
    for (const name of [
      "content-security-policy",
      "x-content-type-options",
      "x-frame-options",
      "referrer-policy",
      "strict-transport-security",
    ]) {
      expect(header(page, name), name).toBeTruthy();
    }
    const plain = await send(fast.origin, "/terms-of-service");
    expect(header(plain, "content-length")).toBe(String(plain.body.length));
    expect(plain.body.toString()).toContain("Terms of Service");

    const again = await send(fast.origin, "/terms-of-service", "GET", {
      "if-none-match": header(page, "etag")!,
      "accept-encoding": BROWSER,
    });
    expect(again.status).toBe(304);
    expect(again.body).toHaveLength(0);

    const head = await send(fast.origin, "/terms-of-service", "HEAD", { "accept-encoding": BROWSER });
    expect(head.status).toBe(200);
    expect(head.body).toHaveLength(0);
    expect(header(head, "content-length")).toBe(String(plain.body.length));
  });

  test("RSC requests, server-action POSTs and query strings still reach Next", async () => {
    // Client navigations and prefetches ask for the RSC payload: Next sends them to its cache-busting URL and answers
    // that with the payload. The fast path answers none of them with the page's HTML.
    const flightRequests: Record<string, string>[] = [
      { rsc: "1" },
      { rsc: "1", "next-router-prefetch": "1" },
      { rsc: "1", "next-router-state-tree": "%5B%22%22%5D" },
    ];
    for (const headers of flightRequests) {
      const [mine, nexts] = await Promise.all([
        send(fast.origin, "/terms-of-service", "GET", headers),
        send(next.origin, "/terms-of-service", "GET", headers),
      ]);
      expect(mine.status, JSON.stringify(headers)).toBe(nexts.status);
      expect(mine.headers, JSON.stringify(headers)).toEqual(nexts.headers);
      expect(header(mine, "content-type") ?? "", JSON.stringify(headers)).not.toContain("text/html");
      const location = header(mine, "location");
      if (location) {
        const payload = await send(fast.origin, location, "GET", headers);
        expect(payload.status, location).toBe(200);
        expect(header(payload, "content-type"), location).toContain("text/x-component");
      }
    }

    // A cross-site POST to the page is a server action attempt: the proxy's CSRF rule refuses it.
    const post = await send(
      fast.origin,
      "/terms-of-service",
      "POST",
      {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "cross-site",
        origin: "https://evil.example",
        "next-action": "0123456789abcdef",
      },
      "a=1",
    );
    expect(post.status).toBe(403);
    expect(JSON.parse(post.body.toString())).toEqual({
      code: "cross_site_request",
      message: "Cross-site requests are not allowed.",
    });

    // A query string, a trailing slash or another spelling is Next's to answer.
    for (const target of [
      "/terms-of-service?utm_source=mail",
      "/terms-of-service/",
      "/Terms-Of-Service",
      "/terms-of-service?",
    ]) {
      const [mine, nexts] = await Promise.all([
        send(fast.origin, target, "GET", { "accept-encoding": BROWSER }),
        send(next.origin, target, "GET", { "accept-encoding": BROWSER }),
      ]);
      expect(mine.status, target).toBe(nexts.status);
      expect(mine.headers, target).toEqual(nexts.headers);
      expect(mine.body.equals(nexts.body), target).toBe(true);
    }
  });
});
