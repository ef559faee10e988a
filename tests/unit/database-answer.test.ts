// server/database-answer.mjs (loaded by server/overload.mjs): a response about to go out as a 500 while the database
// has just been unreachable (db/health.ts noted a query that lost its connection) goes out as a 503 with
// Retry-After instead, in the shape the other preloads answer; any other 500 stays a 500. A real node:http server on
// loopback, with the preload as the production starts load it; the handler answers as Next does (statusCode and end,
// or writeHead then write and end).
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  const path = req.url.split("?")[0];
  // What db/health.ts does when a query finds no connection.
  if (path === "/lose-connection") {
    globalThis[Symbol.for("agora.db-health")] = { ...globalThis[Symbol.for("agora.db-health")], lastUnavailableAt: Date.now() };
    return res.end("noted");
  }
  if (path === "/forget") {
    globalThis[Symbol.for("agora.db-health")] = { ...globalThis[Symbol.for("agora.db-health")], lastUnavailableAt: 0 };
    return res.end("forgotten");
  }
  if (path === "/page-failed") {
    res.statusCode = 500;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.setHeader("x-nextjs-cache", "MISS");
    return res.end("<html>Internal Server Error: select * from listings</html>");
  }
  if (path === "/streamed-failure") {
    res.writeHead(500, { "content-type": "text/html" });
    res.write("<html>");
    return res.end("Internal Server Error</html>");
  }
  if (path === "/not-found") {
    res.statusCode = 404;
    return res.end("missing");
  }
  res.end("ok");
});
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
`;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a 500 while the database has just been unreachable", () => {
  let child: ChildProcess;
  let port = 0;

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "./server/overload.mjs", "-e", SERVER], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    port = await new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk;
        const found = /PORT (\d+)/.exec(output)?.[1];
        if (found) resolve(Number(found));
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
  });
  afterAll(() => {
    child?.kill("SIGKILL");
  });

  it("stays a 500 when the database has not failed", async () => {
    expect((await send(port, "/page-failed")).status).toBe(500);
  });

  it("is answered 503 with Retry-After, without the failed page's body or headers, in each way Next writes it", async () => {
    await send(port, "/lose-connection");
    const page = await send(port, "/page-failed", { accept: "text/html" });
    expect(page.status).toBe(503);
    expect(page.headers["retry-after"]).toBe("5");
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.headers["x-nextjs-cache"]).toBeUndefined();
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toMatch(/briefly unavailable/);
    expect(page.body).not.toMatch(/select|Internal Server Error/);

    const streamed = await send(port, "/streamed-failure");
    expect(streamed.status).toBe(503);
    expect(streamed.headers["retry-after"]).toBe("5");
    expect(JSON.parse(streamed.body)).toEqual({
      code: "unavailable",
      message: expect.stringMatching(/briefly unavailable/),
    });
  });

  it("leaves other answers alone, and 500s once the failure is forgotten", async () => {
    await send(port, "/lose-connection");
    expect((await send(port, "/not-found")).status).toBe(404);
    expect((await send(port, "/ok")).body).toBe("ok");
    await send(port, "/forget");
    expect((await send(port, "/page-failed")).status).toBe(500);
  });
});
