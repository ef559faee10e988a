import { handleMcpPost, methodNotAllowed, preflight } from "@/lib/registry/mcp-endpoint";

// /api/mcp — the registry as a remote MCP server (Streamable HTTP, stateless, no sign-up or keys).
export function POST(request: Request) {
  return handleMcpPost(request);
}

export function GET() {
  return methodNotAllowed();
}

export function DELETE() {
  return methodNotAllowed();
}

export function OPTIONS() {
  return preflight();
}
