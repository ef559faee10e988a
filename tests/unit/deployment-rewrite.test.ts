// server/deployment-rewrite.mjs: a build's origin and contact address rewritten to the server's, in RSC payloads
// whose text rows carry byte lengths, in pages that inline those payloads over several scripts, and in tarballs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONTACT_EMAIL as ENV_DEFAULT_CONTACT } from "@/lib/env";
import { DEFAULT_SITE_URL as SITE_DEFAULT } from "@/lib/site";
import { installLinks } from "@/lib/downloads/install-links";
import {
  createRewriter,
  DEFAULT_CONTACT_EMAIL,
  DEFAULT_SITE_URL,
  runtimeSettings,
} from "@/server/deployment-rewrite.mjs";

const from = { siteUrl: "http://localhost:3300", contactEmail: "hello@agora.test" };
const to = { siteUrl: "https://agora.example.org", contactEmail: "team@agora.example.org" };
const rewriter = createRewriter(from, to)!;

/** The rows of an RSC stream as React's client reads them (length rows by bytes). */
function rows(bytes: Buffer): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < bytes.length) {
    const colon = bytes.indexOf(":", i);
    if (bytes[colon + 1] === "T".charCodeAt(0)) {
      const comma = bytes.indexOf(",", colon);
      const length = parseInt(bytes.toString("latin1", colon + 2, comma), 16);
      out.push(bytes.toString("utf8", comma + 1, comma + 1 + length));
      i = comma + 1 + length;
    } else {
      const end = bytes.indexOf("\n", colon);
      out.push(bytes.toString("utf8", colon + 1, end));
      i = end + 1;
    }
  }
  return out;
}

const longText = `{"mcpServers": {"agora": {"env": {"AGORA_REGISTRY_URL": "${from.siteUrl}/api"}}}} é — ${"x".repeat(1100)} ${from.siteUrl}/downloads/agora-mcp-client.tgz`;
const payload = Buffer.from(
  `1:I["x",[],"default"]\n:HL["/a.css","style"]\n5:T${Buffer.byteLength(longText).toString(16)},${longText}0:["$","a",null,{"href":"${from.siteUrl}/guides/agents","children":"$5"}]\n`,
);

