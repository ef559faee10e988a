// The production preloads (server/*.mjs) in front of a real node:http server on loopback, as the production starts
// load them in front of Next: hostile spellings of a path are answered at once and never throw, and a server
// action that checks a password is a sign-in (it goes through the sign-in door) whatever page it is posted to.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOSTILE_PATHS } from "../support/hostile-paths";

const PRELOADS = ["client-address", "graceful-shutdown", "overload", "static-fast-path"].flatMap((name) => [
  "--import",
  path.resolve(`server/${name}.mjs`),
]);

// Answers every request with whether it came in through the sign-in door (what lib/auth/hash-slots.ts asks).
const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  const door = globalThis[Symbol.for("agora.sign-in-door")];
  req.resume();
  res.end(JSON.stringify({ url: req.url, door: door ? door.entered() : null }));
});
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
`;

type Started = { child: ChildProcess; port: number; output: () => string };
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function start(cwd: string, server = SERVER): Promise<Started> {
  const env = { ...process.env };
  for (const name of [
    "MAX_IN_FLIGHT_REQUESTS",
    "MAX_IN_FLIGHT_PER_CLIENT",
    "MAX_IN_FLIGHT_SIGN_INS",
    "TRUSTED_PROXY_HOPS",
  ])
    delete env[name];
  const child = spawn(process.execPath, [...PRELOADS, "-e", server], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
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

/** Writes `head` as it is (no client library straightens it) and reads the answer's status; -1 if none in time. */
function rawRequest(port: number, head: string, body = "", ms = 1_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? -1);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    };
    const timer = setTimeout(done, ms);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (/\r\n\r\n/.test(text) && /content-length: 0|\}$|>$/i.test(text)) done();
    });
    socket.on("end", done);
    socket.on("error", done);
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(body)]));
  });
}

const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;

describe("preload boundaries", () => {
  it("answers every hostile spelling of a path within a second, and logs no stack", async () => {
    const { port, output } = await start(process.cwd());
    for (const target of HOSTILE_PATHS) {
      // Bytes as UTF-8 where the spelling has them: a raw request line, as an attacker would send it.
      const head = Buffer.from(get(target), "utf8").toString("latin1");
      const started = performance.now();
      const answer = await rawRequest(port, head);
      expect(answer.status, `GET ${target.slice(0, 60)}`).toBeGreaterThanOrEqual(200);
      expect(answer.status, `GET ${target.slice(0, 60)}`).toBeLessThan(500);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    // The refusals carry the code a program branches on, the message unchanged.
    for (const [target, message] of [
      ["*", "This address cannot be read."],
      ["/%C0%AF", "The address contains malformed percent-encoding."],
    ]) {
      const answer = await rawRequest(port, get(target));
      expect(answer.status, target).toBe(400);
      expect(JSON.parse(answer.body), target).toEqual({ code: "invalid_address", message });
    }
    expect(output()).not.toMatch(/\n\s+at |TypeError|Invalid URL/);
  });

  it("sends a password-checking server action through the sign-in door whatever page it is posted to", async () => {
    // A build's manifest naming the sign-in action's module (server/sign-in-actions.mjs reads it at start-up).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-door-"));
    fs.mkdirSync(path.join(dir, ".next", "server"), { recursive: true });
    const manifest = {
      node: {
        "40signin": {
          workers: { "app/(account)/login/email/page": { moduleId: 1, async: false } },
          layer: {},
          filename: "lib/actions/sign-in-with-email.ts",
          exportedName: "signInWithEmail",
        },
        "40other": { workers: {}, layer: {}, filename: "lib/actions/claim-listing.ts", exportedName: "claimListing" },
      },
      edge: {},
    };
    fs.writeFileSync(path.join(dir, ".next", "server", "server-reference-manifest.json"), JSON.stringify(manifest));
    const { port } = await start(dir);
    const post = async (target: string, action: string) => {
      const body = '[{"email":"a@example.com","password":"x"}]';
      const head = `POST ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nNext-Action: ${action}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`;
      return JSON.parse((await rawRequest(port, head, body)).body) as { url: string; door: boolean | null };
    };
    // Next sees it on the page that has the action (it would otherwise forward it there over HTTP: a second request).
    for (const target of ["/", "/guides/setup-and-usage", "/marketplace/some-listing?tab=reviews", "/login/email"]) {
      const seen = await post(target, "40signin");
      expect(seen.door, target).toBe(true);
      expect(seen.url, target).toBe(target.includes("?") ? "/login/email?tab=reviews" : "/login/email");
    }
    // Another action, or the same page without an action, is not a sign-in.
    expect(await post("/", "40other")).toEqual({ url: "/", door: false });
    expect(JSON.parse((await rawRequest(port, get("/"))).body).door).toBe(false);
  });

  it("answers a request 500 at once when a preload throws on it, logs one line without a stack, and serves the next", async () => {
    // A wrapper of emit with a bug, inside the same boundary every preload's wrapper runs in.
    const faulty = `
const http = require("node:http");
import(${JSON.stringify(path.resolve("server/emit-guard.mjs"))}).then(({ guardEmit }) => {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = guardEmit("faulty", function (event, req, ...rest) {
    if (event === "request" && req.url === "/fault") throw new TypeError("a preload's bug");
    return emit.call(this, event, req, ...rest);
  });
  const server = http.createServer((req, res) => res.end("ok"));
  server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
});
`;
    const { port, output } = await start(process.cwd(), faulty);
    const started = performance.now();
    const fault = await rawRequest(port, get("/fault"));
    expect(fault.status).toBe(500);
    expect(JSON.parse(fault.body)).toEqual({
      code: "internal_error",
      message: "This request could not be handled. Please try again.",
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await rawRequest(port, get("/fine"))).status).toBe(200);
    await expect.poll(output).toContain("a request could not be handled before the app");
    expect(output()).toContain("a preload's bug");
    expect(output()).not.toMatch(/\n\s+at /);
  });
});
