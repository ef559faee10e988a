// MCP client connections out of the wallet: to the registry's MCP endpoint, and to a paid server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const CALL_TIMEOUT_MS = 60_000;
export const CLIENT_INFO = { name: "agora-mcp-client", version: "0.1.0" };

export type Connection = {
  call: (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<CallToolResult>;
  toolNames: () => Promise<{ name: string; description?: string; meta?: Record<string, unknown> }[]>;
  close: () => Promise<void>;
};

export class ConnectionError extends Error {}

/** Connects to an MCP server over Streamable HTTP, runs `work`, and always closes. */
export async function withConnection<T>(url: string, work: (c: Connection) => Promise<T>): Promise<T> {
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 15_000 });
  } catch (error) {
    throw new ConnectionError(`Could not connect to ${url}: ${(error as Error).message.split("\n")[0]!.slice(0, 200)}`);
  }
  const connection: Connection = {
    call: async (name, args, meta) =>
      (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, undefined, { timeout: CALL_TIMEOUT_MS })) as CallToolResult,
    toolNames: async () => (await client.listTools()).tools.map((t) => ({ name: t.name, description: t.description, meta: t._meta as Record<string, unknown> | undefined })),
    close: () => client.close(),
  };
  try {
    return await work(connection);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The text of a tool result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
