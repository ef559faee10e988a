// Preloaded with `node --import ./server/static-fast-path.mjs` by the production starts (`npm start`,
// `npm run start:prod`, the Dockerfile's CMD; never `next dev`). Answers requests for the build's fully static
// pages from memory, before Next sees them, the way a CDN would serve them: Next spends ~3 ms of JavaScript per
// request on routing, the proxy and the cache lookup even for a page that is the same bytes for everyone
// (measured: the terms page did 0.04 of a bare node:http server through Next).
//
// It answers only what it can answer exactly as Next does, and hands everything else to Next unchanged:
// - the pages `.next/prerender-manifest.json` lists as prerendered once and never revalidated (a 200 page, no
//   revalidate, not PPR), read with their `.meta` at start-up;
// - GET or HEAD of exactly that path: no query string, no trailing slash, no other spelling;
// - no request header that Next reads to answer differently: the RSC, prefetch and server-action headers (its
//   Vary), revalidation and preview headers, Range, a body, and the draft-mode cookies;
// - an Accept-Encoding it can read the way Next's compression does (absent, or a plain list), so it sends the same
//   encoding: gzip bytes made at start-up with the same zlib defaults, identity otherwise;
// - while the database is up (proxy.ts answers some of these paths 503 while it is down: Next decides then).
// The headers are Next's: next.config.mjs `headers()` from routes-manifest.json, the page's own headers from its
// `.meta`, Cache-Control, ETag and 304s computed by Next's own modules. A session cookie changes nothing: these
// pages are the same bytes for everyone and proxy.ts sets no header on them (tests/e2e/static-fast-path.spec.ts
// compares every answer with Next's own, the switch off).
//
// STATIC_FAST_PATH=0 turns it off (everything goes to Next).
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { deploymentRewriter } from "./deployment-rewrite.mjs";
import { guardEmit } from "./emit-guard.mjs";
import { pageHeaders } from "./next-headers.mjs";

const MARKER = Symbol.for("agora.static-fast-path-preload");

// Request headers Next reads to decide what a page URL answers (app-router-headers.js, app-page-runtime.js,
// base-server.js, resolve-routes.js): the RSC payload and prefetches, server actions, revalidation and preview,
// middleware and deployment internals. Any of them, or a header that starts like one, sends the request to Next.
const BYPASS_HEADERS = new Set([
  "rsc",
  "purpose",
  "sec-purpose",
  "range",
  "if-range",
  "content-type",
  "content-length",
  "transfer-encoding",
  "expect",
  "upgrade",
  "x-matched-path",
]);
const BYPASS_PREFIXES = ["next-", "x-next", "x-middleware-", "x-prerender-", "x-invoke-", "x-now-", "x-vercel-"];
// Draft mode and preview data make Next render instead of serving the prerendered page.
const BYPASS_COOKIES = /(?:^|;)\s*(?:__prerender_bypass|__next_preview_data|next-instant-navigation-testing)=/;

// Next only compresses bodies of at least this many bytes (its compression middleware's default threshold).
const COMPRESSION_THRESHOLD = 1024;

/** Wraps http.Server's request event: a request the fast path answered never reaches Next's listener. */
function install(pages) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = guardEmit("static-fast-path", function emitOrAnswerStatic(event, req, res, ...rest) {
    if (event === "request" && answer(pages, req, res)) return true;
    return emit.call(this, event, req, res, ...rest);
  });
}

/** Answers the request from memory when it is one the fast path serves exactly as Next would; else false. */
function answer(pages, req, res) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const page = pages.get(req.url);
  if (page === undefined) return false;
  const raw = req.rawHeaders;
  let acceptEncoding;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (BYPASS_HEADERS.has(name) || BYPASS_PREFIXES.some((p) => name.startsWith(p))) return false;
    if (name === "cookie" && BYPASS_COOKIES.test(raw[i + 1])) return false;
    if (name === "accept-encoding") {
      // Several Accept-Encoding lines are joined by Node; rare enough to leave to Next.
      if (acceptEncoding !== undefined) return false;
      acceptEncoding = raw[i + 1];
    }
  }
  // db/health.ts keeps its state here; while the database is (or may be) down, proxy.ts decides.
  const health = globalThis[Symbol.for("agora.db-health")];
  if (health && health.downSince !== null) return false;
  const encoding = page.gzip ? negotiate(acceptEncoding) : "identity";
  if (encoding === null) return false;

  req.resume();
  if (page.fresh(req.headers, { etag: page.etag })) {
    res.writeHead(304, page.notModified);
    res.end();
  } else if (req.method === "HEAD") {
    res.writeHead(200, page.identity);
    res.end();
  } else if (encoding === "gzip") {
    // Headers first, then the body: chunked, as Next's compression stream sends it.
    res.writeHead(200, page.gzipped);
    res.end(page.gzip);
  } else {
    res.writeHead(200, page.identity);
    res.end(page.html);
  }
  return true;
}

