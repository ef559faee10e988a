// What the read-only registry and discovery routes answer besides GET: a CORS preflight for a GET from any origin
// (no credentials: these answers are public and read no cookie), 405 for any other method, and 404 for a path the
// API does not have, all in the registry's JSON error shape (`{error, code, message}`), so a client on another
// origin can read the refusal as it reads any answer.
import { ApiError } from "@/lib/errors";
import { siteUrl } from "@/lib/site";
import { registryFailure } from "./registry-api";

const READ_METHODS = "GET, HEAD, OPTIONS";
// The request headers a reader sends that are not CORS-safelisted (a revalidation, a cache directive).
const READ_HEADERS = "Accept, Accept-Language, Content-Type, If-None-Match, If-Modified-Since, Cache-Control";
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+){0,19}$/;

/** The preflight of a GET: allowed from any origin, never with credentials; cached by the browser for a day. */
export function preflight(request: Request): Response {
  // The headers the browser asks for are echoed when they are plain header names: any reader may send them, since
  // the answer is the same public JSON whatever it sends.
  const asked = request.headers.get("access-control-request-headers")?.trim();
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": READ_METHODS,
      "Access-Control-Allow-Headers": asked && HEADER_LIST.test(asked) ? asked : READ_HEADERS,
      "Access-Control-Max-Age": "86400",
      Allow: READ_METHODS,
      "Cache-Control": "public, max-age=86400",
    },
  });
}

/** 405 for a method a read-only route does not take, with the methods it does. */
export function methodNotAllowed(request: Request): Response {
  const error = new ApiError(405, `${request.method} is not allowed here: this API is read-only (GET).`, {
    headers: { Allow: READ_METHODS },
  });
  return registryFailure(error, error);
}

/** 404 for a path under the registry API that does not exist, whatever the method. */
export function unknownRegistryPath(request: Request): Response {
  if (request.method === "OPTIONS") return preflight(request);
  const path = new URL(request.url).pathname;
  const publishing = /^\/v0(\.1)?\/publish\/?$/.test(path);
  const message = publishing
    ? `${path} does not exist: this registry takes no publications through its API. Submit a server at ${siteUrl()}/submit.`
    : `${path} does not exist. The registry API serves GET /v0.1/servers, /v0.1/servers/{name}/versions and /v0.1/servers/{name}/versions/{version}.`;
  const error = new ApiError(404, message);
  return registryFailure(error, error);
}

/** The handlers every read-only route exports next to its GET. */
export const readOnlyRoute = {
  OPTIONS: preflight,
  POST: methodNotAllowed,
  PUT: methodNotAllowed,
  PATCH: methodNotAllowed,
  DELETE: methodNotAllowed,
};

/** The handlers of a path the registry API does not have: every method answers 404 (OPTIONS its preflight). */
export const unknownPathRoute = {
  GET: unknownRegistryPath,
  HEAD: unknownRegistryPath,
  OPTIONS: unknownRegistryPath,
  POST: unknownRegistryPath,
  PUT: unknownRegistryPath,
  PATCH: unknownRegistryPath,
  DELETE: unknownRegistryPath,
};
