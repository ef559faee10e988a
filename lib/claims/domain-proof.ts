// Reads what a domain publishes for a claim: the file at https://<domain>/.well-known/agora-claim (200, no
// redirects, at most 4 KB, 10 s, through the SSRF guard) or the TXT records at the domain's apex; and, for a claim by
// a server's host, the same file on the server's own origin. Each answer is the tokens found, or the precise reason
// none could be read.
import dns from "node:dns";
import { createSafeFetch, findSafeFetchError, type Lookup } from "@/lib/ssrf";
import { publishedTokens } from "./tokens";

export type ClaimMethod = "well-known" | "dns";

export type DomainProofOptions = {
  /** DNS for the file's host (tests answer it locally). */
  lookup?: Lookup;
  /** Reach loopback and private networks; defaults to PROBE_ALLOW_PRIVATE_HOSTS. */
  allowPrivateHosts?: boolean;
  /** TXT lookups (tests answer them from a DNS server on loopback). */
  resolveTxt?: (hostname: string) => Promise<string[][]>;
  /**
   * Where the domain's site is; https://<domain> (a server's own origin, for a host claim) everywhere but in tests,
   * which serve plain HTTP on a port.
   */
  origin?: (domain: string) => string;
};

const WELL_KNOWN_PATH = "/.well-known/agora-claim";
const WELL_KNOWN_MAX_BYTES = 4096;
const TIMEOUT_MS = 10_000;

type Published = { ok: true; tokens: string[]; where: string } | { ok: false; message: string };

export function wellKnownUrl(domain: string, options: DomainProofOptions = {}): string {
  return `${options.origin?.(domain) ?? `https://${domain}`}${WELL_KNOWN_PATH}`;
}

/** The claim file a server's host publishes: on the server's own origin (scheme, host and port). */
export function hostWellKnownUrl(origin: string, host: string, options: DomainProofOptions = {}): string {
  return `${options.origin?.(host) ?? origin}${WELL_KNOWN_PATH}`;
}

function readWellKnown(domain: string, options: DomainProofOptions = {}): Promise<Published> {
  return readWellKnownAt(wellKnownUrl(domain, options), domain, options);
}

/** The claim records of the file at `url` (`domain`: its host, for the messages). */
export async function readWellKnownAt(
  url: string,
  domain: string,
  options: DomainProofOptions = {},
): Promise<Published> {
  const fetch = createSafeFetch({
    lookup: options.lookup,
    allowPrivateHosts: options.allowPrivateHosts,
    timeoutMs: TIMEOUT_MS,
    maxBytes: WELL_KNOWN_MAX_BYTES,
    maxRedirects: 0,
  });
  try {
    const res = await fetch(url, {
      redirect: "manual",
      headers: { Accept: "text/plain", "User-Agent": "agora-claim-check" },
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => {});
      return {
        ok: false,
        message: `${url} answered with a redirect (${res.status}). Serve the file there directly: redirects are not followed.`,
      };
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, message: `${url} answered ${res.status}. It must answer 200 with the claim record.` };
    }
    const tokens = publishedTokens(await res.text());
    if (tokens.length === 0)
      return { ok: false, message: `${url} does not contain an Agora claim record (agora-claim=…).` };
    return { ok: true, tokens, where: url };
  } catch (error) {
    const refused = findSafeFetchError(error);
    switch (refused?.code) {
      case "response_too_large":
        return { ok: false, message: `${url} is larger than 4 KB. Serve only the claim record.` };
      case "timeout":
        return { ok: false, message: `${url} did not answer within 10 seconds.` };
      case "blocked_address":
        return { ok: false, message: `${url} was not fetched: ${domain} resolves to a private or reserved address.` };
      case "dns_failure":
        return { ok: false, message: `${url} was not fetched: ${domain} could not be resolved.` };
      default:
        return { ok: false, message: `${url} could not be fetched (${refused?.message ?? "connection failed"}).` };
    }
  } finally {
    await fetch.close();
  }
}

const systemResolveTxt = (hostname: string) =>
  new dns.promises.Resolver({ timeout: 5_000, tries: 2 }).resolveTxt(hostname);

async function readTxtRecords(domain: string, options: DomainProofOptions = {}): Promise<Published> {
  const missing = {
    ok: false as const,
    message: `No TXT record at ${domain} carries an Agora claim record (agora-claim=…).`,
  };
  let records: string[][];
  try {
    records = await (options.resolveTxt ?? systemResolveTxt)(domain);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // No such name, or a name without TXT records: nothing is published.
    if (code === dns.NODATA || code === dns.NOTFOUND) return missing;
    return { ok: false, message: `The TXT records of ${domain} could not be read${code ? ` (${code})` : ""}.` };
  }
  // A record longer than 255 bytes arrives as several strings: joined, they are the record.
  const tokens = [...new Set(records.slice(0, 50).flatMap((chunks) => publishedTokens(chunks.join(""))))].slice(0, 5);
  return tokens.length ? { ok: true, tokens, where: `the TXT records of ${domain}` } : missing;
}

export function readPublished(
  method: ClaimMethod,
  domain: string,
  options: DomainProofOptions = {},
): Promise<Published> {
  return method === "dns" ? readTxtRecords(domain, options) : readWellKnown(domain, options);
}
