// Which server a call means: a registry listing (by id, slug, or the MCP URL it lists), or, only with
// ENABLE_UNSAFE_DIRECT_ACCESS, any other http(s) URL.
import { RegistryError, findListing, type ListedTerms } from "./registry.js";
import type { Settings } from "./settings.js";

/**
 * `names`: what a spending policy's server list may call it (the registry id, slug and name, the URL and its host).
 * `terms`: the price and payees its registry listing shows (none for a server reached by URL).
 * `listingId`: the registry's listing of the server, when it has one.
 */
export type ResolvedServer = {
  url: string;
  label: string;
  listed: boolean;
  names: string[];
  terms?: ListedTerms;
  listingId?: string;
};

const urlNames = (url: string) => [url, url.replace(/\/+$/, ""), new URL(url).host];

function listed(listing: Awaited<ReturnType<typeof findListing>>): ResolvedServer {
  return {
    url: listing.serverUrl,
    label: listing.name,
    listed: true,
    names: [listing.id, listing.slug, listing.name, ...urlNames(listing.serverUrl)],
    terms: listing.terms,
    listingId: listing.id,
  };
}

/** The registry's listing of a server, or null when it has none (or the registry cannot say). */
async function listingOf(settings: Settings, key: string): Promise<ResolvedServer | null> {
  if (!settings.registryUrl) return null;
  try {
    const listing = await findListing(settings.registryUrl, key);
    return listed(listing);
  } catch (error) {
    if (error instanceof RegistryError) return null;
    throw error;
  }
}

export async function resolveServer(
  key: string,
  settings: Settings,
): Promise<{ ok: true; server: ResolvedServer } | { ok: false; reason: string }> {
  const text = key.trim();
  if (/^https?:\/\//i.test(text)) {
    // A URL the registry lists is that listing: its terms name the paid tools a silent server's tools/list does not,
    // and the spending policy knows it by its name. Only a URL the registry does not list needs direct access.
    const listed = await listingOf(settings, text).catch(() => null);
    if (listed) return { ok: true, server: listed };
    if (!settings.directAccess) {
      return {
        ok: false,
        reason: `${text.slice(0, 200)} is a URL, not a registry listing. Servers outside the registry need ENABLE_UNSAFE_DIRECT_ACCESS=true. Nothing was signed.`,
      };
    }
    try {
      return {
        ok: true,
        server: {
          url: new URL(text).toString(),
          label: text,
          listed: false,
          names: urlNames(new URL(text).toString()),
        },
      };
    } catch {
      return { ok: false, reason: `Not a URL: ${text.slice(0, 200)}` };
    }
  }
  try {
    const listing = await findListing(settings.registryUrl, text);
    return { ok: true, server: listed(listing) };
  } catch (error) {
    if (error instanceof RegistryError) return { ok: false, reason: `${error.message} Nothing was signed.` };
    throw error;
  }
}
