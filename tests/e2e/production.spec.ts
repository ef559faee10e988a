// The standalone production build as it is deployed (README, Production): started with `npm run start:prod`'s
// commands on PostgreSQL, stopped with SIGTERM, and run twice on one database. Needs DATABASE_URL (CI's PostgreSQL
// pass; the embedded database allows one process, so there is nothing to share on the PGlite pass).
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { openPostgres } from "@/db/connect";
import { decideListing } from "@/db/queries/reviews";
import { grantAdmin, insertPasswordUser } from "@/db/queries/users";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { startPricedServer } from "../support/priced-server";
import { toast } from "./support/auth";
import { HOSTILE_PATHS } from "../support/hostile-paths";
import { appPort, referencePort } from "./support/ports";
import { createProductionDatabase, startProductionServer, type ProductionServer } from "./support/production-server";

test.skip(!process.env.DATABASE_URL, "needs a PostgreSQL server (DATABASE_URL)");
test.skip(({ isMobile }) => isMobile, "servers, not layouts: one viewport is enough");
test.describe.configure({ mode: "serial" });

const password = "correct horse battery staple";
const [portA, portB, portC, hangingPort, portD] = [
  appPort + 20,
  appPort + 21,
  appPort + 22,
  appPort + 23,
  appPort + 24,
];
// One public origin for both instances, as behind one proxy; the browser reaches each directly (cookies on
// localhost ignore the port, so a session cookie set by A is sent to B as it would be through the proxy).
const siteUrl = `http://localhost:${portA}`;
const production = {
  NODE_ENV: "production",
  AUTH_SECRET: "production-spec-secret-0123456789abcdef",
  SITE_URL: siteUrl,
};

async function serverRows<T extends Record<string, unknown>>(
  url: string,
  query: string,
  params: string[] = [],
): Promise<T[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(query, params)) as unknown as T[];
  } finally {
    await sql.end();
  }
}

