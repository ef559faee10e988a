import { unknownPathRoute } from "@/lib/registry/read-only-http";

// Any other path under /v0 (POST /v0/publish included): 404 in the registry's JSON error shape, not the site's page.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = unknownPathRoute;
