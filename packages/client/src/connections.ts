// MCP client connections out of the wallet: to the registry's MCP endpoint, and to a paid server. On the SDK v2,
// either era: server/discover first (MCP 2026-07-28, no handshake), else the 2025 initialize handshake.
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type RequestOptions,
} from "@modelcontextprotocol/client";
import { toolsListAnswerSchema } from "@agora-mcp/protocol";
import { isUnreachable, reasonOf } from "./reach.js";

export const CALL_TIMEOUT_MS = 60_000;
export const CLIENT_INFO = { name: "agora-mcp-client", version: "0.1.0" };

export type Connection = {
  call: (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<CallToolResult>;
  /** tools/list as the server answers it now: each tool's name, description, `_meta` and annotations (where paid styles signal). */
  toolNames: () => Promise<ListedTool[]>;
  close: () => Promise<void>;
};

export type ListedTool = {
  name: string;
  description?: string;
  meta?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
};

export class ConnectionError extends Error {}

/**
 * How a connection reaches the server: a caller that buys from servers nobody vouches for (the registry's test
 * purchases) passes its own fetch (address-checked, size- and time-bounded) and a shorter call timeout.
 */
export type ConnectionOptions = {
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  callTimeoutMs?: number;
  /** Ends the connection's requests when aborted. */
  signal?: AbortSignal;
};

/** Connects to an MCP server over Streamable HTTP, runs `work`, and always closes. */
export async function withConnection<T>(
  url: string,
  work: (c: Connection) => Promise<T>,
  options: ConnectionOptions = {},
): Promise<T> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: "auto" } });
  const callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  const request = { timeout: callTimeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), options.fetch ? { fetch: options.fetch } : undefined),
      { ...request, timeout: Math.min(15_000, callTimeoutMs) },
    );
  } catch (error) {
    throw new ConnectionError(
      isUnreachable(error)
        ? `cannot reach ${url}: ${reasonOf(error)}`
        : `could not connect to ${url}: ${reasonOf(error)}`,
    );
  }
  const connection: Connection = {
    call: async (name, args, meta) =>
      (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, request)) as CallToolResult,
    toolNames: async () => listTools(client, request),
    close: () => client.close(),
  };
  try {
    return await work(connection);
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * tools/list read as the server sent it (toolsListAnswerSchema): the SDK's own listTools drops annotation keys the
 * specification does not name, and Vercel's x402-mcp and MCPay say a tool is paid in them (`annotations.paymentHint`).
 * At most MAX_TOOL_PAGES pages.
 */
const MAX_TOOL_PAGES = 10;

async function listTools(client: Client, request: RequestOptions): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const answer = await client.request(
      { method: "tools/list", params: cursor ? { cursor } : {} },
      toolsListAnswerSchema,
      request,
    );
    for (const t of answer.tools)
      tools.push({ name: t.name, description: t.description, meta: t._meta, annotations: t.annotations });
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** The text of a tool result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
