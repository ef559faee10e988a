// Every route file under app/ that answers JSON, with what the API description says of each method it exports.
// A new route is one entry here (its handler gives the query, body and error codes); a route that answers
// something other than JSON goes in NOT_JSON with the reason. tests/unit/openapi.test.ts fails, naming the file,
// when a route file is in neither.
import * as authCallback from "@/app/api/auth/callback/route";
import * as forgotPassword from "@/app/api/auth/forgot-password/route";
import * as login from "@/app/api/auth/login/route";
import * as register from "@/app/api/auth/register/route";
import * as resetPassword from "@/app/api/auth/reset-password/route";
import * as verifyEmail from "@/app/api/auth/verify-email/route";
import * as feedback from "@/app/api/buyer-reviews/[listing]/feedback/route";
import * as receipts from "@/app/api/buyer-reviews/receipts/route";
import * as revoke from "@/app/api/buyer-reviews/revoke/route";
import * as buyerReviews from "@/app/api/buyer-reviews/route";
import * as health from "@/app/api/health/route";
import * as newsletter from "@/app/api/mailchimp/member/route";
import * as agent from "@/app/api/mcp-agents/[id]/route";
import * as agents from "@/app/api/mcp-agents/route";
import * as mcp from "@/app/api/mcp/route";
import * as ready from "@/app/api/ready/route";
import * as resources from "@/app/discovery/resources/route";
import * as search from "@/app/discovery/search/route";
import * as serverAt from "@/app/v0.1/servers/[...path]/route";
import * as servers from "@/app/v0.1/servers/route";
import * as legacyServerAt from "@/app/v0/servers/[...path]/route";
import * as legacyServers from "@/app/v0/servers/route";
import * as a from "@/lib/http/openapi/answers";
import type { Operation, RouteDescriptions } from "@/lib/http/openapi/document";
import { discoveryQuerySchema, discoverySearchSchema } from "@/lib/validations/registry";

const preflight = (operationId: string, tags: string[], params?: Record<string, string>): Operation => ({ operationId, summary: "CORS preflight: any origin may read, without credentials", tags, ...(params ? { params } : {}), answers: [{ status: 204, description: "Any origin may GET" }] });
/** What a read-only registry or discovery route answers besides GET: a CORS preflight, and 405 to a write. */
const readOnly = (operationId: string, tags: string[], params?: Record<string, string>, path?: string) => ({
  OPTIONS: { ...preflight(`${operationId}Preflight`, tags, params), ...(path ? { path } : {}) },
  ...Object.fromEntries(
    (["POST", "PUT", "PATCH", "DELETE"] as const).map((method) => [
      method,
      { operationId: `${operationId}${method[0]}${method.slice(1).toLowerCase()}`, summary: "Not served: read-only", tags, ...(params ? { params } : {}), ...(path ? { path } : {}), answers: [], errors: ["method_not_allowed"], errorShape: "RegistryError" } satisfies Operation,
    ]),
  ),
});
const cardCatalog = (operationId: string, path: string): Partial<Record<"GET" | "OPTIONS", Operation>> => ({
  GET: { operationId, summary: "The AI Catalog: every approved listing's MCP server card", tags: ["server-cards"], path, answers: ok("The catalogue", a.serverCardCatalogAnswer) },
  OPTIONS: preflight(`${operationId}Preflight`, ["server-cards"]),
});
/** A registry path this API does not serve, whatever the method: the registry's JSON error, 404. */
const unknownRegistryPath = (prefix: "/v0.1" | "/v0") =>
  Object.fromEntries(
    (["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const).map((method) => [
      method,
      { operationId: `unknown${prefix === "/v0" ? "V0" : "V01"}Path${method[0]}${method.slice(1).toLowerCase()}`, summary: "Any other path: not served", tags: ["servers"], path: `${prefix}/{path}`, params: { path: "Any path this API does not serve." }, answers: [], errors: ["not_found"], errorShape: "RegistryError" } satisfies Operation,
    ]),
  );

