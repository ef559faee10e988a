import { getServerAt } from "@/lib/registry/registry-api";

// GET /v0.1/servers/{name}[/versions[/{version}]] — one server in the official MCP Registry's shape.
export async function GET(request: Request, { params }: { params: Promise<{ path: string[] }> }) {
  return getServerAt(request, (await params).path);
}
