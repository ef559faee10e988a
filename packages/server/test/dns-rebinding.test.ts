// DNS-rebinding protection as a hostile page would meet it: the kit's server on loopback, asked with the
// hostile domain as Host (the browser's view after the DNS switch) or the hostile page's Origin, refuses with
// 403 and a JSON-RPC error before it touches MCP; the loopback names it listens as still work.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createMonetizedServer, type MonetizedServerOptions, type RunningServer } from "@agora-mcp/server";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

type Answer = {
  status: number;
  body: { jsonrpc?: string; error?: { code: number; message: string }; result?: { serverInfo?: { name: string } } };
};

/** POSTs initialize with exactly these headers (fetch would not let a test choose Host). */
function post(port: number, headers: Record<string, string>, address = "127.0.0.1"): Promise<Answer> {
  const body = JSON.stringify(INITIALIZE);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: address,
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(over: Partial<MonetizedServerOptions> = {}, host = "127.0.0.1") {
  const kit = createMonetizedServer({
    name: "rebinding-test",
    walletAddress: "0x000000000000000000000000000000000000dEaD",
    facilitatorUrl: "http://127.0.0.1:9",
    items: [{ id: "fact", name: "Fact", description: "Free", price: 0, handler: () => "f" }],
    ...over,
  });
  server = await kit.listen({ port: 0, host });
  return server.port;
}

describe("a kit server on loopback (protection on by default)", () => {
  it("refuses a foreign Host with 403 and a clear JSON-RPC error", async () => {
    const port = await start();
    const answer = await post(port, { host: `rebind.attacker.example:${port}` });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    expect(answer.body.error?.message).toMatch(
      /^Forbidden: the Host header names a host this server does not answer to \(DNS-rebinding protection/,
    );
    // The attacker's own text is not echoed back.
    expect(answer.body.error?.message).not.toContain("attacker");
  });

  it("refuses a foreign Origin with 403, even with a loopback Host", async () => {
    const port = await start();
    const answer = await post(port, { host: `127.0.0.1:${port}`, origin: "https://rebind.attacker.example" });
    expect(answer.status).toBe(403);
    expect(answer.body.error?.message).toMatch(
      /^Forbidden: requests from this Origin are not accepted \(DNS-rebinding protection/,
    );
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: "null" })).status).toBe(403);
  });

  it("answers a normal loopback request, with or without a loopback Origin", async () => {
    const port = await start();
    const loopback: Record<string, string>[] = [
      { host: `127.0.0.1:${port}` },
      { host: `localhost:${port}` },
      { host: `localhost:${port}`, origin: "http://localhost:6274" },
    ];
    for (const headers of loopback) {
      const answer = await post(port, headers);
      expect(answer.status).toBe(200);
      expect(answer.body.result?.serverInfo?.name).toBe("rebinding-test");
    }
  });

  it("answers the loopback address it was reached at, whichever of 127.0.0.0/8 it is", async () => {
    const port = await start({}, "127.0.0.2");
    expect(
      (await post(port, { host: `127.0.0.2:${port}`, origin: `http://127.0.0.2:${port}` }, "127.0.0.2")).status,
    ).toBe(200);
    expect((await post(port, { host: `127.0.0.3:${port}` }, "127.0.0.2")).status).toBe(403);
  });

  it("answers the host names and origins a provider allows, and the publicUrl's host", async () => {
    const port = await start({
      allowedHosts: ["mcp.provider.example"],
      allowedOrigins: ["https://app.provider.example"],
      publicUrl: "https://paid.provider.example/mcp",
    });
    expect((await post(port, { host: "mcp.provider.example" })).status).toBe(200);
    expect((await post(port, { host: "paid.provider.example" })).status).toBe(200);
    expect((await post(port, { host: "mcp.provider.example", origin: "https://app.provider.example" })).status).toBe(
      200,
    );
    expect((await post(port, { host: "mcp.provider.example", origin: "https://other.example" })).status).toBe(403);
    expect((await post(port, { host: "other.provider.example" })).status).toBe(403);
  });

  it("checks nothing when the provider turns it off", async () => {
    const port = await start({ dnsRebindingProtection: false });
    expect((await post(port, { host: "anything.example", origin: "https://anything.example" })).status).toBe(200);
  });

  it("refuses malformed allowed hosts and origins when the server is created", () => {
    const base = { name: "x", walletAddress: "0x000000000000000000000000000000000000dEaD", items: [] };
    expect(() => createMonetizedServer({ ...base, allowedHosts: ["https://with-scheme.example"] })).toThrow(
      /allowedHosts takes host names without scheme or port/,
    );
    expect(() => createMonetizedServer({ ...base, allowedOrigins: ["https://app.example/path"] })).toThrow(
      /allowedOrigins takes origins/,
    );
  });
});

describe("start-up output", () => {
  it("prints no warning about JSON answers dropping notifications (the kit sends none)", async () => {
    const warned: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      await start();
    } finally {
      console.warn = warn;
    }
    expect(warned.filter((args) => String(args[0]).includes("responseMode"))).toEqual([]);
  });
});
