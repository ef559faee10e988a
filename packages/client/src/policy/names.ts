// How the policy's lists compare what they name. A server entry is a listing's id, slug or name, a host, or a URL;
// hosts compare as DNS does (any case, a trailing dot, an IDN as its punycode) and whatever the port, so
// "evil.example.", "EVIL.example" or "evil.example:8443" cannot slip past a deny-list naming "evil.example". A URL
// names that one endpoint (normalised the same way). Payees are addresses, compared whatever their case.
import { sameAddress } from "@agora-mcp/protocol";

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const bareHost = (hostname: string) => hostname.replace(/\.+$/, "");

/** The host a bare entry ("evil.example", "evil.example.:8443") names, lowercase and without port; none for a name such as "Weather Now". */
function hostOf(text: string): string | undefined {
  try {
    const url = new URL(`http://${text}`);
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) return undefined;
    return bareHost(url.hostname) || undefined;
  } catch {
    return undefined;
  }
}

/** A URL as the lists compare it: the host normalised, the default port and trailing slashes dropped. */
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const urlKey = (url: URL) =>
  `url:${url.protocol}//${bareHost(url.hostname)}${url.port ? `:${url.port}` : ""}${url.pathname.replace(/\/+$/, "")}${url.search}`;

/** What one list entry matches. */
function entryKeys(entry: string): string[] {
  const text = entry.trim();
  if (SCHEME.test(text)) {
    const url = urlOf(text);
    return url ? [urlKey(url)] : [`name:${text.toLowerCase()}`];
  }
  const host = hostOf(text);
  return [`name:${text.toLowerCase()}`, ...(host ? [`host:${host}`] : [])];
}

/** Everything a server answers to: each of its names, and for a URL both the URL and its host. */
function serverKeys(names: string[]): Set<string> {
  const keys = new Set<string>();
  for (const name of names) {
    const url = SCHEME.test(name.trim()) ? urlOf(name.trim()) : undefined;
    if (url) {
      keys.add(urlKey(url));
      const host = bareHost(url.hostname);
      if (host) keys.add(`host:${host}`);
    } else {
      for (const key of entryKeys(name)) keys.add(key);
    }
  }
  return keys;
}

/** The first entry of a server list that names the server, if any. */
export function serverListed(list: string[], names: string[]): string | undefined {
  const keys = serverKeys(names);
  return list.find((entry) => entryKeys(entry).some((k) => keys.has(k)));
}

/** The first entry of a payee list that is this address, if any. */
export function payeeListed(list: string[], payTo: string): string | undefined {
  return list.find((entry) => sameAddress(entry, payTo));
}

/** An entry on both sides of a list (the same server or payee however written), if any. */
export function onBothSides(kind: "servers" | "payees", allow: string[], deny: string[]): string | undefined {
  return deny.find(
    (entry) =>
      (kind === "payees"
        ? payeeListed(allow, entry)
        : allow.find((a) => entryKeys(a).some((k) => entryKeys(entry).includes(k)))) !== undefined,
  );
}
