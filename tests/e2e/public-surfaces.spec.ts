// The public surfaces of the hardening audit, on a standalone production server of their own (its log, its process
// and its limits are the test's to read): POSTs to the catalogue judged as every page's are, the listing image
// rendered once and only for listings, the wallet page's chain reads bounded per client, and Auth.js's malformed
// requests logged without stacks. Needs DATABASE_URL (the standalone server runs on PostgreSQL).
import fs from "node:fs";
import http from "node:http";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { openPostgres } from "@/db/connect";
import { insertListing } from "@/lib/listings/write";
import { appPort, chainPort, smtpPort } from "./support/ports";
import { createProductionDatabase, startProductionServer, type ProductionServer } from "./support/production-server";

test.skip(!process.env.DATABASE_URL, "needs a PostgreSQL server (DATABASE_URL)");
test.skip(({ isMobile }) => isMobile, "servers, not layouts: one viewport is enough");
test.describe.configure({ mode: "serial" });

const port = appPort + 30;
const counterPort = appPort + 31;
// The public origin names localhost; the test reaches the server as 127.0.0.1, so Host is not the public host (as
// behind a proxy).
const siteUrl = `http://localhost:${port}`;
const direct = `http://127.0.0.1:${port}`;
// Mail goes to the suite's fake SMTP server, so the reset action below answers as a configured site does.
const env = {
  NODE_ENV: "production",
  AUTH_SECRET: "public-surfaces-secret-0123456789abcdef",
  SITE_URL: siteUrl,
  CHECK_SCHEDULE_DISABLED: "1",
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_FROM: "Agora <no-reply@agora.test>",
};

let server: ProductionServer;
let counter: http.Server;
const rpcCalls: string[] = [];
const balanceReads = () => rpcCalls.filter((m) => m === "eth_call").length;
let listingSlug: string;
// lib/rate-limit.ts limits.walletBalanceReadsPerIp.max (that module imports next/server, which Playwright's loader cannot).
const BALANCE_READS_PER_CLIENT = 20;

/** What the server logged since `from` characters: no stack, no error line, no uncaught exception. */
function expectQuietLog(from: number) {
  const log = server.log().slice(from);
  expect(log).not.toMatch(/\n\s+at .+:\d+/);
  expect(log).not.toMatch(/"stack"|"level":"error"|Invalid Server Actions request|uncaught/i);
}

function rssMb(): number {
  const status = fs.readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const url = await createProductionDatabase(`agora_surfaces_${port}`, env);
  const fixtures = await openPostgres(url, { max: 1 });
  listingSlug = (
    await insertListing(fixtures.db, {
      name: "Surface Weather",
      description: "A listing whose page and image are shared.",
      categories: ["Data"],
      price: 0.01,
      serverUrl: "http://127.0.0.1:9/surface",
      status: "approved",
    })
  ).slug;
  await fixtures.close();
  // A loopback proxy in front of the run's anvil that counts each JSON-RPC method the site calls.
  counter = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { method: string } | { method: string }[];
    for (const call of [body].flat()) rpcCalls.push(call.method);
    const answer = await fetch(`http://127.0.0.1:${chainPort}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat(chunks),
    });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  await new Promise<void>((resolve) => counter.listen(counterPort, "127.0.0.1", resolve));
  server = await startProductionServer(port, {
    ...env,
    DATABASE_URL: url,
    CHAIN_RPC_URLS: `eip155:84532=http://127.0.0.1:${counterPort}`,
  });
});

test.afterAll(async () => {
  await server?.stop();
  counter?.closeAllConnections();
  await new Promise((resolve) => counter?.close(resolve));
});

