// GET /downloads/{file}: the stable and the versioned name give the built tarball with its digest; an unknown
// version or package is a 404 that says what is served.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/downloads/[file]/route";
import { MANIFEST_FILE, type DownloadsManifest } from "@/lib/downloads/packages";

const bytes = Buffer.from("not really a tarball, but served byte for byte");
const sha256 = createHash("sha256").update(bytes).digest("hex");
let cwd: string;
let tmp: string;

beforeAll(() => {
  cwd = process.cwd();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "downloads-route-"));
  const dir = path.join(tmp, "dist/downloads");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "agora-mcp-client-1.2.3.tgz"), bytes);
  const manifest: DownloadsManifest = {
    siteUrl: "http://localhost:3000",
    builtAt: new Date().toISOString(),
    packages: [
      {
        id: "client",
        packageName: "@agora-mcp/client",
        version: "1.2.3",
        file: "agora-mcp-client-1.2.3.tgz",
        sha256,
        size: bytes.length,
      },
    ],
  };
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest));
  process.chdir(tmp);
});

afterAll(() => {
  process.chdir(cwd);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function get(file: string, headers: Record<string, string> = {}) {
  return GET(new Request(`http://localhost/downloads/${file}`, { headers }), { params: Promise.resolve({ file }) });
}

describe("GET /downloads/{file}", () => {
  it("serves the current build under its stable and its versioned name, with its digest", async () => {
    for (const name of ["agora-mcp-client.tgz", "agora-mcp-client-1.2.3.tgz"]) {
      const res = await get(name);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.headers.get("etag")).toBe(`"${sha256}"`);
      expect(res.headers.get("repr-digest")).toBe(`sha-256=:${Buffer.from(sha256, "hex").toString("base64")}:`);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    }
    expect((await get("agora-mcp-client.tgz", { "if-none-match": `"${sha256}"` })).status).toBe(304);
  });

  it("answers 404 for an unknown version, naming the one it serves", async () => {
    const res = await get("agora-mcp-client-9.9.9.tgz");
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe(
      "@agora-mcp/client 9.9.9 is not served here; this site serves 1.2.3: /downloads/agora-mcp-client-1.2.3.tgz",
    );
  });

  it("answers 404 for a package it has not built and for any other name", async () => {
    expect((await (await get("agora-mcp-server.tgz")).json()).message).toMatch(/@agora-mcp\/server has not been built/);
    for (const name of ["agora-mcp-wallet.tgz", "agora-mcp-client.zip", "../manifest.json", "manifest.json"]) {
      const res = await get(name);
      expect(res.status).toBe(404);
      expect((await res.json()).message).toMatch(/^No download named/);
    }
  });

  it("refuses a name no download could have (its characters, its length) by the route's params schema, with the same 404", async () => {
    for (const name of ["../../etc/passwd", "a b.tgz", `${"a".repeat(121)}.tgz`, ""]) {
      const res = await get(name);
      expect(res.status, name).toBe(404);
      const answer = (await res.json()) as { code: string; message: string };
      expect(answer.code).toBe("not_found");
      expect(answer.message).toMatch(/^No download named "[^"]{0,80}"\. Served: \/downloads\/agora-mcp-client\.tgz/);
    }
  });
});
