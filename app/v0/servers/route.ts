import { listServers } from "@/lib/registry/registry-api";

// GET /v0/servers — approved servers in the official MCP Registry's shape, paged by cursor.
export const GET = listServers;
