// The submit form's "Read the server's tools": the server's tools/list and nothing more. No tool is called, so a
// free tool never runs and a paid one is never asked; each tool comes back with what its listing says about price.
import { paidSignal, Quirks, type PaidSignal } from "@agora-mcp/protocol";
import type { Lookup } from "@/lib/ssrf";
import type { ProbeFailure } from "./probe-errors";
import { listTools, runSession } from "./run";

export const TOOL_LIST_TIMEOUT_MS = 10_000;

export type ListedToolSignal = { name: string; description: string | null; paidSignal: PaidSignal | null };
export type ToolListReading = { ok: true; tools: ListedToolSignal[] } | { ok: false; failure: ProbeFailure };

/** Lists the tools of the MCP server at `url` through the SSRF-safe fetch, within TOOL_LIST_TIMEOUT_MS. Never throws. */
export async function readToolList(
  url: string,
  options: { allowPrivateHosts?: boolean; lookup?: Lookup; timeoutMs?: number } = {},
): Promise<ToolListReading> {
  let tools: ListedToolSignal[] = [];
  const failure = await runSession(
    url,
    { ...options, timeoutMs: options.timeoutMs ?? TOOL_LIST_TIMEOUT_MS },
    new Quirks(),
    async (session, run) => {
      const listed = await listTools(session, run.request);
      tools = listed.map((t) => ({ name: t.name, description: t.description, paidSignal: paidSignal(t) ?? null }));
    },
  );
  return failure ? { ok: false, failure } : { ok: true, tools };
}