/**
 * The encoding Next's compression middleware (negotiator over gzip, deflate, identity; gzip before deflate) picks
 * for this Accept-Encoding, when that is plain: "gzip" or "identity". null for lists with q-values, wildcards,
 * identity or deflate alone, which Next negotiates itself.
 */
function negotiate(acceptEncoding) {
  if (acceptEncoding === undefined) return "identity";
  if (acceptEncoding.includes(";") || acceptEncoding.includes("*")) return null;
  let gzip = false;
  let deflate = false;
  for (const token of acceptEncoding.split(",")) {
    const coding = token.trim().toLowerCase();
    if (coding === "identity") return null;
    if (coding === "gzip") gzip = true;
    else if (coding === "deflate") deflate = true;
  }
  if (gzip) return "gzip";
  return deflate ? null : "identity";
}

/** The fully static pages of the build in `dir` (cwd of `next start` or of the standalone server), by path. */
function loadStaticPages(dir) {
  const distDir = path.join(dir, ".next");
  const readJson = (file) => JSON.parse(fs.readFileSync(path.join(distDir, file), "utf8"));
  const prerender = readJson("prerender-manifest.json");
  const routesManifest = readJson("routes-manifest.json");
  const { config } = readJson("required-server-files.json");
  // Next's own modules for what it computes per answer, from the copy of Next that serves the rest.
  const requireNext = createRequire(path.join(dir, "server.js"));
  const { generateETag } = requireNext("next/dist/server/lib/etag.js");
  const { getCacheControlHeader } = requireNext("next/dist/server/lib/cache-control.js");
  const fresh = requireNext("next/dist/compiled/fresh");

  const unsupported = unsupportedBuild(config, routesManifest);
  if (unsupported) {
    log("warn", `static fast path off: ${unsupported}`);
    return new Map();
  }
  // The build's SITE_URL and CONTACT_EMAIL become the server's (server/deployment-rewrite.mjs), once, here; the
  // ETag is of the rewritten bytes. Next reads .env files only after the preloads: read them now, as it will.
  requireNext("@next/env").loadEnvConfig(dir, false, {
    info: () => {},
    error: (...args) => log("warn", args.join(" ")),
  });
  const rewriter = deploymentRewriter(dir);
  if (rewriter)
    log("info", "prerendered pages rewritten to this server's settings", { from: rewriter.from, to: rewriter.to });

  const build = {
    distDir,
    routesManifest,
    config,
    vary: routesManifest.rsc.varyHeader,
    compress: config.compress !== false,
    rewriter,
    generateETag,
    getCacheControlHeader,
    fresh,
  };
  const pages = new Map();
  for (const [route, info] of Object.entries(prerender.routes)) {
    const page = staticPage(route, info, build);
    if (page) pages.set(route, page);
  }
  return pages;
}

/** Why this build's pages cannot be answered as Next answers them (then none is), or null. */
function unsupportedBuild(config, routesManifest) {
  if (config.generateEtags === false) return "generateEtags is off";
  if (config.basePath || config.i18n || config.trailingSlash) return "basePath, i18n or trailingSlash is set";
  // Intercepting routes make Next's Vary (and answer) depend on Next-URL; Next finds them among the rewrites that run
  // before the file system, with a Next-URL condition (next-server.js getinterceptionRoutePatterns).
  const beforeFiles = Array.isArray(routesManifest.rewrites) ? [] : (routesManifest.rewrites?.beforeFiles ?? []);
  if (
    beforeFiles.some((rule) => (rule.has ?? []).some((c) => c.type === "header" && c.key?.toLowerCase() === "next-url"))
  ) {
    return "the build has intercepting routes";
  }
  if (!routesManifest.rsc?.varyHeader) return "routes-manifest.json has no rsc.varyHeader";
  return null;
}

