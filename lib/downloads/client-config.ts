// The shape of the desktop-assistant config block: one MCP server per name, with its command, arguments and
// settings. lib/deployment.ts fills it with this deployment's values; the bundle and the install links read it.
export type ClientConfig = {
  mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
};