async function signIn(page: Page, email: string) {
  await page.goto(`${siteUrl}/login/email`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(toast(page, "Success", "You have been logged in successfully.")).toBeVisible();
}

/** The times at which each instance finished a scheduled run, from its log. */
function scheduledRuns(server: ProductionServer): number[] {
  return server
    .log()
    .split("\n")
    .filter((line) => line.includes('"msg":"scheduled checks"'))
    .map((line) => Date.parse((JSON.parse(line) as { time: string }).time));
}

test("two instances on one database share sessions, rate limits, the verification schedule and the page cache", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const url = await createProductionDatabase(`agora_prod_${portA}`, production);
  const fixtures = await openPostgres(url, { max: 1 });
  await insertListing(fixtures.db, {
    name: "Long Listed Weather",
    description: "Already in the catalogue before the approval.",
    categories: ["Data"],
    price: 0.01,
    serverUrl: "http://127.0.0.1:9/long-listed",
    status: "approved",
  });
  await insertListing(fixtures.db, {
    name: "Freshly Approved Maps",
    description: "Waits for review until an admin approves it on instance A.",
    categories: ["Data"],
    price: 0.02,
    serverUrl: `http://127.0.0.1:${referencePort}/mcp`,
    status: "pending",
  });
  // Both instances run the schedule every 2 s; the database lease must let only one of them run each interval.
  const interval = 2_000;
  // The pending listing is the run's reference server on loopback: an approval takes its terms from a check that reached it.
  const env = {
    ...production,
    DATABASE_URL: url,
    CHECK_INTERVAL_SECONDS: String(interval / 1000),
    PROBE_ALLOW_PRIVATE_HOSTS: "true",
    UNSAFE_TEST_MODE: "1",
  };
  const servers: ProductionServer[] = [];
  const contexts = [await browser.newContext(), await browser.newContext()];
  try {
    const [a, b] = await Promise.all([startProductionServer(portA, env), startProductionServer(portB, env)]);
    servers.push(a!, b!);
    const originB = `http://localhost:${portB}`;
    const [page, adminPage] = await Promise.all(contexts.map((c) => c.newPage()));

    // Two accounts, made on A: an admin (granted in the database, as `npm run admin:grant` does) and a provider.
    const adminEmail = `admin-${Date.now()}@example.com`;
    const made = await page!.request.post(`${siteUrl}/api/auth/register`, {
      data: { email: adminEmail, password, name: "Ada Admin" },
    });
    expect(made.status()).toBe(201);
    await grantAdmin(fixtures.db, { by: "id", value: ((await made.json()) as { user: { id: string } }).user.id });
    const email = `provider-${Date.now()}@example.com`;
    expect(
      (
        await page!.request.post(`${siteUrl}/api/auth/register`, { data: { email, password, name: "Grace Hopper" } })
      ).status(),
    ).toBe(201);

    // A session made on A works on B.
    await signIn(page!, email);
    await page!.goto(`${originB}/account`);
    await expect(page!.getByText(email)).toBeVisible();

    // Rate limits count across both: 5 registrations an hour per address, wherever they land. Two were made on A.
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const origin = i % 2 === 0 ? originB : siteUrl;
      const res = await page!.request.post(`${origin}/api/auth/register`, {
        data: { email: `limit-${i}-${Date.now()}@example.com`, password, name: "Limit" },
      });
      answers.push(res.status());
    }
    expect(answers).toEqual([201, 201, 201, 429, 429]);

    // B caches the catalogue page; an approval on A then shows on B at once, not after B's 5-minute revalidation.
    for (let i = 0; i < 2; i++) {
      const cached = await page!.request.get(`${originB}/marketplace`);
      expect(await cached.text()).toContain("Long Listed Weather");
    }
    expect(await (await page!.request.get(`${originB}/marketplace`)).text()).not.toContain("Freshly Approved Maps");
    await signIn(adminPage!, adminEmail);
    await adminPage!.goto(`${siteUrl}/admin/review`);
    await adminPage!
      .getByTestId("queue-entry")
      .filter({ hasText: "Freshly Approved Maps" })
      .getByRole("button", { name: "Approve" })
      .click();
    await expect(toast(adminPage!, "Approved")).toBeVisible({ timeout: 20_000 });
    const afterApproval = await page!.request.get(`${originB}/marketplace`);
    expect(await afterApproval.text()).toContain("Freshly Approved Maps");

    // One scheduled run per interval across both instances: every run either of them logged is in the lease
    // table's count, and no two runs (on whichever instance) came closer together than the interval allows.
    const runs = [...scheduledRuns(a!), ...scheduledRuns(b!)].sort((x, y) => x - y);
    const [job] = await serverRows<{ runs: number }>(
      url,
      "select runs from scheduled_jobs where name = 'verify-listings'",
    );
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(job!.runs).toBeGreaterThanOrEqual(runs.length);
    expect(job!.runs).toBeLessThanOrEqual(runs.length + 2); // runs still in progress have not logged yet
    for (let i = 1; i < runs.length; i++)
      expect(runs[i]! - runs[i - 1]!, "time between two scheduled runs").toBeGreaterThan(interval * 0.5);
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.stop()));
    await fixtures.close();
  }
});

