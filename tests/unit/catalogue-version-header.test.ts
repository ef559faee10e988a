// proxy.ts hands the search page the catalogue version it read for the ETag, on a request header. A value a
// client sends must never reach the page (it would key the search cache to a version of the client's choosing).
import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import {
  CATALOGUE_VERSION_HEADER,
  forwardedCatalogueVersion,
  withCatalogueVersion,
} from "@/lib/listings/search/version-header";

describe("the catalogue version handed from the proxy to the search page", () => {
  it("replaces or removes whatever the client sent", () => {
    const client = new Headers({ [CATALOGUE_VERSION_HEADER]: "999999", accept: "text/html" });
    expect(withCatalogueVersion(client, "42").get(CATALOGUE_VERSION_HEADER)).toBe("42");
    expect(withCatalogueVersion(client, null).has(CATALOGUE_VERSION_HEADER)).toBe(false);
    expect(withCatalogueVersion(client, null).get("accept")).toBe("text/html");
  });

  it("the page takes only a plain number", () => {
    expect(forwardedCatalogueVersion(new Headers({ [CATALOGUE_VERSION_HEADER]: "42" }))).toBe("42");
    for (const bad of ["", "-1", "1e5", "42; drop", "9".repeat(21)])
      expect(forwardedCatalogueVersion(new Headers({ [CATALOGUE_VERSION_HEADER]: bad })), bad).toBeNull();
    expect(forwardedCatalogueVersion(new Headers())).toBeNull();
  });

  it("a /marketplace request the proxy passes on without reading a version carries none of the client's", async () => {
    const request = new NextRequest("http://localhost:3000/marketplace?q=weather", {
      method: "POST",
      headers: {
        [CATALOGUE_VERSION_HEADER]: "999999",
        "sec-fetch-site": "same-origin",
        origin: "http://localhost:3000",
      },
    });
    const response = await proxy(request);
    // Next applies x-middleware-override-headers: the request headers the page sees are exactly those listed (without
    // it, the client's own headers would pass on untouched).
    const override = response.headers.get("x-middleware-override-headers");
    expect(override).toBeTruthy();
    const passed = override!.split(",");
    expect(passed).toContain("origin");
    expect(passed).not.toContain(CATALOGUE_VERSION_HEADER);
    expect(response.headers.get(`x-middleware-request-${CATALOGUE_VERSION_HEADER}`)).toBeNull();
  });
});
