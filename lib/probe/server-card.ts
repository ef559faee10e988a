// A server's own MCP Server Card (SEP-2127), when it publishes one: read through the run's SSRF-safe fetch, then
// compared with what the server itself answered. The card is advisory (the SEP says clients must prefer the live
// answer), so a difference is a finding for the provider and the reviewer, never a failure of the check.
import { z } from "zod";
import type { Quirks } from "@agora-mcp/protocol";
import type { FetchLike } from "@/lib/ssrf";

// A card is a few kilobytes; a server that answers more at these addresses is not serving one.
const CARD_MAX_CHARS = 64 * 1024;
// Each address gets this long (all are asked at once), inside the probe's own deadline.
const CARD_TIMEOUT_MS = 3_000;
// The capabilities a card and a server both name, compared by presence.
const CAPABILITIES = ["tools", "prompts", "resources", "logging", "completions"] as const;

/** What of a card the probe compares; everything else in it is left alone. */
const cardSchema = z.looseObject({
  name: z.string().max(200).optional(),
  version: z.string().max(255).optional(),
  remotes: z
    .array(
      z.looseObject({
        type: z.string().max(40),
        url: z.string().max(2000),
        supportedProtocolVersions: z.array(z.string().max(40)).max(50).optional(),
      }),
    )
    .max(50)
    .optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
});
type ReadCard = z.infer<typeof cardSchema>;

/** What the server answered, the other side of the comparison. */
export type Observed = {
  url: string;
  serverName: string | null;
  serverVersion: string | null;
  transport: "streamable-http" | "sse" | null;
  protocolVersion: string | null;
  capabilities: Record<string, unknown> | undefined;
};

/**
 * Where a server's card may be, in the order they are believed: the location SEP-2127 reserves next to the
 * endpoint (`<endpoint>/server-card`), then the two `.well-known` spellings in use on the endpoint's origin.
 */
export function cardLocations(serverUrl: string): string[] {
  const url = new URL(serverUrl);
  const endpoint = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  return [
    `${endpoint}/server-card`,
    `${url.origin}/.well-known/mcp/server-card.json`,
    `${url.origin}/.well-known/mcp/server-card`,
  ];
}

async function fetchCard(
  fetch: FetchLike,
  location: string,
): Promise<{ location: string; card: ReadCard | null } | null> {
  try {
    const res = await fetch(location, {
      headers: { accept: "application/mcp-server-card+json, application/json" },
      signal: AbortSignal.timeout(CARD_TIMEOUT_MS),
    });
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    const text = await res.text();
    const type = res.headers.get("content-type") ?? "";
    // A page that answers every path (an HTML 200) is no card and no finding.
    if (!/json/i.test(type) && !text.trimStart().startsWith("{")) return null;
    if (text.length > CARD_MAX_CHARS) return { location, card: null };
    const parsed = cardSchema.safeParse(JSON.parse(text));
    return { location, card: parsed.success ? parsed.data : null };
  } catch (error) {
    // Unparsable JSON is a card that cannot be read; a refusal, a timeout or a reset is no card.
    return error instanceof SyntaxError ? { location, card: null } : null;
  }
}

/** The first card found at the locations, read; null when the server publishes none. Never throws. */
async function readServerCard(
  fetch: FetchLike,
  serverUrl: string,
): Promise<{ location: string; card: ReadCard | null } | null> {
  const found = await Promise.all(cardLocations(serverUrl).map((location) => fetchCard(fetch, location)));
  return found.find((f) => f !== null) ?? null;
}

const sameUrl = (a: string, b: string) => {
  const norm = (u: string) => (URL.canParse(u) ? new URL(u).href.replace(/\/+$/, "") : u);
  return norm(a) === norm(b);
};

/** The name a card gives matches the server's when equal, or when it is the card's reverse-DNS name's last part. */
function sameName(card: string, server: string): boolean {
  const c = card.toLowerCase();
  const s = server.toLowerCase();
  return c === s || c.slice(c.lastIndexOf("/") + 1) === s;
}

/** Each way the card contradicts the live server, as a sentence; empty when they agree. */
export function cardDifferences(card: ReadCard, observed: Observed): string[] {
  const found: string[] = [];
  if (card.name && observed.serverName && !sameName(card.name, observed.serverName)) {
    found.push(`names the server \`${card.name}\`; the server calls itself \`${observed.serverName}\``);
  }
  if (card.version && observed.serverVersion && card.version !== observed.serverVersion) {
    found.push(`says version ${card.version}; the server answers ${observed.serverVersion}`);
  }
  if (card.remotes) {
    const remote = card.remotes.find((r) => sameUrl(r.url, observed.url));
    if (!remote) found.push(`lists no remote at ${observed.url}`);
    else {
      if (observed.transport && remote.type !== observed.transport)
        found.push(`offers ${observed.url} over ${remote.type}; the server answered over ${observed.transport}`);
      const versions = remote.supportedProtocolVersions;
      if (versions?.length && observed.protocolVersion && !versions.includes(observed.protocolVersion)) {
        found.push(`lists protocol versions ${versions.join(", ")}; the server spoke ${observed.protocolVersion}`);
      }
    }
  }
  if (card.capabilities && observed.capabilities) {
    const declared = CAPABILITIES.filter((c) => card.capabilities![c] !== undefined);
    const answered = CAPABILITIES.filter((c) => observed.capabilities![c] !== undefined);
    const onlyCard = declared.filter((c) => !answered.includes(c));
    const onlyServer = answered.filter((c) => !declared.includes(c));
    if (onlyCard.length) found.push(`declares ${onlyCard.join(", ")}, which the server does not offer`);
    if (onlyServer.length) found.push(`omits ${onlyServer.join(", ")}, which the server offers`);
  }
  return found;
}

/** Reads the server's card and adds what differs (or that it cannot be read) to the probe's findings. Never throws. */
export async function checkServerCard(fetch: FetchLike, observed: Observed, quirks: Quirks): Promise<void> {
  const read = await readServerCard(fetch, observed.url);
  if (!read) return;
  if (!read.card) {
    quirks.add(`server card at ${read.location} is not a readable card`);
    return;
  }
  for (const difference of cardDifferences(read.card, observed))
    quirks.add(`server card at ${read.location} ${difference}`);
}
