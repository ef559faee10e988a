import { fileURLToPath } from "node:url";
import createMDX from "@next/mdx";

const isDev = process.env.NODE_ENV !== "production";
const posthogHost = process.env.NEXT_PUBLIC_POSTHOG_HOST || "https://us.i.posthog.com";
// Sign-in forms may post on to the OAuth providers' authorization pages (followed redirects count as form
// targets): GitHub's origin (a loopback fake in tests, only when GITHUB_OAUTH_URL names it), Google when configured.
const formTargets = [
  "'self'",
  process.env.GITHUB_OAUTH_URL ? new URL(process.env.GITHUB_OAUTH_URL).origin : "https://github.com",
  ...(process.env.AUTH_GOOGLE_ID ? ["https://accounts.google.com"] : []),
];

// Inline scripts are Next's own bootstrap; a nonce would force every static page to render per request.
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  `connect-src 'self'${process.env.NEXT_PUBLIC_POSTHOG_KEY ? ` ${posthogHost} https://*.posthog.com` : ""}`,
  "frame-src https://www.youtube-nocookie.com",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
  `form-action ${formTargets.join(" ")}`,
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ...(isDev ? [] : [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains; preload" }]),
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A runnable server without the source tree (.next/standalone, completed by scripts/standalone.mjs): the
  // container image and CI's production start run it.
  output: "standalone",
  pageExtensions: ["ts", "tsx", "md", "mdx"],
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // The route cache never stores a 404: unknown slugs and page numbers cannot crowd real pages out of it.
  cacheHandler: fileURLToPath(new URL("./lib/cache/route-cache-handler.mjs", import.meta.url)),
  experimental: {
    // forbidden() renders app/forbidden.tsx with a 403 for signed-in non-admins.
    authInterrupts: true,
    // Pages rendered at run time (a listing's detail page, a catalogue page, a revalidated guide) and data-cache
    // entries stay in Next's in-memory LRU (cacheMaxMemorySize, 50 MB by default), never on disk: each stored detail
    // page was ~170 KB in seven files, so a crawler walking 1,000,000 listings would have written ~170 GB beside the
    // database. A page evicted, or lost at a restart, renders again on its next request, as it would
    // anyway once its five minutes are up; prerendered pages are still read from the build.
    isrFlushToDisk: false,
  },
  // The proxy sees the URL the server compares rewrites against. Without this Next hands the proxy
  // `http://localhost:<port>/…` while the standalone server, bound to HOSTNAME (127.0.0.1, or 0.0.0.0 in the
  // container), judges a rewrite internal only if it names `http://<HOSTNAME>:<port>`: the catalogue rewrite then
  // became an external proxy to itself, a second request per /marketplace that also lost the proxy's
  // Cache-Control (tests/e2e/cdn-cache.spec.ts on the production build).
  skipProxyUrlNormalize: true,
  reactStrictMode: true,
  // The package tarballs (dist/downloads, made by `npm run build:downloads`) are read at request time by
  // app/downloads/[file]; traced here so a standalone build carries them next to its server.
  outputFileTracingIncludes: { "/downloads/*": ["./dist/downloads/*"] },
  // lib/downloads/served.ts names the dev tarballs' folder too (`npm run dev` and the sandbox serve from it); the
  // trace follows that literal, so a checkout that ran either before `npm run build` shipped them in the
  // standalone folder (CI's order: tests/e2e/standalone-folder.spec.ts).
  outputFileTracingExcludes: { "*": ["./dist/downloads-dev/**"] },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
  async redirects() {
    return [{ source: "/alpha", destination: "/", permanent: false }];
  },
};

const withMDX = createMDX({
  options: { remarkPlugins: ["remark-gfm"] },
});

export default withMDX(nextConfig);
