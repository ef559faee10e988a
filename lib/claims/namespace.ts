// Who may claim an upstream name, by the official MCP Registry's namespace rules: `io.github.<login>/…` belongs to
// that GitHub account (or, for an organisation, to its owners); a reverse-DNS name `com.example/…` belongs to
// whoever controls example.com.
export type Namespace =
  { kind: "github"; namespace: string; account: string } | { kind: "domain"; namespace: string; domain: string };

/** GitHub logins and organisation names, as the registry accepts them. */
export const GITHUB_NAME = /^[a-zA-Z0-9-]{1,39}$/;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** What a namespace may be written with, before any case folding (the same rule as claimNamespaces' query). */
const NAMESPACE_CHARACTERS = /^[A-Za-z0-9.-]+$/;

/** The namespace of an upstream name (the part before the '/'), lower-cased; null when no rule can prove it. */
export function namespaceOf(upstreamName: string | null): Namespace | null {
  if (!upstreamName) return null;
  const slash = upstreamName.indexOf("/");
  if (slash <= 0) return null;
  const raw = upstreamName.slice(0, slash);
  // ASCII only, checked before lower-casing: Unicode folds some lookalikes to ASCII ("\u212A", KELVIN SIGN, to "k").
  if (!NAMESPACE_CHARACTERS.test(raw)) return null;
  const namespace = raw.toLowerCase();
  if (namespace.startsWith("io.github.")) {
    const account = namespace.slice("io.github.".length);
    return GITHUB_NAME.test(account) ? { kind: "github", namespace, account } : null;
  }
  const labels = namespace.split(".");
  if (labels.length < 2 || namespace.length > 253 || !labels.every((l) => DNS_LABEL.test(l))) return null;
  // The top-level label of a real domain is never all digits (which also keeps IP addresses out).
  if (/^\d+$/.test(labels[0]!)) return null;
  return { kind: "domain", namespace, domain: [...labels].reverse().join(".") };
}

/** The namespace a GitHub account (or organisation) name proves. */
export function githubNamespace(account: string): string {
  return `io.github.${account.toLowerCase()}`;
}

/** The host (lower-case, without a trailing dot) of a server URL; null when it is not a URL. */
export function hostOf(serverUrl: string): string | null {
  try {
    return new URL(serverUrl).hostname.toLowerCase().replace(/\.$/, "") || null;
  } catch {
    return null;
  }
}

/**
 * Whether a name's namespace covers a server's host: a domain namespace the hosts in its domain (com.example covers
 * example.com and api.example.com), a GitHub one only the account's own GitHub Pages host (<account>.github.io). Any
 * other host is someone else's as far as the name can tell: only the host itself can say the name speaks for it.
 */
export function coversHost(namespace: Namespace, host: string | null): boolean {
  if (!host) return false;
  if (namespace.kind === "github") return host === `${namespace.account}.github.io`;
  return host === namespace.domain || host.endsWith(`.${namespace.domain}`);
}
