// The MCP bundle's zip, written the same way by the build (scripts/support/mcpb.ts) and by a server that rewrites
// the build's origin to its own (served.ts): fixed entry dates, so the same contents give the same bytes and digest.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";

const FIXED_DATE = new Date("2000-01-01T00:00:00Z");

export function zipBundle(entries: Record<string, Uint8Array>): Uint8Array {
  return zipSync(
    Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, [bytes, { mtime: FIXED_DATE }]])),
    { level: 9 },
  );
}

/** The bundle with `rewrite` applied to every entry's text (all of them are UTF-8: manifest, script, README). */
export function rewriteBundle(zip: Uint8Array, rewrite: (text: string) => string): Uint8Array {
  const entries = unzipSync(zip);
  return zipBundle(
    Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, strToU8(rewrite(strFromU8(bytes)))])),
  );
}
