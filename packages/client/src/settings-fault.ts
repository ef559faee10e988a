// A client whose settings stop it, started by a host from the MCP bundle: the host would only show "Connection
// closed" (the log holds the reason, where nobody looks). So it stays connected with one tool, `wallet`, that
// answers the reason, and the person reads it where they talk to the assistant; it starts nothing else.
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

export function faultServer(reason: string): McpServer {
  const text = `The Agora wallet did not start: ${reason} Fix what this names (the bundle's options are on the host's Extensions page, under the wallet's Configure), then restart the wallet.`;
  const mcp = new McpServer(
    { name: "agora-wallet", title: "Agora wallet (not started)", version: "0.1.0" },
    { instructions: text },
  );
  mcp.registerTool(
    "wallet",
    { title: "Wallet (not started)", description: text, inputSchema: {}, annotations: { readOnlyHint: true } },
    async (): Promise<CallToolResult> => ({ isError: true, content: [{ type: "text", text }] }),
  );
  return mcp;
}

/** Serves the fault until the host closes stdin, then exits with 1. */
export function serveFault(reason: string): void {
  const served = serveStdio(() => faultServer(reason));
  const stop = () => void served.close().finally(() => process.exit(1));
  process.stdin.on("end", stop);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
