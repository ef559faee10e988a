import { listServers } from "@/lib/registry/registry-api";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// GET /v0/servers — approved servers in the official MCP Registry's shape, paged by cursor.
export const GET = listServers;

// Read-only: a CORS preflight for GET from any origin, 405 in the registry's JSON shape for any other method.
export const { OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute;
