import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type tls from "node:tls";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reloadEnv } from "@/lib/env";
import {
  classifyAddress,
  createSafeFetch,
  pinnedConnector,
  refusalReason,
  resolveTarget,
  safeFetch,
  SafeFetchError,
  type CheckedTarget,
  type Lookup,
} from "@/lib/ssrf";

const strict = { allowPrivateHosts: false };
const loose = { allowPrivateHosts: true };

/** A resolver that must not be asked: literal addresses and refused names never reach DNS. */
const noDns: Lookup = async (host) => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};

function answers(...addresses: string[]): Lookup {
  return async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
}

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SafeFetchError);
  return error as SafeFetchError;
}

describe("address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "cloud-metadata"],
    ["169.254.170.2", "cloud-metadata"],
    ["168.63.129.16", "cloud-metadata"],
    ["100.100.100.200", "cloud-metadata"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.88.99.1", "reserved"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["192.0.0.8", "ietf-protocol"],
  ])("refuses IPv4 %s (%s)", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fd00:ec2::254", "cloud-metadata"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["2001:2::1", "benchmarking"],
    ["2001::1", "ietf-protocol"],
    ["100::1", "reserved"],
    ["64:ff9b:1::1", "reserved"],
    ["5f00::1", "reserved"],
    ["fec0::1", "reserved"],
    ["1::1", "reserved"],
    ["4000::1", "reserved"],
    // Forms that carry an IPv4 address are judged by the address they deliver to.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::FFFF:7F00:1", "loopback"],
    ["0:0:0:0:0:ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "cloud-metadata"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::169.254.169.254", "cloud-metadata"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::1", "private"],
    // Deprecated IPv4-compatible addresses are refused outright.
    ["::127.0.0.1", "reserved"],
    ["::7f00:1", "reserved"],
  ])("refuses IPv6 %s (%s)", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it("treats text that is no address as invalid", () => {
    expect(classifyAddress("localhost")).toBe("invalid");
    expect(classifyAddress("1.2.3")).toBe("invalid");
  });

  it("lets PROBE_ALLOW_PRIVATE_HOSTS lift loopback and private networks, never metadata or link-local", () => {
    for (const address of [
      "127.0.0.1",
      "::1",
      "10.0.0.1",
      "192.168.0.1",
      "fd12::1",
      "100.64.0.1",
      "::ffff:127.0.0.1",
    ]) {
      expect(refusalReason(address, loose)).toBeNull();
      expect(refusalReason(address, strict)).not.toBeNull();
    }
    for (const address of [
      "169.254.169.254",
      "fd00:ec2::254",
      "169.254.1.1",
      "fe80::1",
      "0.0.0.0",
      "::",
      "224.0.0.1",
      "255.255.255.255",
      "192.0.2.1",
    ]) {
      expect(refusalReason(address, loose)).not.toBeNull();
    }
  });
});

