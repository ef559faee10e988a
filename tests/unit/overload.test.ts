// server/overload.mjs: past MAX_IN_FLIGHT_REQUESTS requests at once, the next one is answered 503 at once (with
// Retry-After) instead of queueing until the heap runs out. Loaded with --import into a real node:http server on
// loopback, as the production starts load it in front of Next; the server holds requests open until the client
// lets go, so "in flight" is exact.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { productionStart } from "../support/production-start";

// Held requests stay open until their client goes away; the health check says how many the handler holds.
const SERVER = `
const http = require("node:http");
let holding = 0;
const server = http.createServer((req, res) => {
  const path = req.url.split("?")[0];
  if (path === "/hold" || path === "/api/hold") {
    holding++;
    res.once("close", () => holding--);
    return;
  }
  if (path === "/echo") return res.end(req.url);
  if (path === "/api/auth/login") {
    // A password check: answered after ?ms= with ?status= (401: a wrong password).
    const q = new URLSearchParams(req.url.split("?")[1]);
    holding++;
    res.once("close", () => holding--);
    req.resume();
    return setTimeout(() => { res.statusCode = Number(q.get("status") ?? 200); res.end(path); }, Number(q.get("ms") ?? 0));
  }
  if (path === "/next-style") {
    // As Next does with a body the client abandons: the stream's error is logged.
    req.on("error", (error) => console.error(error));
    req.resume();
    return;
  }
  if (req.url === "/upload") {
    // Answers once the whole body has arrived.
    holding++;
    res.once("close", () => holding--);
    req.resume();
    req.on("end", () => res.end("received"));
    return;
  }
  if (req.url === "/api/health") return res.end(JSON.stringify({ holding }));
  res.end("ok");
});
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
`;

type Started = { child: ChildProcess; port: number; output: () => string };
const children: ChildProcess[] = [];
const held: http.ClientRequest[] = [];

