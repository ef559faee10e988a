// server/graceful-shutdown.mjs with the other production preloads, in front of a real node:http server on loopback:
// SIGTERM under load answers every request the server had accepted (in flight, queued in the sign-in door, or
// arriving on a kept-alive connection meanwhile) and resets none; the exit status is 0.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const PRELOADS = ["client-address", "graceful-shutdown", "overload", "static-fast-path"].flatMap((name) => [
  "--import",
  path.resolve(`server/${name}.mjs`),
]);

// A page takes 15 ms of the event loop (as a render does) and is answered 100 ms later; a sign-in 300 ms (the door
// runs MAX_IN_FLIGHT_SIGN_INS at once, the rest wait in it). At 100 pages a second the loop is saturated:
// connections wait in the kernel's accept queue, as they do on a busy server when the signal comes.
const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  req.resume();
  if (req.url.startsWith("/api/auth/login")) return setTimeout(() => res.end(req.url), 300);
  const until = performance.now() + 15;
  while (performance.now() < until);
  setTimeout(() => res.end(req.url), 100);
});
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
`;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function start(): Promise<{ child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> }> {
  const env = { ...process.env, MAX_IN_FLIGHT_SIGN_INS: "2", MAX_IN_FLIGHT_PER_CLIENT: "0" };
  const child = spawn(process.execPath, [...PRELOADS, "-e", SERVER], { env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port = /PORT (\d+)/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port), output: () => output, exited });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
  });
}

type Outcome = { status: number; error?: string; connection?: string; body?: string };

function send(
  port: number,
  target: string,
  options: { method?: string; from?: string; agent?: http.Agent | false } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: target,
        method: options.method ?? "GET",
        localAddress: options.from,
        agent: options.agent ?? false,
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ status: -1, error: e.code ?? e.message }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ status: -1, error: e.code ?? e.message }));
    req.end(options.method === "POST" ? "{}" : undefined);
  });
}

describe("graceful shutdown", () => {
  it("SIGTERM under load: every request sent before it is answered (200, or 503 with Connection: close), none reset; exit 0", async () => {
    const { child, port, output, exited } = await start();
    const sent: Promise<Outcome>[] = [];
    // A steady 50 requests a second on new connections, and as many from ten clients on kept-alive connections.
    const agents = Array.from({ length: 10 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    let sending = true;
    const steady = (async () => {
      for (let i = 0; sending; i++) {
        sent.push(send(port, `/page?${i}`));
        sent.push(send(port, `/kept?${i}`, { agent: agents[i % agents.length] }));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // Twenty sign-ins from twenty addresses: two run at a time, the others wait in the sign-in door.
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 20; i++) sent.push(send(port, "/api/auth/login", { method: "POST", from: `127.0.3.${i + 1}` }));
    await new Promise((r) => setTimeout(r, 700));
    child.kill("SIGTERM");
    sending = false;
    await steady;
    const outcomes = await Promise.all(sent);
    for (const agent of agents) agent.destroy();

    const failed = outcomes.filter((o) => o.status === -1);
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    expect(outcomes.every((o) => o.status === 200 || o.status === 503)).toBe(true);
    // Every sign-in queued in the door was let in and answered: the door's queue is part of the drain.
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(20);
    for (const refused of outcomes.filter((o) => o.status === 503)) {
      expect(refused.connection).toBe("close");
      // Refused while draining (`restarting`), or a sign-in the door could not place in time (`busy`).
      expect(["restarting", "busy"]).toContain((JSON.parse(refused.body!) as { code: string }).code);
    }
    expect(await exited).toBe(0);
    expect(output()).toContain('"msg":"shut down"');
    expect(output()).not.toMatch(/\n\s+at /);
  });
});
