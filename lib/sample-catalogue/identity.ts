// How a sample listing is recognised wherever it is stored: by the server URL the seed gave it. Surfaces that
// must never show made-up offers (x402 discovery) leave these out.
import { slugify } from "@/lib/listings/slug";
import { sampleCatalogue, type SampleListing } from "./catalogue";

/** The made-up public address of a sample listing that is not served by the reference server. */
export function sampleServerUrl(sample: SampleListing): string {
  return `https://${sample.host}/mcp`;
}

/** Every made-up public address the sample catalogue seeds. */
export function sampleServerUrls(): string[] {
  return sampleCatalogue.filter((s) => !s.reference).map(sampleServerUrl);
}

/**
 * Matches the reference listings' URLs (`…/mcp?sample=<slug>` on whatever reference server they were seeded
 * against); slugs are lower-case letters, digits and hyphens, so they need no escaping.
 */
export const SAMPLE_SERVER_URL_PATTERN = `[?&]sample=(${sampleCatalogue
  .filter((s) => s.reference)
  .map((s) => slugify(s.name))
  .join("|")})(&|#|$)`;