const ok = (description: string, schema?: Operation["answers"][number]["schema"], status = 200) => [{ status, description, schema }];

const LISTING_KEY = { id: "The listing's id or slug." };
const SERVER_NAME = "URL-encoded server name (e.g., \"com.example%2Fmy-server\"); a bare listing id or slug also names a server.";
const VERSION = "The version, or `latest`.";

/** The official MCP Registry's read operations, on /v0.1 and on the /v0 alias (its names: ServerList, ServerResponse). */
const registryRoutes = (prefix: "/v0.1" | "/v0", list: typeof servers.GET, at: typeof serverAt.GET, id: (name: string) => string) => ({
  list: {
    operationId: id("listServers"),
    summary: "List MCP servers",
    tags: ["servers"],
    path: `${prefix}/servers`,
    handler: list,
    answers: ok("A list of MCP servers", a.serverList),
    errors: ["invalid_cursor"],
    errorShape: "RegistryError",
  } satisfies Operation,
  at: [
    { operationId: id("getServer"), summary: "Get an MCP server (its latest version)", path: `${prefix}/servers/{serverName}`, answers: ok("Detailed server information", a.serverResponse) },
    { operationId: id("listServerVersions"), summary: "List all versions of an MCP server", path: `${prefix}/servers/{serverName}/versions`, answers: ok("A list of all versions for the server", a.serverList) },
    { operationId: id("getServerVersion"), summary: "Get specific MCP server version", path: `${prefix}/servers/{serverName}/versions/{version}`, answers: ok("Detailed server information", a.serverResponse) },
  ].map((o) => ({ ...o, tags: ["servers"], handler: at, params: { serverName: SERVER_NAME, version: VERSION }, errors: ["not_found"], errorShape: "RegistryError" }) satisfies Operation),
});
const v01 = registryRoutes("/v0.1", servers.GET, serverAt.GET, (name) => name);
const v0 = registryRoutes("/v0", legacyServers.GET, legacyServerAt.GET, (name) => `${name}V0`);

