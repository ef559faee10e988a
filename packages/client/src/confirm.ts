// Asking the person before a purchase at or above the threshold: MCP elicitation when the host supports it (the
// model cannot answer it), else a one-time confirmation id that a second purchase call must carry.
import { randomBytes } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";

const CONFIRMATION_TTL_MS = 10 * 60_000;

export type Decision = { kind: "accepted" } | { kind: "declined" } | { kind: "confirmation-required"; confirmationId: string; expiresAt: string };

/** Pending one-time confirmations, each bound to exactly one purchase (server, item, params, price). */
export class Confirmations {
  private readonly pending = new Map<string, { key: string; expires: number }>();

  issue(key: string): { confirmationId: string; expiresAt: string } {
    const confirmationId = `conf_${randomBytes(12).toString("hex")}`;
    const expires = Date.now() + CONFIRMATION_TTL_MS;
    this.pending.set(confirmationId, { key, expires });
    return { confirmationId, expiresAt: new Date(expires).toISOString() };
  }

  /** True once for a live id issued for this very purchase; the id is spent either way. */
  redeem(confirmationId: string, key: string): boolean {
    const entry = this.pending.get(confirmationId);
    this.pending.delete(confirmationId);
    return !!entry && entry.expires > Date.now() && entry.key === key;
  }
}

export function supportsElicitation(server: Server): boolean {
  return !!server.getClientCapabilities()?.elicitation?.form;
}

/** Asks through elicitation/create; anything but an explicit yes is a no. `choice` names the yes (a payment by default). */
export async function askPerson(server: Server, message: string, choice = { title: "Pay", description: "Approve this payment" }): Promise<"accepted" | "declined"> {
  const answer = await server.elicitInput(
    {
      mode: "form",
      message,
      requestedSchema: {
        type: "object",
        properties: { approve: { type: "boolean", title: choice.title, description: choice.description } },
        required: ["approve"],
      },
    },
    { timeout: 10 * 60_000 },
  );
  return answer.action === "accept" && answer.content?.approve === true ? "accepted" : "declined";
}