afterEach(() => {
  for (const req of held.splice(0)) req.destroy();
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

const SETTINGS = [
  "MAX_IN_FLIGHT_REQUESTS",
  "MAX_IN_FLIGHT_PER_CLIENT",
  "MAX_IN_FLIGHT_SIGN_INS",
  "REQUEST_BODY_TIMEOUT_SECONDS",
  "TRUSTED_PROXY_HOPS",
  "MAX_RENDERS",
  "NODE_OPTIONS",
];

function start(
  limit: string | undefined,
  settings: Record<string, string> = { MAX_IN_FLIGHT_PER_CLIENT: "0" },
): Promise<Started> {
  const env = { ...process.env };
  for (const name of SETTINGS) delete env[name];
  if (limit !== undefined) env.MAX_IN_FLIGHT_REQUESTS = limit;
  Object.assign(env, settings);
  const child = spawn(process.execPath, ["--import", "./server/overload.mjs", "-e", SERVER], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port = /PORT (\d+)/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port), output: () => output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

type Init = { method?: string; headers?: Record<string, string>; body?: string; from?: string };

function send(port: number, path: string, init: Init = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: init.method ?? "GET",
        headers: init.headers,
        agent: false,
        localAddress: init.from,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

const holding = async (port: number) => JSON.parse((await send(port, "/api/health")).body).holding as number;

/** Opens `n` more requests the server holds (a page, or `path`), and waits until its handler has them all. */
async function hold(
  port: number,
  n: number,
  options: { path?: string; from?: (i: number) => string; body?: string } = {},
): Promise<void> {
  const expected = (await holding(port)) + n;
  for (let i = 0; i < n; i++) {
    const headers =
      options.body === undefined ? undefined : { "content-length": String(Buffer.byteLength(options.body)) };
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: options.path ?? "/hold",
      agent: false,
      headers,
      localAddress: options.from?.(i),
    });
    req.on("error", () => {});
    req.end(options.body);
    held.push(req);
  }
  await expect.poll(() => holding(port), { timeout: 10_000 }).toBe(expected);
}

describe("overload preload", () => {
  it("answers 503 with Retry-After past the limit, and serves again once a request finishes", async () => {
    const { port, output } = await start("2");
    expect((await send(port, "/fast")).status).toBe(200);
    // A page and an API call: with two places, each kind may hold at most one of them (three quarters, rounded down).
    await hold(port, 1);
    await hold(port, 1, { path: "/api/hold" });

    const refused = await send(port, "/api/mcp-agents?q=weather");
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(refused.body)).toEqual({
      code: "overloaded",
      message: "Agora is busy right now. Please try again in a moment.",
    });

    const page = await send(port, "/marketplace/some-listing", {
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    expect(page.status).toBe(503);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<h1>Busy</h1>");
    expect(page.body).toContain('<a href="/marketplace/some-listing">Try again</a>');
    // What the address holds goes back into the page only as path characters.
    const hostile = await send(port, "/x%22%3E%3Cscript%3Ealert(1)%3C/script%3E", { headers: { accept: "text/html" } });
    expect(hostile.body).toContain(`<a href="/x223E3Cscript3Ealert13C/script3E">`);
    expect(hostile.body).not.toContain("<script");
    expect(page.body).not.toContain("<script");

    const mcp = await send(port, "/api/mcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(503);
    expect(JSON.parse(mcp.body)).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Agora is busy right now. Please try again in a moment.",
        data: { code: "overloaded" },
      },
      id: null,
    });

    // Health and readiness are never refused: an orchestrator must not restart a busy instance.
    expect((await send(port, "/api/health")).status).toBe(200);
    expect((await send(port, "/api/ready")).status).toBe(200);

    // The page ends: there is room for a page again.
    held.shift()!.destroy();
    await expect.poll(() => holding(port), { timeout: 5_000 }).toBe(1);
    expect((await send(port, "/fast")).status).toBe(200);
    // The refusals were logged as a count, not a line each.
    const lines = output()
      .split("\n")
      .filter((l) => l.includes('"msg":"overloaded: requests refused"'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThan(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "warn", limit: 2, inFlight: 2 });
  });

  it("counts a request from the moment it arrives, a GET with a 1-byte body included; bodies still arriving hold half the places at most", async () => {
    const { port } = await start("4");
    // GETs with a one-byte body the handler never reads (Next never reads a page's): they count, up to half the places.
    await hold(port, 2, { body: "x" });
    const third = await send(port, "/marketplace?q=weather", {
      method: "GET",
      headers: { "content-length": "1" },
      body: "x",
    });
    expect(third.status).toBe(503);
    // The other half is there for everything else: a page, an API call, then the limit.
    await hold(port, 1);
    await hold(port, 1, { path: "/api/hold" });
    expect((await send(port, "/fast")).status).toBe(503);
    // Answered, they give their places back (a body nobody read is drained after the answer, and counts no more).
    for (const req of held.splice(0)) req.destroy();
    await expect.poll(() => holding(port), { timeout: 5_000 }).toBe(0);
    for (let i = 0; i < 10; i++)
      expect((await send(port, "/fast", { headers: { "content-length": "1" }, body: "x" })).status).toBe(200);
    await hold(port, 3);
    expect((await send(port, "/fast")).status).toBe(503);
  });

  it("closes a connection whose body has not arrived within REQUEST_BODY_TIMEOUT_SECONDS, and its place is free again", async () => {
    const { port } = await start("2", { MAX_IN_FLIGHT_PER_CLIENT: "0", REQUEST_BODY_TIMEOUT_SECONDS: "1" });
    const upload = http.request({
      host: "127.0.0.1",
      port,
      path: "/upload",
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "1000" },
      agent: false,
    });
    const closed = new Promise<void>((resolve) => upload.on("error", () => resolve()).on("close", () => resolve()));
    upload.write("{");
    held.push(upload);
    await expect.poll(() => holding(port), { timeout: 5_000 }).toBe(1);
    // One place of two: a page still gets in, and nothing else does (the upload holds the other).
    await hold(port, 1);
    expect((await send(port, "/fast")).status).toBe(503);
    await closed;
    await expect.poll(() => holding(port), { timeout: 5_000 }).toBe(1);
    expect((await send(port, "/api/fast")).status).toBe(200);
  });

  it("caps the requests in flight per client address, whatever the client writes in its headers", async () => {
    const { port } = await start("64", { MAX_IN_FLIGHT_PER_CLIENT: "3" });
    await hold(port, 3, { from: () => "127.0.0.2" });
    const forged = { "x-forwarded-for": "10.9.8.7", "x-agora-client-address": "10.9.8.6", "x-real-ip": "10.9.8.5" };
    expect((await send(port, "/fast", { from: "127.0.0.2", headers: forged })).status).toBe(503);
    expect((await send(port, "/fast", { from: "127.0.0.3" })).status).toBe(200);

    // Behind one trusted proxy the client is the address the proxy appended; what the client wrote before it is not.
    const proxied = await start("64", { MAX_IN_FLIGHT_PER_CLIENT: "2", TRUSTED_PROXY_HOPS: "1" });
    await hold(proxied.port, 2, { path: "/hold" });
    const asClient = (address: string, forgedLeft = "") =>
      send(proxied.port, "/fast", { headers: { "x-forwarded-for": `${forgedLeft}${address}` } });
    expect((await asClient("203.0.113.9")).status).toBe(200);
    // The held requests came from loopback with no header: that client is full, through the proxy's own address too.
    expect((await send(proxied.port, "/fast")).status).toBe(503);
    expect((await asClient("127.0.0.1", "198.51.100.1, ")).status).toBe(503);
  });

  it("lets no one kind of work take every place: pages hold three quarters at most", async () => {
    const { port } = await start("4");
    await hold(port, 3);
    expect((await send(port, "/fast")).status).toBe(503);
    expect((await send(port, "/api/fast")).status).toBe(200);
  });

  it("gives sign-ins places of their own, taken from no one, and lets a fresh client go ahead of failing ones", async () => {
    const { port } = await start("2", { MAX_IN_FLIGHT_PER_CLIENT: "0", MAX_IN_FLIGHT_SIGN_INS: "1" });
    await hold(port, 1);
    await hold(port, 1, { path: "/api/hold" });
    expect((await send(port, "/fast")).status).toBe(503);
    // Every general place is taken: a sign-in still goes in, on its own place.
    const signIn = (from: string, ms: number, status = 401) =>
      send(port, `/api/auth/login?ms=${ms}&status=${status}`, {
        method: "POST",
        from,
        headers: { "content-type": "application/json" },
        body: "{}",
      });
    expect((await signIn("127.0.0.9", 0, 200)).status).toBe(200);

    // Five addresses fail, then keep three sign-ins each waiting; a person's sign-in from a new address arrives last.
    const attackers = Array.from({ length: 5 }, (_, i) => `127.0.1.${i + 1}`);
    await Promise.all(attackers.map((from) => signIn(from, 0)));
    const order: string[] = [];
    const burst = attackers.flatMap((from) =>
      [0, 1, 2].map(() => signIn(from, 100).then((a) => (order.push(from), a))),
    );
    await new Promise((r) => setTimeout(r, 50));
    const person = await signIn("127.0.2.1", 0, 200).then((a) => (order.push("person"), a));
    expect(person.status).toBe(200);
    const answers = await Promise.all(burst);
    // One place, one sign-in at a time: only the check already running was ahead of the person.
    expect(order.indexOf("person")).toBeLessThanOrEqual(1);
    expect(answers.every((a) => a.status === 401 || a.status === 503)).toBe(true);
    for (const refused of answers.filter((a) => a.status === 503))
      expect(JSON.parse(refused.body)).toEqual({
        code: "busy",
        message: "Too many sign-ins are being checked right now. Please try again in a moment.",
      });
  });

  it("answers methods no route serves with 405, decodes escaped letters in the path, and logs no stack for an abandoned body", async () => {
    const { port, output } = await start("8");
    const trace = await send(port, "/hold", { method: "TRACE" });
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(trace.body)).toEqual({ code: "method_not_allowed", message: "TRACE is not served here." });
    expect((await send(port, "/api/health", { method: "PROPFIND" })).status).toBe(405);
    // /%65cho is /echo; an escaped slash or dot stays as it was sent.
    expect((await send(port, "/%65%63ho?x=%41")).body).toBe("/echo?x=%41");
    expect((await send(port, "/%2e%2e/%2Fhold")).status).toBe(200);

    const upload = http.request({
      host: "127.0.0.1",
      port,
      path: "/next-style",
      method: "POST",
      headers: { "content-length": "1000" },
      agent: false,
    });
    upload.on("error", () => {});
    upload.write("{");
    await new Promise((r) => setTimeout(r, 200));
    upload.destroy();
    await expect.poll(output, { timeout: 5_000 }).toContain('"msg":"clients left before their request body arrived"');
    expect(output()).not.toContain("Error: aborted");
  });

  it("renders no more pages at once than the memory plan has places for: one per 16 MB of heap cap, or MAX_RENDERS", async () => {
    const capped = await start(undefined, { NODE_OPTIONS: "--max-old-space-size=160" });
    await hold(capped.port, 10, { from: (i) => `127.0.6.${i + 1}` });
    expect((await send(capped.port, "/fast", { from: "127.0.7.1" })).status).toBe(503);
    expect((await send(capped.port, "/api/fast", { from: "127.0.7.2" })).status).toBe(200);

    const set = await start(undefined, { MAX_RENDERS: "3" });
    await hold(set.port, 3, { from: (i) => `127.0.8.${i + 1}` });
    expect((await send(set.port, "/fast", { from: "127.0.9.1" })).status).toBe(503);
    await expect(start(undefined, { MAX_RENDERS: "none" })).rejects.toThrow(/MAX_RENDERS must be a whole number/);
  });

  it("holds 64 at once by default, 16 from one client, and none with MAX_IN_FLIGHT_REQUESTS=0", async () => {
    const byDefault = await start(undefined, {});
    await hold(byDefault.port, 16);
    expect((await send(byDefault.port, "/fast")).status).toBe(503);
    await hold(byDefault.port, 32, { from: (i) => `127.0.3.${i + 1}` });
    await hold(byDefault.port, 16, { path: "/api/hold", from: (i) => `127.0.4.${i + 1}` });
    expect((await send(byDefault.port, "/api/fast", { from: "127.0.5.1" })).status).toBe(503);

    const off = await start("0", {});
    await hold(off.port, 80);
    expect((await send(off.port, "/fast")).status).toBe(200);
  });

  it("refuses to start with a setting that is not a whole number", async () => {
    await expect(start("lots")).rejects.toThrow(/MAX_IN_FLIGHT_REQUESTS must be a whole number/);
    await expect(start("-1")).rejects.toThrow(/MAX_IN_FLIGHT_REQUESTS must be a whole number/);
    await expect(start("8", { MAX_IN_FLIGHT_PER_CLIENT: "many" })).rejects.toThrow(
      /MAX_IN_FLIGHT_PER_CLIENT must be a whole number/,
    );
  });

  it("is preloaded by the production start, before the static fast path (which answers without a render)", () => {
    const serve = productionStart().serve;
    const at = (preload: string) => serve.indexOf(`./server/${preload}`);
    expect(at("overload.mjs")).toBeGreaterThan(-1);
    expect(at("overload.mjs")).toBeLessThan(at("static-fast-path.mjs"));
  });
});
