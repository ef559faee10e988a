import { unknownPathRoute } from "@/lib/registry/read-only-http";

// Any other path under /v0.1 (POST /v0.1/publish included): 404 in the registry's JSON error shape, not the site's page.
export const GET = unknownPathRoute.GET;
export const HEAD = unknownPathRoute.HEAD;
export const OPTIONS = unknownPathRoute.OPTIONS;
export const POST = unknownPathRoute.POST;
export const PUT = unknownPathRoute.PUT;
export const PATCH = unknownPathRoute.PATCH;
export const DELETE = unknownPathRoute.DELETE;
