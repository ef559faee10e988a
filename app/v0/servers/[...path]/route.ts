import { getServerAt } from "@/lib/registry/registry-api";

// GET /v0/servers/{name}[/versions[/{version}]] — one server in the official MCP Registry's shape.
export const GET = getServerAt;
