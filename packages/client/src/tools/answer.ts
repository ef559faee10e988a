// What every tool shares: the dependencies, the answer (text and structured, with the key redacted as a last line
// of defence) and the guard that turns a thrown error into one redacted line.
import type { CallToolResult, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ChainReader } from "../chain.js";
import type { ConfirmationStates, Confirmations } from "../confirm.js";
import type { Ledger } from "../ledger.js";
import type { Settings } from "../settings.js";
import type { Wallet } from "../wallet.js";

/**
 * `confirmations` and `confirmationStates` live as long as the process: a stdio host may be served by more than one
 * server instance (the SDK v2 builds one to answer server/discover), and a confirmation must outlive the call that issued it.
 */
export type ClientDeps = {
  settings: Settings;
  wallet: Wallet;
  ledger: Ledger;
  chain: ChainReader;
  confirmations?: Confirmations;
  confirmationStates?: ConfirmationStates;
};

/** What a tool is registered with: the client's dependencies, the confirmations resolved, and the MCP server itself. */
export type ToolDeps = Required<ClientDeps> & { mcp: McpServer };

export function answer(
  wallet: Wallet,
  text: string,
  structured: Record<string, unknown>,
  isError = false,
): CallToolResult {
  // Last line of defence: no answer may carry the key, whatever a server or library put in it.
  const safe = JSON.parse(wallet.redact(JSON.stringify(structured))) as Record<string, unknown>;
  return {
    content: [{ type: "text", text: wallet.redact(text) }],
    structuredContent: safe,
    ...(isError ? { isError: true } : {}),
  };
}

/** A handler that throws answers one redacted line instead of whatever the error carried. */
export function guarded<A, R = CallToolResult>(
  wallet: Wallet,
  tool: string,
  handler: (args: A, ctx: ServerContext) => Promise<R | CallToolResult>,
): (args: A, ctx: ServerContext) => Promise<R | CallToolResult> {
  return async (args, ctx) => {
    try {
      return await handler(args, ctx);
    } catch (error) {
      const line = error instanceof Error ? (error.message.split("\n")[0] ?? "").slice(0, 300) : "unknown error";
      return { isError: true, content: [{ type: "text", text: wallet.redact(`${tool} failed: ${line}`) }] };
    }
  };
}

export const CONFIRMATION_ID = z
  .string()
  .max(100)
  .optional()
  .describe("Only when a previous call answered confirmation-required and the person said yes");
/** What review and revoke_review answer; `done` is the status of a review posted or withdrawn. */
export function reviewOutput(done: "posted" | "revoked") {
  return {
    status: z.enum([done, "confirmation-required", "declined", "refused"]),
    message: z.string(),
    server: z.string().optional(),
    transaction: z.string().optional(),
    reviewId: z.string().optional(),
    confirmationId: z.string().optional(),
  };
}

/** What review and revoke_review share: the review module's dependencies, and its outcome as a tool answer. */
export function reviewTool({ mcp, settings, wallet, ledger, confirmations }: ToolDeps) {
  return {
    deps: { settings, wallet, ledger, confirmations, mcp: mcp.server },
    answer: (outcome: { status: string; message: string }) =>
      answer(wallet, outcome.message, outcome as unknown as Record<string, unknown>, outcome.status === "refused"),
  };
}