describe("deployment rewrite", () => {
  it("keeps its defaults the same as lib/site.ts and lib/env.ts", () => {
    expect(DEFAULT_SITE_URL).toBe(SITE_DEFAULT);
    expect(DEFAULT_CONTACT_EMAIL).toBe(ENV_DEFAULT_CONTACT);
    expect(runtimeSettings({ SITE_URL: "https://a.example/ " })).toEqual({
      siteUrl: "https://a.example",
      contactEmail: DEFAULT_CONTACT_EMAIL,
    });
  });

  it("does nothing when the server runs with the build's settings", () => {
    expect(createRewriter(from, { ...from })).toBeNull();
  });

  it("rewrites an RSC payload and the byte length of the text row it grew", () => {
    const out = rewriter.flight(payload);
    const read = rows(out);
    expect(read[2]).toBe(longText.replaceAll(from.siteUrl, to.siteUrl));
    expect(read[3]).toContain(`"href":"${to.siteUrl}/guides/agents"`);
    expect(out.toString()).not.toContain(from.siteUrl);
  });

  it("rewrites the install links, whose server JSON is base64 (Cursor) or URL-encoded (VS Code), in markup and RSC", () => {
    const linksOn = (origin: string) =>
      installLinks({
        mcpServers: {
          agora: {
            command: "npx",
            args: ["-y", `${origin}/downloads/agora-mcp-client.tgz`],
            env: { AGORA_REGISTRY_URL: `${origin}/api`, ELICITATION_THRESHOLD: "0.01" },
          },
        },
      });
    const built = linksOn(from.siteUrl);
    const served = linksOn(to.siteUrl);
    expect(built.cursor).not.toContain(encodeURIComponent(from.siteUrl)); // base64: the origin is not there as text
    const markup = `<a href="${built.cursor.replaceAll("&", "&amp;")}">Cursor</a><a href="${built.vscode}">VS Code</a>`;
    expect(rewriter.text(markup)).toBe(
      `<a href="${served.cursor.replaceAll("&", "&amp;")}">Cursor</a><a href="${served.vscode}">VS Code</a>`,
    );
    const row = JSON.stringify({ href: built.cursor });
    const flight = Buffer.from(
      `3:T${Buffer.byteLength(row).toString(16)},${row}0:["$","a",null,{"href":"${built.vscode}"}]\n`,
    );
    const read = rows(rewriter.flight(flight));
    expect(JSON.parse(read[0]!)).toEqual({ href: served.cursor });
    expect(read[1]).toContain(served.vscode);
    // An encoded origin that only starts the same is left alone.
    const longer = encodeURIComponent(`${from.siteUrl}0/api`);
    expect(rewriter.text(`vscode:mcp/install?${longer}`)).toBe(`vscode:mcp/install?${longer}`);
  });

  it("leaves longer hosts, other ports and other addresses alone", () => {
    const text = `${from.siteUrl}. ${from.siteUrl}0 ${from.siteUrl}.evil.test mailto:${from.contactEmail} x${from.contactEmail}`;
    expect(rewriter.text(text)).toBe(
      `${to.siteUrl}. ${from.siteUrl}0 ${from.siteUrl}.evil.test mailto:${to.contactEmail} x${from.contactEmail}`,
    );
  });

  it("rewrites a page whose inlined stream splits a text row across scripts", () => {
    const stream = payload.toString("utf8");
    const cut = stream.indexOf("é") + 1; // inside the text row, after a character that is not ASCII
    const cut2 = stream.indexOf(from.siteUrl, stream.indexOf("x".repeat(50))) + 8; // inside an origin
    const chunks = [stream.slice(0, 30), stream.slice(30, cut), stream.slice(cut, cut2), stream.slice(cut2)];
    const script = (c: string) =>
      `<script>self.__next_f.push([1,${JSON.stringify(c).replace(/</g, "\\u003c")}])</script>`;
    const page = `<html><head><link rel="canonical" href="${from.siteUrl}/guides"/></head><body><pre>${from.siteUrl}/api</pre><script>(self.__next_f=self.__next_f||[]).push([0])</script>${chunks.map(script).join("")}</body></html>`;
    const out = rewriter.html(page);
    expect(out).toContain(`<link rel="canonical" href="${to.siteUrl}/guides"/>`);
    expect(out).toContain(`<pre>${to.siteUrl}/api</pre>`);
    const pushed = [...out.matchAll(/self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/g)].map(
      (m) => JSON.parse(m[1]!) as string,
    );
    expect(pushed).toHaveLength(4);
    expect(rows(Buffer.from(pushed.join(""), "utf8"))).toEqual(rows(rewriter.flight(payload)));
  });

  it("rewrites the files of a tarball and keeps it readable by tar", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rewrite-tar-"));
    fs.mkdirSync(path.join(dir, "package/dist"), { recursive: true });
    fs.writeFileSync(path.join(dir, "package/README.md"), `npx -y ${from.siteUrl}/downloads/agora-mcp-client.tgz\n`);
    fs.writeFileSync(
      path.join(dir, "package/dist/index.js"),
      `const registry = "${from.siteUrl}/api";\n${"// padding\n".repeat(100)}`,
    );
    execFileSync("tar", ["--format=ustar", "-czf", path.join(dir, "p.tgz"), "-C", dir, "package"]);
    const out = rewriter.tarball(fs.readFileSync(path.join(dir, "p.tgz")));
    fs.writeFileSync(path.join(dir, "out.tgz"), out);
    fs.mkdirSync(path.join(dir, "x"));
    execFileSync("tar", ["-xzf", path.join(dir, "out.tgz"), "-C", path.join(dir, "x")]);
    expect(fs.readFileSync(path.join(dir, "x/package/README.md"), "utf8")).toBe(
      `npx -y ${to.siteUrl}/downloads/agora-mcp-client.tgz\n`,
    );
    expect(fs.readFileSync(path.join(dir, "x/package/dist/index.js"), "utf8")).toMatch(
      new RegExp(`^const registry = "${to.siteUrl}/api";`),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
