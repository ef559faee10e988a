// lib/http/cache-headers.ts: which requests a shared cache may keep, and the validator of a page rendered per request.
import { describe, expect, it } from "vitest";
import {
  hasSessionCookie,
  matchesEtag,
  PRIVATE_CACHE,
  PUBLIC_CACHE,
  readCacheControl,
  renderedPageEtag,
} from "@/lib/http/cache-headers";

const req = (url: string, headers: Record<string, string> = {}) => ({ url, headers: new Headers(headers) });

describe("shared-cache rules", () => {
  it("marks a request with any Auth.js session cookie private, whatever else it carries", () => {
    for (const cookie of [
      "authjs.session-token=x",
      "theme=dark; __Secure-authjs.session-token=x",
      "a=1;authjs.session-token.0=x; b=2",
    ]) {
      expect(hasSessionCookie(cookie), cookie).toBe(true);
      expect(readCacheControl(req("http://x/marketplace", { cookie }))).toBe(PRIVATE_CACHE);
    }
    for (const cookie of ["theme=dark", "authjs.csrf-token=x; authjs.callback-url=y", "my-authjs.session-token=x"]) {
      expect(hasSessionCookie(cookie), cookie).toBe(false);
    }
    expect(readCacheControl(req("http://x/marketplace"))).toBe(PUBLIC_CACHE);
    expect(PUBLIC_CACHE).toMatch(/^public, .*s-maxage=\d+, stale-while-revalidate=\d+$/);
  });

  it("gives a rendered page a validator that changes with the catalogue, the URL, the RSC variant and the minute", () => {
    const now = Date.UTC(2026, 10, 25, 8, 0, 10);
    const base = renderedPageEtag(req("http://x/marketplace?q=weather"), "build-1", "41", now);
    expect(base).toMatch(/^W\/"p-[\w-]+"$/);
    expect(renderedPageEtag(req("http://x/marketplace?q=weather"), "build-1", "41", now + 20_000)).toBe(base);
    for (const other of [
      renderedPageEtag(req("http://x/marketplace?q=weather"), "build-1", "42", now),
      renderedPageEtag(req("http://x/marketplace?q=weather"), "build-2", "41", now),
      renderedPageEtag(req("http://x/marketplace?q=wether"), "build-1", "41", now),
      renderedPageEtag(req("http://x/marketplace?q=weather", { rsc: "1" }), "build-1", "41", now),
      renderedPageEtag(req("http://x/marketplace?q=weather"), "build-1", "41", now + 60_000),
    ]) {
      expect(other).not.toBe(base);
    }
    expect(matchesEtag(req("http://x", { "if-none-match": `W/"other", ${base}` }), base)).toBe(true);
    expect(matchesEtag(req("http://x", { "if-none-match": 'W/"other"' }), base)).toBe(false);
    expect(matchesEtag(req("http://x"), base)).toBe(false);
  });
});
