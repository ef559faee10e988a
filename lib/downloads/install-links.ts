// The hosts' documented one-click install links for the config block's server, carrying the block's command,
// arguments and settings unchanged (tests/e2e/install-links.spec.ts decodes each and compares it with the block):
// - Cursor: cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=<base64 of the server's JSON> (cursor.com/docs/mcp/install-links)
// - VS Code: vscode:mcp/install?<URL-encoded JSON of the server with its name> (code.visualstudio.com, MCP servers: install URL)
// Claude Desktop installs the MCP bundle instead (lib/downloads/bundle-manifest.ts).
import { blockServer } from "@/lib/downloads/bundle-manifest";
import type { ClientConfig } from "@/lib/downloads/client-config";

type InstallLinks = { cursor: string; vscode: string };

export function installLinks(config: ClientConfig): InstallLinks {
  const [name] = Object.keys(config.mcpServers);
  const { command, args, env } = blockServer(config);
  const server = { command, args, env };
  const cursorConfig = Buffer.from(JSON.stringify(server), "utf8").toString("base64");
  return {
    cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name!)}&config=${encodeURIComponent(cursorConfig)}`,
    vscode: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, type: "stdio", ...server }))}`,
  };
}
