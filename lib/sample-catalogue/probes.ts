// The sample catalogue's reference listings: they point at a reference MonetizedMCP server on loopback
// (`npx tsx examples/monetized-server/index.ts` serves one on the default address) and are probed for
// real when it answers, so a first run shows listings that earned 'Verified' beside ones that did not.
import { slugify } from "@/lib/listings/slug";
import type { ProbeOptions } from "@/lib/probe";
import { probeListingServer } from "@/lib/listings/checks/probe-listing";
import { sampleCatalogue } from "./catalogue";
import { recordCheck } from "@/lib/listings/checks/drift";
import { findListingTargets, moveListingBySlug } from "@/db/queries/listings";
import type { Db } from "@/db/types";

export const SAMPLE_REFERENCE_SERVER_URL = "http://127.0.0.1:8080/mcp";

/** Each reference listing needs its own URL (server URLs are unique): the same server, told apart by a query. */
export function sampleReferenceUrl(base: string, name: string): string {
  const url = new URL(base);
  url.searchParams.set("sample", slugify(name));
  return url.toString();
}

// Oldest first: the reference listings share one payee, and a wallet's sales go to the listing whose approved terms
// took it in first (lib/sales/payees.ts), which for listings approved before any check is the first one checked.
const referenceSlugs = sampleCatalogue
  .filter((s) => s.reference)
  .sort((a, b) => b.ageDays - a.ageDays)
  .map((s) => slugify(s.name));

/**
 * Probes the reference listings and records what answers. A server not up yet is retried (`attempts`
 * times, a second apart); one that never answers leaves its listings unverified. Returns how many verified.
 */
export async function probeSampleListings(db: Db, options: ProbeOptions & { attempts?: number } = {}): Promise<number> {
  let verified = 0;
  for (const slug of referenceSlugs) {
    const [target] = await findListingTargets(db, [slug]);
    if (!target) continue;
    let result = await probeListingServer(target, options);
    for (let attempt = 1; !result.reachable && attempt < (options.attempts ?? 1); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      result = await probeListingServer(target, options);
    }
    const recorded = await recordCheck(db, target, result);
    if (recorded.listing?.verified) verified++;
  }
  return verified;
}

/** Where the sandbox parks the reference listings: a reserved name (RFC 2606) that is never looked up or reached. */
export const PARKED_REFERENCE_SERVER_URL = "https://reference.sample.example/mcp";

/**
 * Points the reference listings at `base`, however they were seeded before (another port, the default 8080):
 * whatever else listens at an old address is never probed, verified or test-bought in their name.
 */
export async function pointSampleListingsAt(db: Db, base: string): Promise<void> {
  for (const sample of sampleCatalogue.filter((s) => s.reference))
    await moveListingBySlug(db, slugify(sample.name), sampleReferenceUrl(base, sample.name));
}
