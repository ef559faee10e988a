// One build runs on any domain. `npm run build` prerenders the guides, legal pages and robots.txt
// and packs the downloadable tarballs with the deployment settings of the build (SITE_URL, CONTACT_EMAIL), and
// records them in dist/downloads/manifest.json. A server started with other values rewrites those bytes to its own,
// once per payload, in memory (never on disk, so a read-only image works):
// - server/static-fast-path.mjs, for the prerendered HTML it serves itself (its ETags are of the rewritten bytes);
// - lib/cache/route-cache-handler.mjs, for everything Next serves from its route cache: the HTML, the RSC payload of
//   a client-side navigation and its prefetch segments, static route handlers' bodies (robots.txt);
// - lib/downloads/served.ts, for the tarballs (the client's default registry and the READMEs name the origin).
//
// RSC payloads are not plain text: a text row is `<id>:T<hex byte length>,<text>` with no end mark, so a longer
// origin inside it must change the length too, or the client reads a corrupt stream. flightEdits() walks the rows
// the way React's client does (react-server-dom-webpack processBinaryChunk) and rewrites each length it changes;
// in the HTML the same stream is spread over `self.__next_f.push([1,"…"])` scripts, one row sometimes across two.
// Everything here works on latin1 strings of the bytes (one char per byte), so lengths are byte lengths and bytes
// that are not ASCII pass through untouched; the values replaced are ASCII.
//
// Plain JavaScript with no imports but Node's own: the preloads run before Next and the standalone server has no
// TypeScript.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** lib/site.ts DEFAULT_SITE_URL and lib/env.ts DEFAULT_CONTACT_EMAIL (tests/unit/deployment-rewrite.test.ts holds them together). */
export const DEFAULT_SITE_URL = "http://localhost:3000";
export const DEFAULT_CONTACT_EMAIL = "hello@agora-mcp.dev";

// Only values that need no escaping in HTML, JSON or a JavaScript string are written in place of others.
const PLAIN_ORIGIN = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const PLAIN_EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$/;

/** What the server runs with, as lib/site.ts siteUrl() and lib/env.ts read them. */
export function runtimeSettings(environment = process.env) {
  const trimmed = (name) => (environment[name] ?? "").trim();
  return {
    siteUrl: (trimmed("SITE_URL") || DEFAULT_SITE_URL).replace(/\/$/, ""),
    contactEmail: trimmed("CONTACT_EMAIL") || DEFAULT_CONTACT_EMAIL,
  };
}

/** The build's dist/downloads/manifest.json (scripts/build-downloads.ts), or null. */
function readManifest(dir) {
  try {
    const manifest = JSON.parse(
      fs.readFileSync(/* turbopackIgnore: true */ path.join(dir, "dist/downloads/manifest.json"), "utf8"),
    );
    return typeof manifest?.siteUrl === "string" ? manifest : null;
  } catch {
    return null;
  }
}

/** What the build in `dir` wrote into its pages and tarballs, from dist/downloads/manifest.json; null when unknown. */
function buildSettings(dir) {
  const manifest = readManifest(dir);
  if (!manifest) return null;
  return {
    siteUrl: manifest.siteUrl,
    contactEmail: typeof manifest.contactEmail === "string" ? manifest.contactEmail : DEFAULT_CONTACT_EMAIL,
  };
}

/** A built tarball as a server on `origin` serves it (lib/downloads/served.ts): its bytes as built on the build's. */
export function servedTarball(bytes, buildOrigin, origin) {
  const rewriter = createRewriter({ siteUrl: buildOrigin, contactEmail: "" }, { siteUrl: origin, contactEmail: "" });
  return rewriter ? rewriter.tarball(bytes) : bytes;
}

