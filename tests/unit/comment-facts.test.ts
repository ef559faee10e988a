// The comment lint (scripts/check-comments.ts): what it reports and what it lets through.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commentFindings, commentsOf } from "../../scripts/support/comment-facts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comment-facts-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function findingsFor(source: string, name = "sample.ts") {
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return commentFindings([file]).map((f) => ({ line: f.line, kind: f.kind, text: f.text }));
}

describe("comment findings", () => {
  it("reports the tracker's and the spec's numbers in comments, not in code or in standards' sections", () => {
    const found = findingsFor(
      [
        "// Sitemaps split at 50,000 URLs (issue 44).",
        'const text = "issue 44 is in a string, not a comment";',
        "/** A falsy price means free (spec §3). */",
        "// A bare OAuth error code (RFC 6749 §4.1.2.1) is shown as sent.",
        "// Claims (#27 item 5) follow the registry's namespaces.",
        "// Fourteen checks, colour #fff, no numbers of a tracker.",
      ].join("\n"),
    );
    expect(found).toEqual([
      { line: 1, kind: "history", text: "// Sitemaps split at 50,000 URLs (issue 44)." },
      { line: 3, kind: "history", text: "/** A falsy price means free (spec §3). */" },
      { line: 5, kind: "history", text: "// Claims (#27 item 5) follow the registry's namespaces." },
    ]);
  });

  it("reports a file a comment names that does not exist, and lets real files, route groups and method names through", () => {
    const found = findingsFor(
      [
        "// Read by lib/listings/drift.ts (moved).",
        "// Served by app/downloads/[file] (traced by next.config.mjs).",
        "// The marketing pages live in app/(marketing)/page.tsx.",
        "// MCP's server/discover answers before initialize.",
        "// Output in bench/.out/latest.json after a run; sources in lib/probe/*.ts.",
      ].join("\n"),
    );
    expect(found).toEqual([{ line: 1, kind: "missing-path", text: "lib/listings/drift.ts" }]);
  });

  it("reads comments in TSX, and a URL inside a string is no comment", () => {
    const comments = commentsOf(
      "x.tsx",
      'const a = <a href="https://example.com">x</a>; // a real comment\n{/* and this */}',
    );
    expect(comments.map((c) => c.text)).toEqual(["// a real comment", "/* and this */"]);
  });
});