/** One prerendered page as the fast path answers it, or null when it is Next's to answer. */
function staticPage(route, info, build) {
  if (!servable(route, info, build.routesManifest)) return null;
  const base = path.join(build.distDir, "server/app", route === "/" ? "index" : route.slice(1));
  const meta = JSON.parse(fs.readFileSync(`${base}.meta`, "utf8"));
  if ((meta.status !== undefined && meta.status !== 200) || meta.postponed !== undefined) return null;
  // A page that read tagged data (unstable_cache, fetch tags) is re-rendered by Next once such a tag is revalidated
  // (lib/cache/invalidate.ts after every catalogue write): only pages with nothing but their implicit path tags
  // are the same for the life of the build. (No action revalidates the paths of these pages: revalidatePath is only
  // called for /account and /admin/review.)
  const tags = String(meta.headers?.["x-next-cache-tags"] ?? "")
    .split(",")
    .filter(Boolean);
  if (tags.some((tag) => !tag.startsWith("_N_T_/"))) return null;
  const configHeaders = headersFromConfig(route, build.routesManifest.headers);
  if (configHeaders === null) return null;
  const built = fs.readFileSync(`${base}.html`, "utf8");
  let text = built;
  try {
    text = build.rewriter ? build.rewriter.html(built) : built;
  } catch (error) {
    // Left to Next, whose route cache handler rewrites it or says why it cannot.
    log("warn", "static fast path: a page could not be rewritten", { route, error: String(error) });
    return null;
  }
  const html = Buffer.from(text, "utf8");
  const etag = build.generateETag(text);
  const cacheControl = build.getCacheControlHeader({
    revalidate: info.initialRevalidateSeconds,
    expire: info.initialExpireSeconds,
  });
  // Next's compression leaves text/html alone only when Cache-Control says no-transform.
  const compressible = build.compress && !/(?:^|,)\s*no-transform\s*(?:,|$)/.test(cacheControl);
  const common = (vary) =>
    pageHeaders({ configHeaders, vary, meta, poweredBy: build.config.poweredByHeader, cacheControl, etag });
  // Next's compression adds Accept-Encoding to Vary on every 200 of a compressible type, not on a 304.
  const varyOk = compressible ? `${build.vary}, Accept-Encoding` : build.vary;
  const contentType = "text/html; charset=utf-8";
  const gzip = compressible && html.length >= COMPRESSION_THRESHOLD ? zlib.gzipSync(html) : null;
  return {
    html,
    gzip,
    etag,
    fresh: build.fresh,
    identity: [...common(varyOk), "Content-Type", contentType, "Content-Length", String(html.length)],
    gzipped: [...common(varyOk), "Content-Type", contentType, "Content-Encoding", "gzip"],
    notModified: common(build.vary),
  };
}

/** A page Next serves from its prerendered HTML, the same for every request, and nothing redirects or rewrites. */
function servable(route, info, routesManifest) {
  // Next's internal pages (/_not-found, /_global-error) are not addresses anyone asks for.
  if (route !== "/" && (route.startsWith("/_") || route.endsWith("/"))) return false;
  if (info.routeType !== undefined && info.routeType !== "page") return false;
  if (info.initialRevalidateSeconds !== false || info.initialExpireSeconds !== undefined) return false;
  if (info.initialStatus !== undefined && info.initialStatus !== 200) return false;
  if (info.initialHeaders !== undefined) return false;
  if (info.renderingMode !== undefined && info.renderingMode !== "STATIC") return false;
  if (info.compute !== undefined && info.compute !== "static") return false;
  if (info.response !== undefined && info.response !== "complete") return false;
  const matches = (rules) => (rules ?? []).some((rule) => new RegExp(rule.regex).test(route));
  const rewrites = routesManifest.rewrites;
  const rewriteRules = Array.isArray(rewrites)
    ? rewrites
    : [...(rewrites?.beforeFiles ?? []), ...(rewrites?.afterFiles ?? [])];
  return !matches(routesManifest.redirects) && !matches(rewriteRules);
}

/**
 * next.config.mjs `headers()` as Next applies them to this path (routes-manifest.json), as a flat list; null when
 * a rule that matches depends on the request (has/missing) or fills in a parameter, which is left to Next.
 */
function headersFromConfig(route, rules) {
  // Next sets each one with setHeader: a later rule's header replaces an earlier one of the same name.
  const byName = new Map();
  for (const rule of rules ?? []) {
    if (!new RegExp(rule.regex).test(route)) continue;
    if (rule.has || rule.missing) return null;
    const params = [...rule.source.matchAll(/:(\w+)/g)].map((m) => m[1]);
    for (const { key, value } of rule.headers) {
      if (params.some((p) => key.includes(`:${p}`) || value.includes(`:${p}`))) return null;
      if (key.toLowerCase() === "set-cookie") return null;
      byName.set(key.toLowerCase(), [key, value]);
    }
  }
  return [...byName.values()].flat();
}

// The app's log shape (lib/log.ts), which this plain module cannot import.
function log(level, msg, fields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}

// Last in the module: everything above is defined by now.
if (!globalThis[MARKER] && process.env.STATIC_FAST_PATH !== "0" && !process.argv.slice(2).includes("dev")) {
  globalThis[MARKER] = true;
  let pages = null;
  try {
    pages = loadStaticPages(process.cwd());
  } catch (error) {
    log("warn", "static fast path off: the build could not be read", { error: String(error) });
  }
  if (pages && pages.size > 0) {
    install(pages);
    log("info", "static fast path on", { routes: [...pages.keys()] });
  }
}
