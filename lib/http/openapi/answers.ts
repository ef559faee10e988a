// The shapes of the JSON answers the API description names, for the routes whose answers have no zod schema of
// their own elsewhere (a presenter's TypeScript type): the fields a client may rely on. Presenters may add fields;
// every object here allows more. The registry's shapes keep the official MCP Registry OpenAPI's schema names.
import { z } from "zod";
import { ERROR_CODE_STATUS } from "@/lib/errors";

/** A JSON Schema written by hand (a `$ref` into `components`, or a shape zod cannot say, such as an external `$ref`). */
export type JsonSchema = { [key: string]: unknown };

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const errorCode = z.enum(
  Object.keys(ERROR_CODE_STATUS) as [keyof typeof ERROR_CODE_STATUS, ...(keyof typeof ERROR_CODE_STATUS)[]],
);
const fieldErrors = z
  .record(z.string(), z.array(z.string()))
  .describe("Field errors: the field's path (dots between parts, `_` for the whole input) → its messages.");

/** `{code, message, errors?}`: every refusal of a plain JSON route (lib/errors.ts). Programs branch on `code`. */
export const errorAnswer = z.looseObject({
  code: errorCode.describe("Stable and machine-readable: branch on it. See the ErrorCode schema."),
  message: z.string().describe("For a person; may be reworded."),
  errors: fieldErrors.optional(),
});

/** The registry's and the Bazaar's refusals: the official OpenAPI's `error`, and the code and message too. */
export const registryErrorAnswer = errorAnswer.extend({
  error: z.string().describe("The message, under the name the official MCP Registry OpenAPI gives it."),
});

/** A JSON-RPC error, as the MCP endpoint answers a refusal (`data.code` is the ErrorCode). */
export const jsonRpcErrorAnswer = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.null(),
  error: z.looseObject({
    code: z.number().int(),
    message: z.string(),
    data: z.looseObject({ code: errorCode }).optional(),
  }),
});

export const messageAnswer = z.looseObject({ message: z.string() });

export const healthAnswer = z.looseObject({ status: z.literal("ok"), uptimeSeconds: z.number().int() });

export const readyAnswer = z.looseObject({ status: z.literal("ready") });

export const notReadyAnswer = z.looseObject({ status: z.literal("unavailable"), reason: z.string() });

export const tokenAnswer = z.looseObject({
  token: z.string().describe("Send as `Authorization: Bearer <token>`."),
  tokenType: z.literal("Bearer"),
  expiresAt: z.string().describe("ISO 8601."),
  user: z.looseObject({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() }),
});

/** `/api/mcp-agents`: the spec's agent fields, then what the latest check read (tools, pricedItems, …). */
export const apiAgent = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  categories: z.string().describe("Comma-separated category names."),
  price: z.number().nullable().describe("USD per call of the cheapest item; null means free."),
  verified: z.boolean(),
  createdAt: z.string(),
  website_url: z.string().nullable(),
});

export const submittedAgent = apiAgent.extend({
  mcpServerUrl: z.string(),
  status: z.string().describe("pending until a reviewer approves it."),
  paidTools: z.array(z.string()),
});

const buyerReviewView = z.looseObject({
  id: z.string(),
  rating: z.number().int(),
  text: z.string(),
  reviewer: z.string().describe("The paying wallet."),
  amount: z.string().describe("Token units the sale paid."),
  taskRef: z.string().describe("CAIP-220: eip155:<chainId>:<txHash> of the settlement."),
  createdAt: z.string(),
});

export const buyerReviewAnswer = z.looseObject({ review: buyerReviewView });

export const buyerReviewRevokeAnswer = z.looseObject({ revoked: z.literal(true), id: z.string(), taskRef: z.string() });
export const buyerReceiptAnswer = z.looseObject({
  receipt: z.looseObject({
    id: z.string(),
    listingId: z.string(),
    taskRef: z.string(),
    logIndex: z.number().int(),
    delivered: z.boolean(),
    paidAt: z.string(),
  }),
});

export const feedbackAnswer = z.looseObject({
  agentId: z.string().describe("The listing's registry name."),
  listingId: z.string(),
  summary: z.looseObject({}).describe("The reputation registry's summary (count and average)."),
  feedback: z.array(z.looseObject({})).describe("ERC-8004 feedback records, newest first."),
});

const bazaarItem = z.looseObject({
  resource: z.string(),
  type: z.string(),
  x402Version: z.number().int(),
  accepts: z.array(z.looseObject({})),
});
const unappliedFilters = z.array(z.string()).optional().describe("Parameters Agora received but does not apply.");

export const discoveryAnswer = z.looseObject({
  x402Version: z.number().int(),
  items: z.array(bazaarItem),
  pagination: z.looseObject({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() }),
  unappliedFilters,
});

export const discoverySearchAnswer = z.looseObject({
  x402Version: z.number().int(),
  resources: z.array(bazaarItem),
  partialResults: z.boolean(),
  pagination: z.looseObject({ limit: z.number().int(), cursor: z.string().nullable() }),
  unappliedFilters,
});

/** A JSON-RPC message (or a batch of them): the MCP endpoint's body and answer. */
export const jsonRpcMessage = z.union([
  z.looseObject({ jsonrpc: z.literal("2.0") }),
  z.array(z.looseObject({ jsonrpc: z.literal("2.0") })),
]);

export const openApiAnswer = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

/** The official MCP Registry OpenAPI's components, by its names; ServerDetail is server.json itself. */
export const registryComponents: Record<string, JsonSchema> = {
  ServerDetail: { $ref: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json" },
  ServerResponse: {
    type: "object",
    description: "API response format with separated server data and registry metadata",
    required: ["server"],
    properties: {
      server: ref("ServerDetail"),
      _meta: {
        type: "object",
        description:
          "Registry-managed metadata; Agora's own under `dev.agora-mcp/listing` (price, categories, verification).",
        properties: {
          "io.modelcontextprotocol.registry/official": {
            type: "object",
            properties: {
              status: { type: "string", enum: ["active", "deprecated", "deleted"] },
              statusMessage: { type: "string", maxLength: 500 },
              statusChangedAt: { type: "string", format: "date-time" },
              publishedAt: { type: "string", format: "date-time" },
              updatedAt: { type: "string", format: "date-time" },
              isLatest: { type: "boolean" },
            },
          },
          "dev.agora-mcp/listing": { type: "object", description: "Agora's listing: price, categories, verification." },
        },
        additionalProperties: true,
      },
    },
  },
  ServerList: {
    type: "object",
    required: ["servers"],
    properties: {
      servers: { type: "array", items: ref("ServerResponse") },
      metadata: {
        type: "object",
        properties: {
          nextCursor: { type: "string", description: "Pass as `cursor` for the next page; absent on the last page." },
          count: { type: "integer", description: "Number of items in current page" },
        },
      },
    },
  },
};

export const serverList = ref("ServerList");
export const serverResponse = ref("ServerResponse");

/** An MCP Server Card (SEP-2127): the server's identity, endpoint and transports, before any connection. */
export const serverCardAnswer = z.looseObject({
  name: z.string(),
  version: z.string(),
  description: z.string().optional(),
  remotes: z.array(z.looseObject({ type: z.string(), url: z.string() })).optional(),
});
/** An AI Catalog listing every approved listing's server card. */
export const serverCardCatalogAnswer = z.looseObject({ entries: z.array(z.looseObject({})).optional() });
