// Which server a call means: a registry listing (by id or slug), or, only with ENABLE_UNSAFE_DIRECT_ACCESS,
// any http(s) URL.
import { RegistryError, findListing } from "./registry.js";
import type { Settings } from "./settings.js";

export type ResolvedServer = { url: string; label: string; listed: boolean };

export async function resolveServer(key: string, settings: Settings): Promise<{ ok: true; server: ResolvedServer } | { ok: false; reason: string }> {
  const text = key.trim();
  if (/^https?:\/\//i.test(text)) {
    if (!settings.directAccess) {
      return { ok: false, reason: `${text.slice(0, 200)} is a URL, not a registry listing. Servers outside the registry need ENABLE_UNSAFE_DIRECT_ACCESS=true. Nothing was signed.` };
    }
    try {
      return { ok: true, server: { url: new URL(text).toString(), label: text, listed: false } };
    } catch {
      return { ok: false, reason: `Not a URL: ${text.slice(0, 200)}` };
    }
  }
  try {
    const listing = await findListing(settings.registryUrl, text);
    return { ok: true, server: { url: listing.serverUrl, label: listing.name, listed: true } };
  } catch (error) {
    if (error instanceof RegistryError) return { ok: false, reason: `${error.message} Nothing was signed.` };
    throw error;
  }
}