export const ROUTES: RouteDescriptions = {
  "app/v0.1/servers/route.ts": { GET: v01.list, ...readOnly("servers", ["servers"]) },
  "app/v0.1/servers/[...path]/route.ts": { GET: v01.at, ...readOnly("server", ["servers"], { serverName: SERVER_NAME }, "/v0.1/servers/{serverName}") },
  "app/v0/servers/route.ts": { GET: v0.list, ...readOnly("serversV0", ["servers"]) },
  "app/v0/servers/[...path]/route.ts": { GET: v0.at, ...readOnly("serverV0", ["servers"], { serverName: SERVER_NAME }, "/v0/servers/{serverName}") },
  "app/api/mcp-agents/route.ts": {
    GET: { operationId: "listAgents", summary: "Approved listings, filtered and paged", tags: ["listings"], handler: agents.GET, answers: ok("The listings (X-Total-Count, Link rel=next)", a.apiAgent.array()), errors: ["invalid_cursor"] },
    POST: { operationId: "submitAgent", summary: "Submit a server for review", tags: ["listings"], handler: agents.POST, answers: ok("The submission, pending review", a.submittedAgent, 201), errors: ["sign_in_required", "invalid_token", "duplicate_server"] },
  },
  "app/api/mcp-agents/[id]/route.ts": { GET: { operationId: "getAgent", summary: "One approved listing", tags: ["listings"], handler: agent.GET, params: LISTING_KEY, answers: ok("The listing", a.apiAgent), errors: ["invalid_request", "not_found"] } },
  "app/api/buyer-reviews/route.ts": { POST: { operationId: "postBuyerReview", summary: "A review signed (EIP-712) by a wallet that paid the listing", tags: ["buyer-reviews"], handler: buyerReviews.POST, answers: ok("The stored review", a.buyerReviewAnswer, 201), errors: ["invalid_request", "forbidden", "conflict", "not_found"] } },
  "app/api/buyer-reviews/revoke/route.ts": { POST: { operationId: "revokeBuyerReview", summary: "The reviewer withdraws their review, signed again", tags: ["buyer-reviews"], handler: revoke.POST, answers: ok("Revoked", a.buyerReviewRevokeAnswer), errors: ["invalid_request", "forbidden", "not_found"] } },
  "app/api/buyer-reviews/receipts/route.ts": { POST: { operationId: "postBuyerReceipt", summary: "A delivery receipt signed (EIP-712) by the wallet that paid: whether the paid call delivered", tags: ["buyer-reviews"], handler: receipts.POST, answers: ok("The stored receipt", a.buyerReceiptAnswer, 201), errors: ["invalid_request", "forbidden", "conflict", "not_found"] } },
  "app/api/buyer-reviews/[listing]/feedback/route.ts": { GET: { operationId: "getListingFeedback", summary: "The listing's buyer reviews as ERC-8004 feedback records", tags: ["buyer-reviews"], handler: feedback.GET, params: { listing: "The listing's id or slug." }, answers: ok("The feedback and its summary", a.feedbackAnswer), errors: ["invalid_request", "not_found"] } },
  "app/discovery/resources/route.ts": { GET: { operationId: "listDiscoveryResources", summary: "x402 Bazaar discovery over the verified catalogue", tags: ["discovery"], handler: resources.GET, query: discoveryQuerySchema, answers: ok("One resource per x402-paid tool", a.discoveryAnswer), errors: ["invalid_request"], errorShape: "RegistryError" }, ...readOnly("discoveryResources", ["discovery"]) },
  "app/discovery/search/route.ts": { ...readOnly("discoverySearch", ["discovery"]), GET: { operationId: "searchDiscoveryResources", summary: "x402 Bazaar search", tags: ["discovery"], handler: search.GET, query: discoverySearchSchema, answers: ok("The entries of the best-matching listings", a.discoverySearchAnswer), errors: ["invalid_request", "invalid_cursor"], errorShape: "RegistryError" } },
  "app/api/mcp/route.ts": {
    POST: { operationId: "mcpPost", summary: "JSON-RPC messages to the registry's MCP server (search_servers, get_server, list_categories)", tags: ["mcp"], handler: mcp.POST, body: a.jsonRpcMessage, answers: ok("The JSON-RPC answer(s)", a.jsonRpcMessage), errors: ["invalid_request", "invalid_json"], errorShape: "JsonRpcError" },
    GET: { operationId: "mcpGet", summary: "Not served: the endpoint is stateless", tags: ["mcp"], handler: mcp.GET, answers: ok("Method not allowed", a.jsonRpcErrorAnswer, 405), errorShape: "JsonRpcError" },
    DELETE: { operationId: "mcpDelete", summary: "Not served: the endpoint keeps no sessions", tags: ["mcp"], handler: mcp.DELETE, answers: ok("Method not allowed", a.jsonRpcErrorAnswer, 405), errorShape: "JsonRpcError" },
    OPTIONS: { operationId: "mcpPreflight", summary: "CORS preflight", tags: ["mcp"], handler: mcp.OPTIONS, answers: [{ status: 204, description: "Any origin may call" }], errorShape: "JsonRpcError" },
  },
  "app/api/auth/register/route.ts": { POST: { operationId: "register", summary: "Create an account and get an API token", tags: ["auth"], handler: register.POST, answers: ok("The account's token", a.tokenAnswer, 201), errors: ["email_taken", "rate_limited", "busy"] } },
  "app/api/auth/login/route.ts": { POST: { operationId: "login", summary: "Sign in with e-mail and password; get an API token", tags: ["auth"], handler: login.POST, answers: ok("A token", a.tokenAnswer), errors: ["invalid_credentials", "rate_limited", "busy"] } },
  "app/api/auth/callback/route.ts": { POST: { operationId: "exchangeGitHubCode", summary: "Exchange a GitHub authorization code for an API token", tags: ["auth"], handler: authCallback.POST, answers: ok("A token", a.tokenAnswer), errors: ["unauthorized", "email_taken", "upstream_failed", "rate_limited"] } },
  "app/api/auth/forgot-password/route.ts": { POST: { operationId: "forgotPassword", summary: "Mail a password reset link", tags: ["auth"], handler: forgotPassword.POST, answers: ok("The same answer whether or not the account exists", a.messageAnswer), errors: ["rate_limited"] } },
  "app/api/auth/reset-password/route.ts": { POST: { operationId: "resetPassword", summary: "Set a new password with the mailed token", tags: ["auth"], handler: resetPassword.POST, answers: ok("Reset", a.messageAnswer), errors: ["session_expired", "rate_limited", "busy"] } },
  "app/api/auth/verify-email/route.ts": { POST: { operationId: "verifyEmail", summary: "Confirm an e-mail address with the mailed token", tags: ["auth"], handler: verifyEmail.POST, answers: ok("Confirmed", a.messageAnswer), errors: ["session_expired", "conflict", "rate_limited"] } },
  "app/api/mailchimp/member/route.ts": { POST: { operationId: "subscribeNewsletter", summary: "Subscribe an e-mail to the newsletter", tags: ["newsletter"], handler: newsletter.POST, answers: ok("Subscribed", a.messageAnswer), errors: ["upstream_failed"] } },
  "app/api/health/route.ts": { GET: { operationId: "getHealth", summary: "Liveness", tags: ["operations"], handler: health.GET, answers: ok("The process is up", a.healthAnswer) } },
  "app/api/ready/route.ts": { GET: { operationId: "getReadiness", summary: "Readiness: the database answers and is migrated", tags: ["operations"], handler: ready.GET, answers: [{ status: 200, description: "Ready", schema: a.readyAnswer }, { status: 503, description: "Not ready, with the reason", schema: a.notReadyAnswer }] } },
  "app/servers/[slug]/server-card/route.ts": {
    GET: { operationId: "getServerCard", summary: "A listing's MCP server card (SEP-2127)", tags: ["server-cards"], params: { slug: "The listing's slug." }, answers: ok("The card", a.serverCardAnswer), errors: ["not_found"] },
    OPTIONS: preflight("serverCardPreflight", ["server-cards"], { slug: "The listing's slug." }),
  },
  "app/.well-known/mcp/route.ts": cardCatalog("getMcpCatalog", "/.well-known/mcp"),
  "app/.well-known/mcp/catalog.json/route.ts": cardCatalog("getMcpCatalogJson", "/.well-known/mcp/catalog.json"),
  "app/.well-known/ai-catalog.json/route.ts": cardCatalog("getAiCatalog", "/.well-known/ai-catalog.json"),
  "app/v0.1/[[...rest]]/route.ts": unknownRegistryPath("/v0.1"),
  "app/v0/[[...rest]]/route.ts": unknownRegistryPath("/v0"),
  "app/api/openapi.json/route.ts": { GET: { operationId: "getOpenApi", summary: "This description", tags: ["operations"], answers: ok("The OpenAPI 3.1 document", a.openApiAnswer) } },
};

/** Route files that answer something other than JSON, each with what it answers. */
export const NOT_JSON: Record<string, string> = {
  "app/api/nextauth/[...nextauth]/route.ts": "Auth.js's own sign-in redirects, callbacks and session (browsers only)",
  "app/downloads/[file]/route.ts": "package tarballs",
  "app/og/marketplace/route.tsx": "an Open Graph image",
  "app/sitemap-index.xml/route.ts": "the sitemap index (XML)",
};
