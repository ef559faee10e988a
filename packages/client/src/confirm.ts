// Asking the person before a purchase at or above the threshold, in whatever the host can do:
// - a 2026-07-28 host that handles elicitation: the purchase call answers `input_required` (the question in an
//   elicitation request, and a `requestState` sealed over exactly that purchase); the host asks and retries;
// - a 2025 host that handles elicitation: MCP elicitation/create, as before;
// - a host with neither: a one-time confirmation id that a second purchase call must carry.
// The model cannot answer an elicitation; the person does.
import { randomBytes } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";

const CONFIRMATION_TTL_MS = 10 * 60_000;

export type Decision =
  | { kind: "accepted" }
  | { kind: "declined" }
  | { kind: "confirmation-required"; confirmationId: string; expiresAt: string };

/** The price and payee a person was shown when they confirmed a purchase. */
export type ConfirmedTerms = { units: bigint; payTo: string };

/** Pending one-time confirmations, each bound to exactly one purchase (its key) and the terms the person was shown. */
export class Confirmations {
  private readonly pending = new Map<string, { key: string; expires: number; terms?: ConfirmedTerms }>();

  issue(key: string, terms?: ConfirmedTerms): { confirmationId: string; expiresAt: string } {
    const confirmationId = `conf_${randomBytes(12).toString("hex")}`;
    const expires = Date.now() + CONFIRMATION_TTL_MS;
    this.pending.set(confirmationId, { key, expires, ...(terms ? { terms } : {}) });
    return { confirmationId, expiresAt: new Date(expires).toISOString() };
  }

  /** True once for a live id issued for this very purchase; the id is spent either way. */
  redeem(confirmationId: string, key: string): boolean {
    return this.take(confirmationId, key) !== undefined;
  }

  /** A live id issued for this very purchase, with the terms it was confirmed on; the id is spent either way. */
  take(confirmationId: string, key: string): { terms?: ConfirmedTerms } | undefined {
    const entry = this.pending.get(confirmationId);
    this.pending.delete(confirmationId);
    return entry && entry.expires > Date.now() && entry.key === key ? entry : undefined;
  }
}

/** What a purchase confirmation is for: the very purchase, as read from the server on this call. */
export type Quote = { server: string; item: string; units: string; payTo: string; params: string };
type SealedQuote = { quote: Quote; nonce: string };

/**
 * The purchase confirmation's requestState: the quote and a nonce under HMAC-SHA256 with an expiry (the SDK's codec),
 * keyed by a random key of this client process, and spent on first use. The SDK verifies the seal and the expiry
 * before the tool runs (anything forged, altered or expired is refused there, with "Invalid or expired requestState");
 * the purchase then checks the quote against what it is about to pay, and spends the nonce.
 */
export class ConfirmationStates {
  private readonly codec = createRequestStateCodec<SealedQuote>({
    key: randomBytes(32),
    ttlSeconds: CONFIRMATION_TTL_MS / 1000,
    // Only a tools/call may bring it back (the quote names the purchase itself).
    bind: (ctx) => ctx.mcpReq.method,
  });
  private readonly spent = new Map<string, number>();

  readonly verify = (state: string, ctx: ServerContext): Promise<SealedQuote> => this.codec.verify(state, ctx);

  mint(quote: Quote, ctx: ServerContext): Promise<string> {
    return this.codec.mint({ quote, nonce: randomBytes(16).toString("hex") }, ctx);
  }

  /** True the first time a nonce is presented; an expired state never reaches here (the codec refuses it). */
  spend(nonce: string): boolean {
    const now = Date.now();
    for (const [n, until] of this.spent) if (until < now) this.spent.delete(n);
    if (this.spent.has(nonce)) return false;
    this.spent.set(nonce, now + CONFIRMATION_TTL_MS + 60_000);
    return true;
  }
}