/** Sends the first part of a request body now and returns a function that sends the rest and reads the answer. */
function slowPost(port: number, path: string, body: string) {
  const request = http.request({
    host: "127.0.0.1",
    port,
    path,
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": Buffer.byteLength(body),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return () => {
    request.end(body.slice(half));
    return answer;
  };
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

test("SIGTERM: new requests are answered 503 (Connection: close), the request in flight completes, the lease and the pool are released, exit 0", async () => {
  test.setTimeout(90_000);
  // A listed server that accepts connections and never answers: the scheduled check started at boot is still
  // probing it (up to 15 s) when the signal comes, so the verification lease is held.
  const held = new Set<net.Socket>();
  const hanging = net.createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => hanging.listen(hangingPort, "127.0.0.1", resolve));
  const name = `agora_prod_${portC}`;
  const url = await createProductionDatabase(name, production);
  const fixtures = await openPostgres(url, { max: 1 });
  await insertListing(fixtures.db, {
    name: "Never Answers",
    description: "Its server accepts and then says nothing.",
    categories: ["Data"],
    price: 0.01,
    serverUrl: `http://127.0.0.1:${hangingPort}/mcp`,
    status: "approved",
  });
  await fixtures.close();
  // A 20 s interval: the schedule looks for a due run every 2 s, so a claim that missed at boot is soon made again.
  const server = await startProductionServer(portC, {
    ...production,
    DATABASE_URL: url,
    PROBE_ALLOW_PRIVATE_HOSTS: "true",
    UNSAFE_TEST_MODE: "1",
    CHECK_INTERVAL_SECONDS: "20",
  });
  try {
    await expect
      .poll(
        async () =>
          (await serverRows<{ held: boolean }>(url, "select lease_until > now() as held from scheduled_jobs"))[0]?.held,
        { timeout: 15_000 },
      )
      .toBe(true);

    // A client still sending its request (an MCP call, half its body on the wire) when the signal comes.
    const finish = slowPost(
      portC,
      "/api/mcp",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    );
    await new Promise((r) => setTimeout(r, 500));
    const signalled = Date.now();
    server.process.kill("SIGTERM");
    // While it drains, the server still takes connections (closing its socket would reset those the kernel had
    // queued) and answers each new request 503 with Retry-After and Connection: close.
    await expect.poll(() => server.log(), { timeout: 5_000 }).toContain('"msg":"shutting down"');
    const late = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: "127.0.0.1", port: portC, path: "/api/health", agent: false }, resolve).on("error", reject),
    );
    const lateBody = new Promise<string>((resolve) => {
      let text = "";
      late.on("data", (chunk: Buffer) => (text += chunk));
      late.on("end", () => resolve(text));
    });
    expect(late.statusCode).toBe(503);
    expect(late.headers["retry-after"]).toBe("2");
    expect(late.headers.connection).toBe("close");
    expect(JSON.parse(await lateBody)).toMatchObject({ code: "restarting" });
    expect(server.process.exitCode, "still draining the request in flight").toBeNull();

    const answer = await finish();
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("search_servers");

    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(await connects(portC)).toBe(false);
    expect(server.log()).toContain('"msg":"shut down"');
    // Nothing left behind: the lease is free for another instance now, and no connection of the app remains.
    const [lease] = await serverRows<{ held: boolean }>(url, "select lease_until > now() as held from scheduled_jobs");
    expect(lease!.held).toBe(false);
    const admin = new URL(url);
    admin.pathname = "/postgres";
    const [sessions] = await serverRows<{ count: string }>(
      admin.toString(),
      "select count(*) from pg_stat_activity where datname = $1",
      [name],
    );
    expect(Number(sessions!.count)).toBe(0);
  } finally {
    await server.stop();
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => hanging.close(resolve));
  }
});

type Outcome = { status: number; error?: string };

/** One request on a connection of its own, from a chosen loopback address: its status, or the error that ended it. */
function attempt(port: number, path: string, from: string, json?: unknown): Promise<Outcome> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers =
    body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: body === undefined ? "GET" : "POST",
        headers,
        localAddress: from,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ status: -1, error: e.code ?? e.message }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ status: -1, error: e.code ?? e.message }));
    req.end(body);
  });
}

