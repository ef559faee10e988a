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
  if (req.url === "/hold") {
    holding++;
    res.once("close", () => holding--);
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

function start(limit: string | undefined): Promise<Started> {
  const env = { ...process.env };
  if (limit === undefined) delete env.MAX_IN_FLIGHT_REQUESTS;
  else env.MAX_IN_FLIGHT_REQUESTS = limit;
  const child = spawn(process.execPath, ["--import", "./server/overload.mjs", "-e", SERVER], { env, stdio: ["ignore", "pipe", "pipe"] });
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

function send(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const holding = async (port: number) => JSON.parse((await send(port, "/api/health")).body).holding as number;

/** Opens `n` more requests the server holds, and waits until its handler has them all. */
async function hold(port: number, n: number): Promise<void> {
  const expected = (await holding(port)) + n;
  for (let i = 0; i < n; i++) {
    const req = http.request({ host: "127.0.0.1", port, path: "/hold", agent: false });
    req.on("error", () => {});
    req.end();
    held.push(req);
  }
  await expect.poll(() => holding(port), { timeout: 10_000 }).toBe(expected);
}

describe("overload preload", () => {
  it("answers 503 with Retry-After past the limit, and serves again once a request finishes", async () => {
    const { port, output } = await start("2");
    expect((await send(port, "/fast")).status).toBe(200);
    await hold(port, 2);

    const refused = await send(port, "/api/mcp-agents?q=weather");
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(refused.body)).toEqual({ message: "Agora is busy right now. Please try again in a moment." });

    const page = await send(port, "/marketplace/some-listing", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.status).toBe(503);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<h1>Busy</h1>");
    expect(page.body).toContain('<a href="/marketplace/some-listing">Try again</a>');
    // What the address holds goes back into the page only as path characters.
    const hostile = await send(port, "/x%22%3E%3Cscript%3Ealert(1)%3C/script%3E", { headers: { accept: "text/html" } });
    expect(hostile.body).toContain(`<a href="/x223E3Cscript3Ealert13C/script3E">`);
    expect(hostile.body).not.toContain("<script");
    expect(page.body).not.toContain("<script");

    const mcp = await send(port, "/api/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(mcp.status).toBe(503);
    expect(JSON.parse(mcp.body)).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Agora is busy right now. Please try again in a moment." }, id: null });

    // Health and readiness are never refused: an orchestrator must not restart a busy instance.
    expect((await send(port, "/api/health")).status).toBe(200);
    expect((await send(port, "/api/ready")).status).toBe(200);

    // One held request ends: there is room again.
    held.shift()!.destroy();
    await expect.poll(() => holding(port), { timeout: 5_000 }).toBe(1);
    expect((await send(port, "/fast")).status).toBe(200);
    // The refusals were logged as a count, not a line each.
    const lines = output().split("\n").filter((l) => l.includes('"msg":"overloaded: requests refused"'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThan(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "warn", limit: 2, inFlight: 2 });
  });

  it("counts a request with a body once the body has arrived: slow uploads cannot take every place", async () => {
    const { port } = await start("2");
    // Five uploads whose bodies never finish: the server has each of them, none counts.
    const uploads = Array.from({ length: 5 }, () => {
      const req = http.request({ host: "127.0.0.1", port, path: "/upload", method: "POST", headers: { "content-type": "application/json", "content-length": "1000" }, agent: false });
      req.on("error", () => {});
      req.write("{");
      held.push(req);
      return req;
    });
    await expect.poll(() => holding(port), { timeout: 10_000 }).toBe(5);
    expect((await send(port, "/fast")).status).toBe(200);
    // Two requests held after their whole body arrived do count: the next is refused.
    await hold(port, 2);
    expect((await send(port, "/fast")).status).toBe(503);
    // A finished upload is answered, and the places it never held stay as they were.
    uploads[0]!.end("x".repeat(999));
    await expect.poll(() => holding(port), { timeout: 5_000 }).toBe(6);
    expect((await send(port, "/fast")).status).toBe(503);
  });

  it("holds 64 at once by default, and none with MAX_IN_FLIGHT_REQUESTS=0", async () => {
    const byDefault = await start(undefined);
    await hold(byDefault.port, 64);
    expect((await send(byDefault.port, "/fast")).status).toBe(503);

    const off = await start("0");
    await hold(off.port, 80);
    expect((await send(off.port, "/fast")).status).toBe(200);
  });

  it("refuses to start with a limit that is not a whole number", async () => {
    await expect(start("lots")).rejects.toThrow(/MAX_IN_FLIGHT_REQUESTS must be a whole number/);
    await expect(start("-1")).rejects.toThrow(/MAX_IN_FLIGHT_REQUESTS must be a whole number/);
  });

  it("is preloaded by the production start, before the static fast path (which answers without a render)", () => {
    const serve = productionStart().serve;
    const at = (preload: string) => serve.indexOf(`./server/${preload}`);
    expect(at("overload.mjs")).toBeGreaterThan(-1);
    expect(at("overload.mjs")).toBeLessThan(at("static-fast-path.mjs"));
  });
});
