// The catalogue version the proxy read for a marketplace search (proxy.ts hashes it into the page's ETag) handed to
// the page on a request header, so the page's search cache key does not read it a second time. The proxy sets or
// removes this header on every /marketplace request it passes on: a value a client sent never reaches the page.
// The JSON API and the MCP endpoint read no header: the proxy reads no version for them, so their search reads it
// once itself (tests/integration/catalogue-version.test.ts counts the reads and sends a forged header).
// The version itself (the catalogue_version sequence, moved by every catalogue write), for the proxy's ETag.
export { catalogueVersion } from "@/db/queries/listings";

export const CATALOGUE_VERSION_HEADER = "x-agora-catalogue-version";

/** The version the proxy forwarded, or null (then the search reads it itself). */
export function forwardedCatalogueVersion(headers: Headers): string | null {
  const value = headers.get(CATALOGUE_VERSION_HEADER);
  return value && /^\d{1,20}$/.test(value) ? value : null;
}

/** Request headers passed on: the client's, with the version header replaced by the proxy's reading (or removed). */
export function withCatalogueVersion(headers: Headers, version: string | null): Headers {
  const forwarded = new Headers(headers);
  forwarded.delete(CATALOGUE_VERSION_HEADER);
  if (version !== null) forwarded.set(CATALOGUE_VERSION_HEADER, version);
  return forwarded;
}