test("SIGTERM under load: every request sent before it, the sign-ins queued in the door and a person's sign-in are answered, none reset; exit 0", async () => {
  test.setTimeout(120_000);
  const port = appPort + 30;
  const url = await createProductionDatabase(`agora_prod_${port}`, production);
  const fixtures = await openPostgres(url, { max: 1 });
  await insertListing(fixtures.db, {
    name: "Drained Weather",
    description: "A detail page rendered while the server shuts down.",
    categories: ["Data"],
    price: 0.01,
    serverUrl: "http://127.0.0.1:9/drained",
    status: "approved",
  });
  await fixtures.close();
  const server = await startProductionServer(port, {
    ...production,
    DATABASE_URL: url,
    CHECK_SCHEDULE_DISABLED: "true",
  });
  try {
    const email = `drained-${Date.now()}@example.com`;
    expect(
      (await attempt(port, "/api/auth/register", "127.0.0.1", { email, password, name: "Drained Person" })).status,
    ).toBe(201);
    const slug = /href="\/marketplace\/([a-z0-9-]+)"/.exec(
      await (await fetch(`${server.origin}/marketplace`)).text(),
    )?.[1];
    expect(slug, "the listing on the marketplace page").toBeTruthy();

    const sent: Promise<Outcome>[] = [];
    let sending = true;
    // 40 requests a second: search and detail pages, each from one of 200 addresses.
    const steady = (async () => {
      for (let i = 0; sending; i++) {
        sent.push(
          attempt(port, i % 2 ? `/marketplace?q=drained${i % 7}` : `/marketplace/${slug}`, `127.0.40.${(i % 200) + 1}`),
        );
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    // Sixty clients signing in with a wrong password, one after another: more than the door lets in at once.
    const signers = Array.from({ length: 60 }, async (_, i) => {
      while (sending) {
        const answer = attempt(port, "/api/auth/login", `127.0.41.${i + 1}`, {
          email: i % 2 ? email : `nobody${i}@example.com`,
          password: "wrong password",
        });
        sent.push(answer);
        await answer;
      }
    });
    await new Promise((r) => setTimeout(r, 3_000));
    // The person signs in as the signal comes: queued in the door, or already checking the password.
    const person = attempt(port, "/api/auth/login", "127.0.42.1", { email, password });
    await new Promise((r) => setTimeout(r, 100));
    server.process.kill("SIGTERM");
    sending = false;
    await Promise.all([steady, ...signers]);
    const outcomes = await Promise.all(sent);

    const reset = outcomes.filter((o) => o.status === -1);
    expect(
      reset,
      `${reset.length} of ${outcomes.length} requests got no answer: ${JSON.stringify(reset.slice(0, 5))}`,
    ).toEqual([]);
    expect(outcomes.filter((o) => ![200, 401, 429, 503].includes(o.status)).map((o) => o.status)).toEqual([]);
    expect([200, 503]).toContain((await person).status);
    expect(await server.exited).toBe(0);
    expect(server.log()).toContain('"msg":"shut down"');
    expect(server.log()).not.toMatch(/\n\s+at |ECONNRESET/);
  } finally {
    await server.stop();
    await test.info().attach("server log", { body: server.log(), contentType: "text/plain" });
  }
});

test("readiness: 503 with the reason when a migration is missing or the database refuses, within 2 s; health stays 200", async ({
  request,
}) => {
  test.setTimeout(60_000);
  const name = `agora_prod_${portD}`;
  const url = await createProductionDatabase(name, production);
  const server = await startProductionServer(portD, {
    ...production,
    DATABASE_URL: url,
    CHECK_SCHEDULE_DISABLED: "true",
  });
  const admin = new URL(url);
  admin.pathname = "/postgres";
  try {
    const ready = await request.get(`${server.origin}/api/ready`);
    expect(ready.status()).toBe(200);
    expect(ready.headers()["cache-control"]).toBe("no-store");
    const health = await request.get(`${server.origin}/api/health`);
    expect(health.status()).toBe(200);
    expect(health.headers()["cache-control"]).toBe("no-store");

    // The database lost the record of its newest migration (restored from an older backup, say).
    const [newest] = await serverRows<{ id: number; hash: string; created_at: string }>(
      url,
      "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning id, hash, created_at",
    );
    const behind = await request.get(`${server.origin}/api/ready`);
    expect(behind.status()).toBe(503);
    expect(((await behind.json()) as { reason: string }).reason).toMatch(/^migrations not applied: \d{4}_\w+$/);
    await serverRows(url, "insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)", [
      String(newest!.id),
      newest!.hash,
      newest!.created_at,
    ]);

    // The database stops taking connections and drops the app's: readiness says so quickly, liveness is unaffected.
    await serverRows(admin.toString(), `alter database "${name}" allow_connections false`);
    await serverRows(admin.toString(), "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [
      name,
    ]);
    const asked = Date.now();
    const down = await request.get(`${server.origin}/api/ready`);
    expect(Date.now() - asked).toBeLessThan(2_000);
    expect(down.status()).toBe(503);
    expect(((await down.json()) as { reason: string }).reason).toMatch(/^database (unreachable|did not answer)/);
    expect((await request.get(`${server.origin}/api/health`)).status()).toBe(200);

    await serverRows(admin.toString(), `alter database "${name}" allow_connections true`);
    await expect
      .poll(async () => (await request.get(`${server.origin}/api/ready`)).status(), { timeout: 15_000 })
      .toBe(200);
  } finally {
    await serverRows(admin.toString(), `alter database "${name}" allow_connections true`).catch(() => {});
    await server.stop();
  }
});

const terminatedPort = appPort + 27;

test("terminating the database's connections again and again: every surface answers 200 or 503 with Retry-After, never 500, and recovers", async () => {
  test.setTimeout(120_000);
  const name = `agora_prod_${terminatedPort}`;
  const url = await createProductionDatabase(name, production);
  const fixtures = await openPostgres(url, { max: 1 });
  const listing = await insertListing(fixtures.db, {
    name: "Tidal Weather",
    description: "Tides and weather for agents.",
    categories: ["Data"],
    price: 0.01,
    serverUrl: "http://127.0.0.1:9/tidal",
    status: "approved",
  });
  await fixtures.close();
  const server = await startProductionServer(terminatedPort, {
    ...production,
    DATABASE_URL: url,
    CHECK_SCHEDULE_DISABLED: "true",
    RATE_LIMIT_DISABLED: "1",
    UNSAFE_TEST_MODE: "1",
  });
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const killer = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  const html = { accept: "text/html" };
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  // A search no cache has seen, so that each request reads the database.
  let searches = 0;
  const fresh = () => `w${++searches}`;
  // Pages rendered per request, the JSON API, the registry API and the MCP endpoint: each needs the database.
  const surfaces: { label: string; path: () => string; init?: RequestInit }[] = [
    { label: "search page", path: () => `/marketplace?q=tidal+${fresh()}`, init: { headers: html } },
    { label: "detail page", path: () => `/marketplace/${listing.slug}?n=${fresh()}`, init: { headers: html } },
    { label: "/api/mcp-agents", path: () => `/api/mcp-agents?q=tidal+${fresh()}` },
    { label: "/api/mcp-agents/:id", path: () => `/api/mcp-agents/${listing.id}` },
    { label: "/v0.1/servers", path: () => `/v0.1/servers?search=tidal${fresh()}` },
    {
      label: "/api/mcp",
      path: () => "/api/mcp",
      init: {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_servers", arguments: { query: `tidal ${fresh()}` } },
        }),
      },
    },
  ];
  const seen: { label: string; status: number; retryAfter: string | null }[] = [];
  const ask = async (surface: (typeof surfaces)[number]) => {
    const response = await fetch(`${server.origin}${surface.path()}`, {
      ...surface.init,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    return { label: surface.label, status: response.status, retryAfter: response.headers.get("retry-after") };
  };
  try {
    for (const surface of surfaces) expect((await ask(surface)).status, surface.label).toBe(200);
    let terminating = true;
    const terminations = (async () => {
      while (terminating) {
        await killer.unsafe(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [name],
        );
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    // Six clients for 20 s, each asking again 150 ms after its last answer (about 12 requests a second on two shared
    // cores), while the app's connections are ended every 150 ms.
    const until = Date.now() + 20_000;
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        for (let i = worker; Date.now() < until; i += 6) {
          seen.push(await ask(surfaces[i % surfaces.length]!));
          await new Promise((r) => setTimeout(r, 150));
        }
      }),
    );
    terminating = false;
    await terminations;
    const failures = seen.filter((s) => s.status !== 200 && !(s.status === 503 && Number(s.retryAfter) > 0));
    expect(
      failures,
      `${seen.length} requests; not 200 or 503 with Retry-After: ${JSON.stringify(failures.slice(0, 10))}`,
    ).toEqual([]);
    // Classified as the database being away, never as a bug of the route.
    expect(server.log()).not.toContain('"msg":"unhandled route error"');
    // Recovered: every surface answers 200 again once the terminations stop.
    for (const surface of surfaces)
      await expect.poll(async () => (await ask(surface)).status, { message: surface.label, timeout: 15_000 }).toBe(200);
  } finally {
    await killer.end();
    await server.stop();
  }
});

const heldPort = appPort + 28;

test("a 999× price rise and a new payee stay off the rendered detail page: the approved price and payee, no Verified, the change held for review", async () => {
  test.setTimeout(120_000);
  const url = await createProductionDatabase(`agora_prod_${heldPort}`, production);
  const fixtures = await openPostgres(url, { max: 2 });
  const wallets = ["0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"] as const;
  const priced = await startPricedServer({
    items: [{ name: "Forecast", amount: 0.01 }],
    wallet: wallets[0],
    extraTool: false,
  });
  let server: ProductionServer | undefined;
  try {
    // Submitted, checked, approved and checked again (as the review flow does); then the server changes its terms.
    const reviewer = (
      await insertPasswordUser(fixtures.db, { email: "held-reviewer@example.com", name: "Reviewer", passwordHash: "x" })
    ).id;
    const listing = await insertListing(fixtures.db, {
      name: "Held Terms Weather",
      description: "Forecasts whose seller raises the price.",
      categories: ["Data"],
      serverUrl: priced.url,
      status: "pending",
    });
    const loopback = { allowPrivateHosts: true };
    await checkListing(fixtures.db, listing.id, loopback);
    expect(
      (
        await decideListing(fixtures.db, listing.id, reviewer, {
          decision: "approved",
          reason: null,
          revision: listing.revision,
        })
      ).ok,
    ).toBe(true);
    expect((await checkListing(fixtures.db, listing.id, loopback))?.listing?.verified).toBe(true);
    priced.state.items = [{ name: "Forecast", amount: 9.99 }];
    priced.state.wallet = wallets[1];
    expect((await checkListing(fixtures.db, listing.id, loopback))?.listing).toEqual({ price: 0.01, verified: false });

    server = await startProductionServer(heldPort, {
      ...production,
      DATABASE_URL: url,
      CHECK_SCHEDULE_DISABLED: "true",
    });
    const page = await fetch(`${server.origin}/marketplace/${listing.slug}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const text = html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    expect(text).toContain("Price $0.01 / call");
    expect(text).toContain(`Accepts USDC_BASE_SEPOLIA → ${wallets[0]}`);
    expect(text).not.toContain(`Accepts USDC_BASE_SEPOLIA → ${wallets[1]}`);
    expect(text).not.toContain("$9.99");
    expect(text).toMatch(/Price changed on .+: Forecast — 0\.01 USDC → 9\.99 USDC \(held for review\)/);
    // No Verified badge (its title), only the page's own explanation of what Verified means.
    expect(html).not.toContain("Approved, and its latest automatic check passed");
    expect(text).toContain("Back to marketplace New Reachable Held Terms Weather");
  } finally {
    await server?.stop();
    await priced.close();
    await fixtures.close();
  }
});

// ---------- bursts, bodies, distinct URLs and odd requests against the production server ----------

const burstPort = appPort + 25;

/** Resident memory of the server and its children, in MB. */
function rssMb(pid: number): number {
  const children = (() => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  let kb = 0;
  for (const p of [pid, ...children]) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return Math.round(kb / 1024);
}

type Raw = { status: number; body: string };

/** One request as written (path as is, any method, a body on a GET), from a chosen loopback address. */
function raw(
  port: number,
  path: string,
  init: { method?: string; body?: string; from?: string; headers?: Record<string, string> } = {},
): Promise<Raw> {
  return new Promise((resolve) => {
    const headers = {
      ...init.headers,
      ...(init.body === undefined ? {} : { "content-length": String(Buffer.byteLength(init.body)) }),
    };
    const req = http.request(
      { host: "127.0.0.1", port, path, method: init.method ?? "GET", headers, localAddress: init.from, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", () => resolve({ status: -1, body }));
      },
    );
    req.setTimeout(60_000, () => req.destroy());
    req.on("error", () => resolve({ status: -1, body: "" }));
    req.end(init.body);
  });
}

/** Writes a GET of `target` byte for byte (no client library straightens it); the answer's status, -1 if none in 1 s. */
function rawLine(port: number, target: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? -1));
    };
    const timer = setTimeout(done, 1_000);
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (/^HTTP\/1\.1 \d{3}/.test(text)) done();
    });
    socket.on("error", done);
    socket.on("end", done);
    socket.write(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, "utf8"));
  });
}

test.describe("issue 42: the production server under bursts, bodies and odd requests", () => {
  let server: ProductionServer;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const url = await createProductionDatabase(`agora_prod_${burstPort}`, production);
    // The image's heap cap (Dockerfile NODE_OPTIONS), so memory held per request shows as it would in production.
    server = await startProductionServer(burstPort, {
      ...production,
      DATABASE_URL: url,
      CHECK_SCHEDULE_DISABLED: "true",
      NODE_OPTIONS: "--max-old-space-size=256 --max-semi-space-size=16",
    });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("TRACE and other methods no route serves answer 405, escaped paths answer as decoded or 404, and none logs a stack", async () => {
    test.setTimeout(60_000);
    const logged = server.log().length;
    const routes = [
      "/",
      "/marketplace",
      "/register",
      "/login/email",
      "/api/health",
      "/api/ready",
      "/api/mcp",
      "/api/mcp-agents",
      "/api/auth/login",
      "/v0.1/servers",
      "/api/nextauth/providers",
      "/terms-of-service",
    ];
    for (const route of routes) {
      for (const method of ["TRACE", "PROPFIND", "PURGE"])
        expect((await raw(burstPort, route, { method })).status, `${method} ${route}`).toBe(405);
    }
    // Escaped letters and digits are the same address; other escapes of a route's path are not that route.
    const same: [string, string][] = [
      ["/%72egister", "/register"],
      ["/reg%69ster", "/register"],
      ["/api/%68ealth", "/api/health"],
      ["/api/%6Dcp-agents", "/api/mcp-agents"],
      ["/api/mcp%2Dagents", "/api/mcp-agents"],
      ["/%6Darketplace", "/marketplace"],
      ["/v0.1/%73ervers", "/v0.1/servers"],
      ["/login/%65mail", "/login/email"],
      ["/%2e%2e/register", "/register"],
    ];
    for (const [escaped, plain] of same)
      expect((await raw(burstPort, escaped)).status, escaped).toBe((await raw(burstPort, plain)).status);
    for (const path of [
      "/api%2Fhealth",
      "/api%2fhealth",
      "/v0.1%2Fservers",
      "/login%2Femail",
      "/%2e%2e/api%2Fhealth",
      "/api/%2e%2e/health",
      "/%252Fregister",
      "/api/health%2F",
    ]) {
      expect((await raw(burstPort, path)).status, path).toBe(404);
    }
    // Bodies abandoned half-way, and Auth.js addresses no provider or action answers.
    for (const path of ["/api/auth/login", "/api/mcp", "/login/email"]) {
      const upload = http.request({
        host: "127.0.0.1",
        port: burstPort,
        path,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": "1000" },
        agent: false,
      });
      upload.on("error", () => {});
      upload.write('{"email":');
      await new Promise((r) => setTimeout(r, 300));
      upload.destroy();
    }
    for (const path of [
      "/api/nextauth/signin/nope",
      "/api/nextauth/callback/nope",
      "/api/nextauth/nope",
      "/api/nextauth/%70roviders",
    ]) {
      expect((await raw(burstPort, path)).status, path).toBeLessThan(500);
    }
    await expect
      .poll(() => server.log().slice(logged), { timeout: 5_000 })
      .toContain("clients left before their request body arrived");
    const log = server.log().slice(logged);
    expect(log).not.toMatch(/\n\s+at |"stack"|Error: aborted|too many times|HTTP method is unsupported/);
  });

  test("hostile spellings of a path are each answered within a second, none with a 5xx, and none logs a stack", async () => {
    test.setTimeout(60_000);
    const logged = server.log().length;
    // The not-found and redirect answers rendered once first: the bound is on answering, not on a cold render.
    for (const target of ["/nothing-here", "//nothing-here", "/%00"]) await rawLine(burstPort, target);
    for (const target of HOSTILE_PATHS) {
      const started = performance.now();
      const status = await rawLine(burstPort, target);
      const label = `GET ${target.slice(0, 60)}`;
      expect(status, label).toBeGreaterThanOrEqual(200);
      expect(status, label).toBeLessThan(500);
      expect(performance.now() - started, label).toBeLessThan(1_000);
    }
    expect((await raw(burstPort, "/api/health")).status).toBe(200);
    const log = server.log().slice(logged);
    expect(log).not.toMatch(/\n\s+at |"stack"|Invalid URL|TypeError/);
  });

  test("1,000 requests with a 1-byte body at once are counted and refused past the limit; the server answers afterwards", async () => {
    test.setTimeout(120_000);
    // From 250 addresses, four each: the per-client cap is not what holds them back.
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        raw(burstPort, `/marketplace?q=burst${i % 50}`, {
          body: "x",
          from: `127.0.${60 + Math.floor(i / 4 / 250)}.${((i >> 2) % 250) + 1}`,
          headers: { accept: "text/html" },
        }),
      ),
    );
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    expect(
      count(200) + count(503),
      JSON.stringify(
        answers
          .map((a) => a.status)
          .filter((s) => s !== 200 && s !== 503)
          .slice(0, 10),
      ),
    ).toBe(1_000);
    expect(count(503)).toBeGreaterThan(500);
    expect((await raw(burstPort, "/api/health")).status).toBe(200);
    expect((await raw(burstPort, "/marketplace?q=after")).status).toBe(200);
    expect(rssMb(server.process.pid!)).toBeLessThan(400);
  });

  test("4,000 distinct URLs, 16 at a time, leave memory flat and the server answering", async () => {
    test.setTimeout(300_000);
    const urls = Array.from(
      { length: 4_000 },
      (_, i) =>
        [
          `/marketplace?q=distinct${i}`,
          `/marketplace?q=distinct${i}&category=Data`,
          `/api/mcp-agents?q=distinct${i}`,
          `/marketplace?q=distinct${i}&sort=name`,
        ][i % 4]!,
    );
    let next = 0;
    const failures: string[] = [];
    // Sixteen clients, one request at a time each.
    const worker = async (client: number) => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const answer = await raw(burstPort, url, { from: `127.0.70.${client + 1}` });
        if (answer.status !== 200) failures.push(`${answer.status} ${url}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, client) => worker(client)));
    expect(failures.slice(0, 10)).toEqual([]);
    expect((await raw(burstPort, "/api/health")).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
    // The memory plan (docs/production.md) levels RSS off near 450 MB under a crawl: heap capped at 256 MB, RSC
    // buffers and code outside it. Past that level, something is kept that the plan does not count.
    expect(rssMb(server.process.pid!)).toBeLessThan(480);
  });
});
