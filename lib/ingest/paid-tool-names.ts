// The tools an upstream entry names as paid, read as untrusted text: an x402 discovery entry's tool (`toolName`, or
// `tool` as the Bazaar specification's text spells it), and a registry entry's `_meta["dev.agora-mcp/paid-tools"]`
// (a list of tool names, or of objects with a `name`) in server.json's own `_meta` or inside the official registry's
// publisher-provided block, where a publisher's own metadata goes (Agora's own entries carry it too). A name is a
// claim, not a command: the probe calls a named tool unpaid only when the server lists a tool of exactly that name,
// to read the price it asks.
import { REGISTRY_PAID_TOOLS_META } from "@agora-mcp/protocol";
import type { UpstreamPaidTool } from "@/db/schema";
import { visibleText } from "./text";

const PUBLISHER_META_KEY = "io.modelcontextprotocol.registry/publisher-provided";
/** Names kept per server: the probe reads at most 20 paid tools; the rest is room for names the server does not list. */
export const MAX_NAMED_TOOLS = 50;
/** MCP names a tool in at most 128 characters. */
const MAX_TOOL_NAME = 128;

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A tool name as an upstream wrote it, or null when it cannot be one (empty, too long, or with invisible characters). */
export function upstreamToolName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const name = value.trim();
  if (name.length === 0 || name.length > MAX_TOOL_NAME || visibleText(name) !== name) return null;
  return name;
}

/** Each name once, in order, at most MAX_NAMED_TOOLS, with the reason Agora gives the probe for calling it. */
export function namedPaidTools(names: Iterable<string | null>, reason: UpstreamPaidTool["reason"]): UpstreamPaidTool[] {
  const unique = new Set<string>();
  for (const name of names) {
    if (unique.size >= MAX_NAMED_TOOLS) break;
    if (name) unique.add(name);
  }
  return [...unique].map((name) => ({ name, reason }));
}

/** The paid tools a registry entry's server.json `_meta` names (none when it says nothing, or nothing readable). */
export function registryPaidTools(serverMeta: Record<string, unknown> | undefined): UpstreamPaidTool[] {
  const lists = [
    serverMeta?.[REGISTRY_PAID_TOOLS_META],
    record(serverMeta?.[PUBLISHER_META_KEY])?.[REGISTRY_PAID_TOOLS_META],
  ];
  const names = lists
    .flatMap((list) => (Array.isArray(list) ? list.slice(0, MAX_NAMED_TOOLS) : []))
    .map((v) => upstreamToolName(record(v)?.name ?? v));
  return namedPaidTools(names, "registry");
}
