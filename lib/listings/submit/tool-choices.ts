// "Which tools charge?": the submit and edit forms' checklist, from the server's own tools/list (read, never called).
import type { Db } from "@/db/types";
import { ApiError } from "@/lib/errors";
import { readToolList, type ListedToolSignal } from "@/lib/probe";
import { MAKE_PURCHASE_TOOL, PAYMENT_METHODS_TOOLS, PRICE_LISTING_TOOLS } from "@/lib/probe/types";
import { limits } from "@/lib/rate-limit";
import { paidToolNameProblem } from "@/lib/validations/paid-tools";
import { admitSubmission } from "./submit-server";

/** The most tools the checklist shows (a server's tools/list may run to pages). */
const MAX_TOOL_CHOICES = 100;

/**
 * One row of the checklist. `markedPaid`: the server's tools/list already says it is paid (Agora reads its price
 * without being told; shown checked and disabled). `unnameable`: why its name cannot be named as paid, if it cannot.
 */
export type ToolChoice = { name: string; description: string | null; markedPaid: boolean; unnameable: string | null };
export type ToolChoices = { tools: ToolChoice[]; cut: boolean };

// MonetizedMCP's own tools are read as a price listing, never as tools paid per call.
const MONETIZED_TOOLS = new Set<string>([...PRICE_LISTING_TOOLS, ...PAYMENT_METHODS_TOOLS, MAKE_PURCHASE_TOOL]);

/** The checklist rows for a server's listed tools (its MonetizedMCP tools left out), the first MAX_TOOL_CHOICES. */
function toolChoices(listed: ListedToolSignal[]): ToolChoices {
  const tools = listed.filter((t) => !MONETIZED_TOOLS.has(t.name));
  return {
    tools: tools.slice(0, MAX_TOOL_CHOICES).map((t) => ({
      name: t.name,
      description: t.description === null ? null : t.description.slice(0, 300),
      markedPaid: t.paidSignal !== null,
      unnameable: paidToolNameProblem(t.name),
    })),
    cut: tools.length > MAX_TOOL_CHOICES,
  };
}

/**
 * Reads the tools/list of the server at `mcpServerUrl` for `userId`'s form: a URL this deployment may list, within
 * the user's hourly allowance; 502 with the probe's fixed sentence when the server cannot be read.
 */
export async function readToolChoices(
  db: Db,
  userId: string,
  mcpServerUrl: string,
  options: { allowPrivateHosts?: boolean } = {},
): Promise<ToolChoices> {
  // The submission's own URL rule, counted against the tool-list allowance rather than the day's submissions.
  await admitSubmission(db, userId, { mcpServerUrl }, limits.toolListsPerUser);
  const reading = await readToolList(mcpServerUrl, options);
  if (!reading.ok)
    throw new ApiError(502, `Agora could not read the server's tools: ${reading.failure.message}`, {
      code: "upstream_failed",
    });
  return toolChoices(reading.tools);
}