describe("URL checks before any connection", () => {
  it.each([
    "http://127.0.0.1/",
    "http://2130706433/",
    "http://017700000001/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://0X7F.0.0.1/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://127.0.1/",
    "http://127.0.0.1./",
    "http://%31%32%37.0.0.1/",
    "http://①②⑦.0.0.1/",
    "http://0/",
    "http://0.0.0.0:8080/mcp",
    "http://10.0.0.1:8080/mcp",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::FFFF:7F00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:a9fe:a9fe]/",
  ])("refuses %s without a DNS lookup", async (url) => {
    const error = await refusal(resolveTarget(url, { ...strict, lookup: noDns }));
    expect(error.code).toBe("blocked_address");
  });

  it.each([
    "http://localhost/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://db.internal/",
    "http://router.home.arpa/",
    "http://intranet/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://METADATA.GOOGLE.INTERNAL./",
  ])("refuses the local host name %s without a DNS lookup", async (url) => {
    const error = await refusal(resolveTarget(url, { ...strict, lookup: noDns }));
    expect(error.code).toBe("blocked_address");
  });

  it("keeps metadata host names refused even when private hosts are allowed", async () => {
    await refusal(resolveTarget("http://metadata.google.internal/", { ...loose, lookup: noDns }));
    await expect(
      resolveTarget("http://localhost:8080/mcp", { ...loose, lookup: answers("127.0.0.1") }),
    ).resolves.toMatchObject({
      address: "127.0.0.1",
    });
  });

  it.each([
    "http://[fe80::1%25eth0]/",
    "http://1.2.3.09/",
    "ftp://example.com/",
    "file:///etc/passwd",
    "gopher://example.com/",
    "http://user:secret@example.com/",
    "not a url",
  ])("refuses the malformed or unsupported URL %s", async (url) => {
    const error = await refusal(resolveTarget(url, { ...strict, lookup: noDns }));
    expect(error.code).toBe("invalid_url");
  });

  it("refuses a name that resolves to an internal address, or to any internal address among public ones", async () => {
    for (const lookup of [
      answers("10.0.0.7"),
      answers("93.184.216.34", "127.0.0.1"),
      answers("::ffff:169.254.169.254"),
      answers("fe80::1%eth0"),
    ]) {
      const error = await refusal(resolveTarget("https://mcp.example.com/mcp", { ...strict, lookup }));
      expect(error.code).toBe("blocked_address");
    }
  });

  it("reports a name that does not resolve", async () => {
    const failing: Lookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect((await refusal(resolveTarget("https://nowhere.example/", { ...strict, lookup: failing }))).code).toBe(
      "dns_failure",
    );
    expect((await refusal(resolveTarget("https://nowhere.example/", { ...strict, lookup: answers() }))).code).toBe(
      "dns_failure",
    );
  });

  it("accepts public addresses and pins the first answer", async () => {
    await expect(resolveTarget("http://93.184.216.34/", { ...strict, lookup: noDns })).resolves.toMatchObject({
      address: "93.184.216.34",
      family: 4,
    });
    await expect(resolveTarget("http://[2606:4700:4700::1111]/", { ...strict, lookup: noDns })).resolves.toMatchObject({
      hostname: "2606:4700:4700::1111",
      family: 6,
    });
    const target = await resolveTarget("https://MCP.Example.com./mcp", {
      ...strict,
      lookup: answers("2606:4700::6810:84e5", "104.16.132.229"),
    });
    expect(target).toMatchObject({ hostname: "mcp.example.com.", address: "2606:4700::6810:84e5", family: 6 });
  });
});

describe("the pinned connector", () => {
  function connectWith(
    target: CheckedTarget,
    request: { hostname: string; protocol: string; port: string },
    policy = strict,
  ) {
    return new Promise<Error | null>((resolve) => {
      pinnedConnector(target, { ...policy, connectTimeoutMs: 2_000 })(request, (error, socket) => {
        socket?.destroy();
        resolve(error);
      });
    });
  }

  it("refuses to connect to a blocked address even if handed one directly", async () => {
    const target: CheckedTarget = {
      url: new URL("http://mcp.example.com/"),
      hostname: "mcp.example.com",
      address: "127.0.0.1",
      family: 4,
    };
    const error = await connectWith(target, { hostname: "mcp.example.com", protocol: "http:", port: "9" });
    expect(error).toBeInstanceOf(SafeFetchError);
    expect((error as SafeFetchError).code).toBe("blocked_address");
  });

  it("refuses a connection for any host but the checked one", async () => {
    const target: CheckedTarget = {
      url: new URL("http://127.0.0.1/"),
      hostname: "127.0.0.1",
      address: "127.0.0.1",
      family: 4,
    };
    const error = await connectWith(target, { hostname: "other.example", protocol: "http:", port: "9" }, loose);
    expect(error?.message).toMatch(/not the checked host/);
  });
});

type TestServer = { port: number; close: () => Promise<void> };