/** The line components/content/package-download.tsx shows above a tarball's digest. */
export function packageLine(name, version, size) {
  return `${name} ${version} (${Math.round(size / 1024)} KB), served by this site:`;
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The rewriter from the build's settings to the server's, or null when they are the same (nothing to do) or a
 * value is not a plain origin or address (lib/env.ts refuses those at start-up with the variable's name).
 */
export function createRewriter(from, to, literals = []) {
  const pairs = [];
  // Exact strings the build wrote (the tarballs' digests and sizes the guides show), longest first.
  for (const [was, now] of literals)
    if (was !== now) pairs.push([`(?<![0-9A-Za-z])${escapeRegExp(was)}(?![0-9A-Za-z])`, now]);
  if (from.siteUrl !== to.siteUrl && PLAIN_ORIGIN.test(from.siteUrl) && PLAIN_ORIGIN.test(to.siteUrl)) {
    // Not the start of a longer host or port: http://agora.example is not http://agora.example.com or :30001.
    pairs.push([`(?<![A-Za-z0-9])${escapeRegExp(from.siteUrl)}(?![A-Za-z0-9_-]|[.:][A-Za-z0-9])`, to.siteUrl]);
    // The same origin inside a URL's query (VS Code's install link carries its server's JSON URL-encoded).
    const encoded = encodeURIComponent(from.siteUrl);
    pairs.push([
      `(?<=^|[^A-Za-z0-9%]|%[0-9A-F]{2})${escapeRegExp(encoded)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9]|%3A[0-9])`,
      encodeURIComponent(to.siteUrl),
    ]);
    // Cursor's install link carries its server's JSON in base64 (lib/downloads/install-links.ts), where no origin
    // shows as text: the value is decoded, rewritten and encoded again.
    pairs.push([CURSOR_CONFIG, (value) => cursorConfig(value, text)]);
  }
  if (
    from.contactEmail !== to.contactEmail &&
    PLAIN_EMAIL.test(from.contactEmail) &&
    PLAIN_EMAIL.test(to.contactEmail)
  ) {
    pairs.push([
      `(?<![A-Za-z0-9._%+-])${escapeRegExp(from.contactEmail)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`,
      to.contactEmail,
    ]);
  }
  if (pairs.length === 0) return null;
  const pattern = new RegExp(pairs.map(([p]) => `(${p})`).join("|"), "g");
  const replacement = (match, ...groups) => {
    const now = pairs[groups.findIndex((g) => g !== undefined)][1];
    return typeof now === "function" ? now(match) : now;
  };
  const text = (s) => s.replace(pattern, replacement);

  /** The edits that turn one RSC stream (latin1) into the rewritten one: [start, end, replacement], in order. */
  function flightEdits(stream) {
    const edits = [];
    const replaceIn = (start, end) => {
      pattern.lastIndex = 0;
      const part = stream.slice(start, end);
      for (const m of part.matchAll(pattern)) {
        edits.push([start + m.index, start + m.index + m[0].length, replacement(m[0], ...m.slice(1))]);
      }
    };
    let i = 0;
    while (i < stream.length) {
      const colon = stream.indexOf(":", i);
      if (colon < 0 || !/^[0-9a-f]*$/.test(stream.slice(i, colon))) throw new Error(`not an RSC row at byte ${i}`);
      const tag = stream[colon + 1];
      if (tag !== undefined && LENGTH_TAGS.has(tag)) {
        const comma = stream.indexOf(",", colon + 2);
        const hex = stream.slice(colon + 2, comma);
        if (comma < 0 || !/^[0-9a-f]+$/.test(hex)) throw new Error(`an RSC row at byte ${i} has no length`);
        const start = comma + 1;
        const end = start + parseInt(hex, 16);
        if (end > stream.length) throw new Error(`an RSC row at byte ${i} is cut short`);
        if (tag === "T") {
          const before = edits.length;
          replaceIn(start, end);
          const grown = edits.slice(before).reduce((sum, [s, e, r]) => sum + r.length - (e - s), 0);
          if (grown !== 0) edits.splice(before, 0, [colon + 2, comma, (end - start + grown).toString(16)]);
        }
        i = end;
      } else {
        const newline = stream.indexOf("\n", colon);
        const end = newline < 0 ? stream.length : newline + 1;
        replaceIn(colon + 1, end);
        i = end;
      }
    }
    return edits;
  }

  /** The chunks with the edits applied; an edit across a boundary goes wholly to the chunk it starts in. */
  function applyEdits(chunks, edits) {
    const out = [];
    let offset = 0;
    let next = 0;
    let skipUntil = 0;
    for (const chunk of chunks) {
      const end = offset + chunk.length;
      // The tail of an edit that began in an earlier chunk was written there.
      let pos = Math.min(Math.max(offset, skipUntil), end);
      let result = "";
      while (next < edits.length && edits[next][0] < end) {
        const [s, e, r] = edits[next++];
        result += chunk.slice(pos - offset, s - offset) + r;
        pos = Math.min(e, end);
        skipUntil = e;
      }
      out.push(result + chunk.slice(pos - offset));
      offset = end;
    }
    return out;
  }

  /** An RSC payload (a .rsc file, a prefetch segment) with its text rows' lengths kept right. */
  function flight(bytes) {
    const stream = Buffer.from(bytes).toString("latin1");
    const edits = flightEdits(stream);
    return edits.length === 0 ? bytes : Buffer.from(applyEdits([stream], edits)[0], "latin1");
  }

  /** A prerendered page: its markup, and the RSC stream inlined in its `self.__next_f.push([1,"…"])` scripts. */
  function html(page) {
    if (page.includes("self.__next_f.push([3,")) throw new Error("the page inlines binary RSC chunks");
    const scripts = [...page.matchAll(FLIGHT_SCRIPT)];
    const chunks = scripts.map((m) => Buffer.from(JSON.parse(m[2]), "utf8").toString("latin1"));
    const rewritten = applyEdits(chunks, flightEdits(chunks.join("")));
    let out = "";
    let pos = 0;
    scripts.forEach((m, k) => {
      const literal =
        rewritten[k] === chunks[k]
          ? m[2]
          : htmlEscapeJson(JSON.stringify(Buffer.from(rewritten[k], "latin1").toString("utf8")));
      out += text(page.slice(pos, m.index)) + m[1] + literal + m[3];
      pos = m.index + m[0].length;
    });
    return out + text(page.slice(pos));
  }

  /** A tarball (npm pack's gzip of a ustar archive) with its files' text rewritten and their sizes kept right. */
  function tarball(gzipped) {
    const tar = zlib.gunzipSync(gzipped);
    const parts = [];
    let i = 0;
    let paxBefore = false;
    while (i + 512 <= tar.length) {
      const header = Buffer.from(tar.subarray(i, i + 512));
      if (header.every((b) => b === 0)) {
        parts.push(tar.subarray(i));
        break;
      }
      const size = parseInt(header.toString("latin1", 124, 136).replace(/\0.*$/s, "").trim() || "0", 8);
      const type = String.fromCharCode(header[156]);
      const body = tar.subarray(i + 512, i + 512 + size);
      const padded = Math.ceil(size / 512) * 512;
      const regular = type === "0" || type === "\0";
      const rewritten = regular && !paxBefore ? Buffer.from(text(body.toString("latin1")), "latin1") : body;
      if (rewritten.length !== body.length || !rewritten.equals(body)) {
        header.write(rewritten.length.toString(8).padStart(11, "0") + "\0", 124, 12, "latin1");
        header.fill(0x20, 148, 156);
        const sum = header.reduce((a, b) => a + b, 0);
        header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "latin1");
      }
      parts.push(header, rewritten, Buffer.alloc(Math.ceil(rewritten.length / 512) * 512 - rewritten.length));
      // A pax header's own size= record would override the one rewritten here: its file is left alone.
      paxBefore = type === "x";
      i += 512 + padded;
    }
    return zlib.gzipSync(Buffer.concat(parts));
  }

  return { from, to, text, flight, html, tarball };
}

// The config value of a Cursor install link, in a page's markup (`&amp;`) or its RSC payload (`&`). No capturing group:
// createRewriter tells its patterns apart by their groups.
const CURSOR_CONFIG =
  "(?<=cursor://anysphere\\.cursor-deeplink/mcp/install\\?name=[A-Za-z0-9%._~-]*&(?:amp;)?config=)[A-Za-z0-9%]+";

/** A Cursor install link's config (URL-encoded base64 of JSON) with `rewrite` applied to the JSON it carries. */
function cursorConfig(value, rewrite) {
  try {
    const json = Buffer.from(decodeURIComponent(value), "base64").toString("utf8");
    const rewritten = rewrite(json);
    return rewritten === json ? value : encodeURIComponent(Buffer.from(rewritten, "utf8").toString("base64"));
  } catch {
    return value;
  }
}

// The row tags whose row is `<tag><hex length>,<bytes>` (React's processBinaryChunk); every other row ends at "\n".
const LENGTH_TAGS = new Set(["T", "A", "O", "o", "b", "U", "S", "s", "L", "l", "G", "g", "M", "m", "V"]);
// Next's inlined RSC chunks (app-render/use-flight-response.tsx): a JSON string made safe for HTML.
const FLIGHT_SCRIPT = /(<script(?: nonce="[^"]*")?>self\.__next_f\.push\(\[1,)("(?:[^"\\]|\\.)*")(\]\)<\/script>)/g;

/** As Next's htmlEscapeJsonString: what may not appear raw inside an inline script. */
function htmlEscapeJson(json) {
  return json.replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// Kept on globalThis: the preload, Next's cache handler and the bundled app may each load their own copy of this
// module, and the tarballs' digests are worth computing once per process (~0.1 s).
const CACHE = Symbol.for("agora.deployment-rewriter");

/** The built tarballs' digests and size lines, and those of the tarballs this server serves instead. */
function tarballLiterals(dir, buildOrigin, origin) {
  if (buildOrigin === origin) return [];
  const literals = [];
  for (const pkg of readManifest(dir)?.packages ?? []) {
    // Kept out of Turbopack's file trace (as the manifest read above): a path built from a run-time directory made
    // it take in every folder of dist/ and all of server/ (the type declarations too) for every route;
    // next.config.mjs names dist/downloads for the trace instead.
    const built = fs.readFileSync(/* turbopackIgnore: true */ [dir, "dist", "downloads", pkg.file].join("/"));
    const served = servedTarball(built, buildOrigin, origin);
    literals.push([pkg.sha256, createHash("sha256").update(served).digest("hex")]);
    literals.push([
      packageLine(pkg.packageName, pkg.version, pkg.size),
      packageLine(pkg.packageName, pkg.version, served.length),
    ]);
  }
  return literals;
}

/** The rewriter for the build in `dir` (the working directory of `next start` and of the standalone server). */
export function deploymentRewriter(dir = process.cwd()) {
  const to = runtimeSettings();
  const key = `${dir}\n${to.siteUrl}\n${to.contactEmail}`;
  let cached = globalThis[CACHE];
  if (cached?.key !== key) {
    const from = buildSettings(dir);
    cached = globalThis[CACHE] = {
      key,
      rewriter: from ? createRewriter(from, to, tarballLiterals(dir, from.siteUrl, to.siteUrl)) : null,
    };
  }
  return cached.rewriter;
}