test("POSTs to the catalogue are judged as every page's: cross-site 403, broken multipart 400, a forged X-Forwarded-Host harmless", async ({
  request,
}) => {
  const manifest = JSON.parse(fs.readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const reset = Object.entries(manifest.node).find(([, a]) => a.exportedName === "requestPasswordResetLink")![0];
  const logged = server.log().length;
  for (const path of ["/marketplace", "/marketplace?page=1", "/marketplace?q=weather"]) {
    const crossSite = await request.post(`${direct}${path}`, {
      headers: {
        "next-action": reset,
        origin: "http://evil.example",
        "x-forwarded-host": "evil.example",
        "content-type": "text/plain;charset=UTF-8",
      },
      data: '[{"email":"a@b.co"}]',
    });
    expect(crossSite.status(), path).toBe(403);
    expect(await crossSite.json(), path).toEqual({
      code: "cross_site_request",
      message: "Cross-site requests are not allowed.",
    });
    const broken = await request.post(`${direct}${path}`, {
      headers: { origin: siteUrl, "content-type": "multipart/form-data; boundary=xyz" },
      data: "garbage",
    });
    expect(broken.status(), path).toBe(400);
    expect(await broken.json(), path).toEqual({
      code: "invalid_form",
      message: "The request body is not a valid form submission.",
    });
    // This site's origin, with a forged X-Forwarded-Host and a Host that is not the public one: Next used to throw.
    const forged = await request.post(`${direct}${path}`, {
      headers: {
        "next-action": reset,
        origin: siteUrl,
        "x-forwarded-host": "evil.example",
        "content-type": "text/plain;charset=UTF-8",
      },
      data: JSON.stringify([{ email: `nobody-${path.length}@example.com` }]),
    });
    expect(forged.status(), path).toBeLessThan(500);
  }
  // The action itself, on its own page, still runs behind the forged header.
  const ok = await request.post(`${direct}/forgot-password`, {
    headers: {
      "next-action": reset,
      origin: siteUrl,
      "x-forwarded-host": "evil.example",
      "content-type": "text/plain;charset=UTF-8",
    },
    data: '[{"email":"nobody@example.com"}]',
  });
  expect(ok.status()).toBe(200);
  expect(await ok.text()).toContain("we sent a link to reset its password");
  expectQuietLog(logged);
});

test("a listing's Open Graph image: 404 at once for unknown slugs, rendered once for a listing, memory flat", async ({
  request,
}) => {
  test.setTimeout(120_000);
  const page = await (await request.get(`${direct}/marketplace/${listingSlug}`)).text();
  const image = new URL(/<meta property="og:image" content="([^"]+)"/.exec(page)![1]!.replaceAll("&amp;", "&"));
  const path = `${image.pathname}${image.search}`;
  expect(path).toContain(`/marketplace/${listingSlug}/opengraph-image`);
  const unknownPath = (n: number | string) =>
    path.replace(`/marketplace/${listingSlug}/`, `/marketplace/no-such-listing-${n}/`);

  const first = await request.get(`${direct}${path}`);
  expect(first.status()).toBe(200);
  expect(first.headers()["content-type"]).toBe("image/png");
  expect(first.headers()["etag"]).toMatch(/^"og-[\w-]+"$/);
  expect(first.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+/);
  const bytes = await first.body();
  // Stored: the next request is the route cache's, with the same image and validator, and quick.
  await expect.poll(async () => (await request.get(`${direct}${path}`)).headers()["x-nextjs-cache"]).toBe("HIT");
  const started = Date.now();
  const second = await request.get(`${direct}${path}`);
  expect(Date.now() - started).toBeLessThan(300);
  expect(second.headers()["x-nextjs-cache"]).toBe("HIT");
  expect(second.headers()["etag"]).toBe(first.headers()["etag"]);
  expect(Buffer.compare(await second.body(), bytes)).toBe(0);

  // Unknown listings (and an id) are 404 before anything is drawn, never stored.
  for (const key of ["warm-up", "00000000-0000-4000-8000-000000000000"]) {
    const t = Date.now();
    const unknown = await request.get(
      `${direct}${path.replace(`/marketplace/${listingSlug}/`, `/marketplace/${key}/`)}`,
    );
    expect(unknown.status(), key).toBe(404);
    expect(Date.now() - t, key).toBeLessThan(1_000);
    expect(unknown.headers()["x-nextjs-cache"], key).not.toBe("HIT");
  }
  // Distinct unknown URLs leave the server's memory where it was: warm up, then measure around 400 more.
  const batch = async (from: number, count: number) => {
    for (let i = from; i < from + count; i += 8) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, j) => request.get(`${direct}${unknownPath(i + j)}`)),
      );
      for (const a of answers) expect(a.status()).toBe(404);
    }
  };
  // The warm-up is as long as the measured batch: RSS still rose by 40-47 MB over the first 480 unknown URLs (the
  // heap and Next's own structures growing to their working size), which a shorter warm-up counted as growth.
  await batch(0, 400);
  const before = rssMb();
  await batch(1_000, 400);
  const after = rssMb();
  expect(after - before, `RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`).toBeLessThan(40);
});

test("the wallet page reads the chain sparingly: nothing unasked, one read per address, a limit per client no header dodges", async ({
  request,
}) => {
  test.setTimeout(120_000);
  const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
  const get = (api: APIRequestContext, path: string, i: number) =>
    // Forged client headers: the limit keys on the connection's address (no trusted proxy is configured).
    api.get(`${direct}${path}`, {
      headers: {
        "x-forwarded-for": `203.0.113.${i % 250}`,
        "x-real-ip": `198.51.100.${i % 250}`,
        "x-agora-client-address": `192.0.2.${i % 250}`,
      },
    });

  const start = balanceReads();
  for (let i = 0; i < 30; i++) {
    const page = await get(request, `/wallet/${fresh()}`, i);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain("Show balance");
  }
  expect(balanceReads() - start, "addresses nobody asked about").toBe(0);

  const address = fresh();
  for (let i = 0; i < 2; i++)
    expect(await (await get(request, `/wallet/${address}?balance=show`, i)).text()).toContain("$0.00");
  expect(balanceReads() - start, "one address twice").toBe(1);

  let limited = 0;
  for (let i = 0; i < BALANCE_READS_PER_CLIENT + 20; i++) {
    const text = await (await get(request, `/wallet/${fresh()}?balance=show`, i)).text();
    if (text.includes("Too many balance reads from your address.")) limited++;
  }
  expect(balanceReads() - start, "many addresses from one client").toBe(BALANCE_READS_PER_CLIENT);
  expect(limited).toBe(21);
});

test("malformed requests to Auth.js are answered and logged without a stack", async ({ request }) => {
  const logged = server.log().length;
  const form = { "content-type": "application/x-www-form-urlencoded", origin: siteUrl };
  const answers = [
    await request.post(`${direct}/api/nextauth/signout`, { headers: form, data: "csrfToken=forged" }),
    await request.post(`${direct}/api/nextauth/callback/password`, {
      headers: form,
      data: "email=a%40b.co&password=x&csrfToken=forged",
    }),
    await request.get(`${direct}/api/nextauth/signin?callbackUrl=javascript:alert(1)`, { maxRedirects: 0 }),
    await request.get(`${direct}/api/nextauth/session`, { headers: { cookie: "authjs.session-token=not-a-jwe" } }),
    await request.post(`${direct}/api/nextauth/session`, {
      headers: { "content-type": "application/json", origin: siteUrl },
      data: "{not json",
    }),
    await request.get(`${direct}/api/nextauth/nope`, { maxRedirects: 0 }),
  ];
  for (const answer of answers) expect(answer.status()).toBeLessThan(500);
  await expect.poll(() => server.log().slice(logged)).toContain("auth.js: refused a malformed request");
  expectQuietLog(logged);
});