function listen(
  handler: http.RequestListener,
  host = "127.0.0.1",
  port = 0,
): Promise<TestServer & { server: http.Server }> {
  const server = http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () =>
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

describe("safeFetch against loopback servers", () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  async function serve(handler: http.RequestListener, host?: string, port?: number) {
    const s = await listen(handler, host, port);
    servers.push(s);
    return s;
  }

  it("refuses loopback without PROBE_ALLOW_PRIVATE_HOSTS and reaches it with the switch", async () => {
    const { port } = await serve((_, res) => res.end("hello"));
    const previous = process.env.PROBE_ALLOW_PRIVATE_HOSTS;
    try {
      delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
      reloadEnv();
      expect((await refusal(safeFetch(`http://127.0.0.1:${port}/`))).code).toBe("blocked_address");
      process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
      reloadEnv();
      const response = await safeFetch(`http://127.0.0.1:${port}/`);
      expect(await response.text()).toBe("hello");
    } finally {
      if (previous === undefined) delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
      else process.env.PROBE_ALLOW_PRIVATE_HOSTS = previous;
      reloadEnv();
    }
  });

  it("connects to the address it checked even when DNS answers differently afterwards (rebinding)", async () => {
    const checked = await serve((_, res) => res.end("checked server"), "127.0.0.2");
    await serve((_, res) => res.end("rebound server"), "127.0.0.3", checked.port);
    let lookups = 0;
    const rebinding: Lookup = async () => [{ address: lookups++ === 0 ? "127.0.0.2" : "127.0.0.3", family: 4 }];
    const fetch = createSafeFetch({ ...loose, lookup: rebinding });
    const response = await fetch(`http://rebind.example:${checked.port}/`);
    expect(await response.text()).toBe("checked server");
    expect(lookups).toBe(1);
  });

  it("keeps pooled connections per checked address, so a changed DNS answer never rides an old connection", async () => {
    const open = { a: 0, b: 0 };
    const a = await serve((_, res) => res.end("a"), "127.0.0.2");
    const b = await serve((_, res) => res.end("b"), "127.0.0.3", a.port);
    for (const [name, s] of [
      ["a", a],
      ["b", b],
    ] as const) {
      s.server.on("connection", (socket) => {
        open[name]++;
        socket.on("close", () => open[name]--);
      });
    }
    let lookups = 0;
    const lookup: Lookup = async () => [{ address: ++lookups <= 2 ? "127.0.0.2" : "127.0.0.3", family: 4 }];
    const fetch = createSafeFetch({ ...loose, lookup, reuseConnections: true });
    const bodies = [];
    for (let i = 0; i < 3; i++) bodies.push(await (await fetch(`http://pool.example:${a.port}/`)).text());
    expect(bodies).toEqual(["a", "a", "b"]);
    expect(open.b).toBe(1);
    await fetch.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(open).toEqual({ a: 0, b: 0 });
  });

  it("re-resolves and re-checks every redirect hop", async () => {
    const target = await serve((_, res) => res.end("second hop"), "127.0.0.3");
    const first = await serve(
      (_, res) => res.writeHead(302, { location: `http://hop.example:${target.port}/next` }).end(),
      "127.0.0.2",
    );
    const lookups: string[] = [];
    const lookup: Lookup = async (host) => {
      lookups.push(host);
      return [{ address: lookups.length === 1 ? "127.0.0.2" : "127.0.0.3", family: 4 }];
    };
    const response = await createSafeFetch({ ...loose, lookup })(`http://start.example:${first.port}/`);
    expect(await response.text()).toBe("second hop");
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`http://hop.example:${target.port}/next`);
    expect(lookups).toEqual(["start.example", "hop.example"]);
  });

  it.each([
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["the unspecified address", "http://0.0.0.0:80/"],
    ["an IPv4-mapped metadata address", "http://[::ffff:169.254.169.254]/"],
    ["a metadata host name", "http://metadata.google.internal/"],
  ])("refuses a redirect to %s even with private hosts allowed", async (_, location) => {
    const { port } = await serve((_, res) => res.writeHead(307, { location }).end());
    const error = await refusal(
      createSafeFetch({ ...loose, lookup: noDns })(`http://127.0.0.1:${port}/mcp`, { method: "POST", body: "{}" }),
    );
    expect(error.code).toBe("blocked_address");
    expect(error.message).toMatch(/^Redirect to /);
  });

  it("follows at most 3 redirects", async () => {
    const { port } = await serve((req, res) => {
      const n = Number(req.url!.slice(1));
      if (n < 4) res.writeHead(302, { location: `/${n + 1}` }).end();
      else res.end(`arrived after ${n} redirects`);
    });
    const fetch = createSafeFetch(loose);
    expect(await (await fetch(`http://127.0.0.1:${port}/1`)).text()).toBe("arrived after 4 redirects");
    expect((await refusal(fetch(`http://127.0.0.1:${port}/0`))).code).toBe("too_many_redirects");
    const manual = await fetch(`http://127.0.0.1:${port}/0`, { redirect: "manual" });
    expect(manual.status).toBe(302);
    await expect(fetch(`http://127.0.0.1:${port}/0`, { redirect: "error" })).rejects.toThrow(TypeError);
  });

  it("turns a 303 into a GET and drops credentials when the origin changes", async () => {
    const seen: { method?: string; authorization?: string }[] = [];
    const other = await serve((req, res) => {
      seen.push({ method: req.method, authorization: req.headers.authorization });
      res.end("ok");
    });
    const { port } = await serve((_, res) =>
      res.writeHead(303, { location: `http://127.0.0.1:${other.port}/done` }).end(),
    );
    await (
      await createSafeFetch(loose)(`http://127.0.0.1:${port}/`, {
        method: "POST",
        body: "{}",
        headers: { authorization: "Bearer x" },
      })
    ).text();
    expect(seen).toEqual([{ method: "GET", authorization: undefined }]);
  });

  it("caps the body at 1 MB, whether or not the length is declared", async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 120);
    const { port } = await serve((req, res) => {
      if (req.url === "/declared") res.writeHead(200, { "content-length": String(big.length) }).end(big);
      else if (req.url === "/exact") res.end(big.subarray(0, 1024 * 1024));
      else {
        res.writeHead(200, { "content-type": "application/json" });
        res.on("error", () => {});
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024, 120));
        res.end();
      }
    });
    const fetch = createSafeFetch(loose);
    expect((await refusal(fetch(`http://127.0.0.1:${port}/declared`))).code).toBe("response_too_large");
    const streamed = await fetch(`http://127.0.0.1:${port}/streamed`);
    expect(streamed.status).toBe(200);
    expect((await refusal(streamed.arrayBuffer())).code).toBe("response_too_large");
    expect((await (await fetch(`http://127.0.0.1:${port}/exact`)).arrayBuffer()).byteLength).toBe(1024 * 1024);
  });

  it("gives up after the timeout, also while the body trickles in", async () => {
    const { port } = await serve((req, res) => {
      if (req.url === "/headers-only") {
        res.writeHead(200);
        res.write("partial");
      }
    });
    const fetch = createSafeFetch({ ...loose, timeoutMs: 300 });
    let started = performance.now();
    expect((await refusal(fetch(`http://127.0.0.1:${port}/never`))).code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
    started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/headers-only`);
    expect((await refusal(response.text())).code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("passes the caller's abort through as an abort, not a timeout", async () => {
    const { port } = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await createSafeFetch(loose)(`http://127.0.0.1:${port}/`, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(SafeFetchError);
    expect((error as Error).name).toBe("AbortError");
  });

  it("takes a Request like fetch does, and refuses a malformed URL with a SafeFetchError", async () => {
    const { port } = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => res.end(`${req.method} ${req.headers["x-test"]} ${body}`));
    });
    const fetch = createSafeFetch(loose);
    const request = new Request(`http://127.0.0.1:${port}/`, {
      method: "POST",
      headers: { "x-test": "yes" },
      body: "payload",
    });
    expect(await (await fetch(request)).text()).toBe("POST yes payload");
    expect((await refusal(fetch("http://exa mple.com/"))).code).toBe("invalid_url");
  });

  it("tells about every refusal, including one in the middle of a body", async () => {
    const { port } = await serve((_, res) => {
      res.on("error", () => {});
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(128 * 1024));
      res.end();
    });
    const refusals: string[] = [];
    const fetch = createSafeFetch({ ...loose, onRefusal: (e) => refusals.push(e.code) });
    await (await fetch(`http://127.0.0.1:${port}/`)).text().catch(() => {});
    await fetch("http://169.254.169.254/").catch(() => {});
    expect(refusals).toEqual(["response_too_large", "blocked_address"]);
  });
});

