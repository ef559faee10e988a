// close_channel: closes the wallet's payment channel with a server (x402 batch-settlement): what the calls did not use
// comes back, the calls paid are claimed for the payee in the same transaction (purchase/close.ts).
import { z } from "zod";
import { closeChannel } from "../purchase/close.js";
import { answer, guarded, type ToolDeps } from "./answer.js";

export function registerCloseChannel({ mcp, settings, wallet, ledger, chain }: ToolDeps): void {
  mcp.registerTool(
    "close_channel",
    {
      title: "Close a payment channel",
      description:
        "Closes this wallet's payment channel with a server whose item is paid through channels (x402 batch-settlement): the rest of the deposit comes back to the wallet, checked on chain. Charges nothing.",
      inputSchema: {
        server: z.string().min(1).max(500).describe("Registry id or slug, or a URL with direct access on"),
        item: z.string().min(1).max(200).describe("The channel item's id, or its paid tool's name"),
        params: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("The item's parameters, as for purchase (the tool runs nothing)"),
      },
      outputSchema: {
        status: z.enum(["closed", "nothing", "failed"]),
        message: z.string(),
        refundedUsd: z.string().optional(),
        transaction: z.string().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    guarded(
      wallet,
      "close_channel",
      async (args: { server: string; item: string; params?: Record<string, unknown> }) => {
        const outcome = await closeChannel(args, { settings, wallet, ledger, chain });
        return answer(
          wallet,
          outcome.message,
          outcome as unknown as Record<string, unknown>,
          outcome.status === "failed",
        );
      },
    ),
  );
}