/** How this call's host can be asked. */
export type Asker =
  | { kind: "input-required"; ctx: ServerContext; states: ConfirmationStates }
  | { kind: "elicitation"; server: Server }
  | { kind: "confirmation-id" };

/** The host's era and capabilities, read from this very request (2026-07-28) or the session's handshake (2025). */
export function askerFor(server: Server, ctx: ServerContext, states: ConfirmationStates): Asker {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) {
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    return capabilities?.elicitation ? { kind: "input-required", ctx, states } : { kind: "confirmation-id" };
  }
  return supportsElicitation(server) ? { kind: "elicitation", server } : { kind: "confirmation-id" };
}

/**
 * Whether elicitation/create can be sent: a 2025 session whose host declared form elicitation. A 2026-07-28 request
 * has no server-to-client requests (review falls back to its confirmation id there).
 */
export function supportsElicitation(server: Server): boolean {
  const era = server.getNegotiatedProtocolVersion();
  return (era === undefined || era < "2026-07-28") && !!server.getClientCapabilities()?.elicitation?.form;
}

const APPROVE_SCHEMA = (choice: { title: string; description: string }) => ({
  type: "object" as const,
  properties: { approve: { type: "boolean" as const, title: choice.title, description: choice.description } },
  required: ["approve"],
});

/** Asks through elicitation/create; anything but an explicit yes is a no. `choice` names the yes (a payment by default). */
export async function askPerson(
  server: Server,
  message: string,
  choice = { title: "Pay", description: "Approve this payment" },
): Promise<"accepted" | "declined"> {
  const answer = await server.elicitInput(
    { mode: "form", message, requestedSchema: APPROVE_SCHEMA(choice) },
    { timeout: 10 * 60_000 },
  );
  return answer.action === "accept" && answer.content?.approve === true ? "accepted" : "declined";
}

export type InBand =
  | { kind: "accepted" }
  | { kind: "declined" }
  | { kind: "ask"; result: InputRequiredResult }
  | { kind: "refused"; reason: string };

const sameQuote = (a: Quote, b: Quote) =>
  a.server === b.server &&
  a.item === b.item &&
  a.units === b.units &&
  a.payTo.toLowerCase() === b.payTo.toLowerCase() &&
  a.params === b.params;

/**
 * The 2026-07-28 way: the first call answers input_required; the retry carries the person's answer and the sealed
 * quote, which must be this very purchase (same server, item, params, price and payee), and unused.
 */
export async function confirmInBand(
  asker: Extract<Asker, { kind: "input-required" }>,
  quote: Quote,
  question: string,
): Promise<InBand> {
  const { ctx, states } = asker;
  const sealed = ctx.mcpReq.requestState<SealedQuote>();
  const responses = ctx.mcpReq.inputResponses;
  if (sealed === undefined) {
    if (responses && Object.keys(responses).length)
      return {
        kind: "refused",
        reason:
          "The call carries answers but no requestState: retry with the requestState the confirmation request came with.",
      };
    const requestState = await states.mint(quote, ctx);
    return {
      kind: "ask",
      result: inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            mode: "form",
            message: question,
            requestedSchema: APPROVE_SCHEMA({ title: "Pay", description: "Approve this payment" }),
          }),
        },
        requestState,
      }),
    };
  }
  if (typeof sealed !== "object" || !sealed.quote || !sameQuote(sealed.quote, quote)) {
    return {
      kind: "refused",
      reason:
        "The confirmation was given for another purchase (another server, item, parameters, price or payee): ask again for this one.",
    };
  }
  if (!states.spend(sealed.nonce))
    return { kind: "refused", reason: "This confirmation was used already: each one pays for one purchase only." };
  const answer = inputResponse(responses, "confirm");
  if (answer.kind !== "elicit")
    return {
      kind: "refused",
      reason: 'The retried call does not answer the confirmation request (no elicitation result under "confirm").',
    };
  return answer.action === "accept" && answer.content?.approve === true ? { kind: "accepted" } : { kind: "declined" };
}
