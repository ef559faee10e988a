// Which server a call means: a registry listing (by id or slug), or, only with ENABLE_UNSAFE_DIRECT_ACCESS,
// any http(s) URL.
import { RegistryError, findListing, type ListedTerms } from "./registry.js";
import type { Settings } from "./settings.js";

/**
 * `names`: what a spending policy's server list may call it (the registry id, slug and name, the URL and its host).
 * `terms`: the price and payees its registry listing shows (none for a server reached by URL).
 */
export type ResolvedServer = { url: string; label: string; listed: boolean; names: string[]; terms?: ListedTerms };

const urlNames = (url: string) => [url, url.replace(/\/+$/, ""), new URL(url).host];

export async function resolveServer(key: string, settings: Settings): Promise<{ ok: true; server: ResolvedServer } | { ok: false; reason: string }> {
  const text = key.trim();
  if (/^https?:\/\//i.test(text)) {
    if (!settings.directAccess) {
      return { ok: false, reason: `${text.slice(0, 200)} is a URL, not a registry listing. Servers outside the registry need ENABLE_UNSAFE_DIRECT_ACCESS=true. Nothing was signed.` };
    }
    try {
      return { ok: true, server: { url: new URL(text).toString(), label: text, listed: false, names: urlNames(new URL(text).toString()) } };
    } catch {
      return { ok: false, reason: `Not a URL: ${text.slice(0, 200)}` };
    }
  }
  try {
    const listing = await findListing(settings.registryUrl, text);
    return { ok: true, server: { url: listing.serverUrl, label: listing.name, listed: true, names: [listing.id, listing.slug, listing.name, ...urlNames(listing.serverUrl)], terms: listing.terms } };
  } catch (error) {
    if (error instanceof RegistryError) return { ok: false, reason: `${error.message} Nothing was signed.` };
    throw error;
  }
}
