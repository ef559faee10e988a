import { route } from "@/lib/http/route";
import { handleMcpPost, methodNotAllowed, preflight } from "@/lib/registry/mcp-endpoint";

// /api/mcp — the registry as a remote MCP server (Streamable HTTP, stateless, no sign-up or keys).
export const POST = handleMcpPost;

export const GET = route({ name: "GET /api/mcp", database: false }, methodNotAllowed);

export const DELETE = route({ name: "DELETE /api/mcp", database: false }, methodNotAllowed);

export const OPTIONS = route({ name: "OPTIONS /api/mcp", database: false }, preflight);