// A self-signed certificate for mcp.test, made with the system's openssl for this run only.
const openssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!openssl)("safeFetch over TLS", () => {
  let dir: string;
  let cert: string;
  let server: https.Server;
  let port: number;
  const serverNames: (string | false | null)[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=mcp.test",
        "-addext",
        "subjectAltName=DNS:mcp.test",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    cert = fs.readFileSync(path.join(dir, "cert.pem"), "utf8");
    server = https.createServer({ key: fs.readFileSync(path.join(dir, "key.pem")), cert }, (req, res) => {
      serverNames.push((req.socket as tls.TLSSocket).servername);
      res.end("secure hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("connects to the pinned address with the URL's host name for SNI and certificate checks", async () => {
    const fetch = createSafeFetch({ ...loose, lookup: answers("127.0.0.2"), ca: cert });
    const response = await fetch(`https://mcp.test:${port}/`);
    expect(await response.text()).toBe("secure hello");
    expect(serverNames).toEqual(["mcp.test"]);
  });

  it("still verifies the certificate", async () => {
    const fetch = createSafeFetch({ ...loose, lookup: answers("127.0.0.2") });
    const error = await fetch(`https://mcp.test:${port}/`).catch((e: unknown) => e);
    expect(String((error as Error).cause ?? error)).toMatch(/self[- ]signed|certificate/i);
  });
});
