// The x402 Bazaar discovery format, written from the specification (x402-foundation/x402:
// specs/extensions/bazaar.md and the TypeScript client's DiscoveryResourcesResponse), to check answers against.
import Ajv2020 from "ajv/dist/2020";
import { z } from "zod";

const paymentRequirementsV2 = z.strictObject({
  scheme: z.string().min(1),
  network: z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, "CAIP-2"),
  amount: z.string().regex(/^\d+$/, "an integer in the token's smallest unit"),
  asset: z.string().min(1),
  payTo: z.string().min(1),
  maxTimeoutSeconds: z.number().int().positive(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

// Version 1 requirements (x402's v1 specification and its `x402` package's PaymentRequirementsSchema): the network in
// version 1's words, `maxAmountRequired`, and the resource described in the requirements themselves.
const paymentRequirementsV1 = z.looseObject({
  scheme: z.string().min(1),
  network: z.string().regex(/^[a-z][-a-z0-9]*$/, "a version 1 network name"),
  maxAmountRequired: z.string().regex(/^\d+$/, "an integer in the token's smallest unit"),
  resource: z.string().min(1),
  description: z.string(),
  mimeType: z.string(),
  asset: z.string().min(1),
  payTo: z.string().min(1),
  maxTimeoutSeconds: z.number().int().positive(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

const printable = z.string().regex(/^[\x20-\x7e]{1,32}$/);

// Loose: fields the format does not name (Agora adds `metadata`) are allowed and kept.
// An entry's version is its accepts' version: a version 1 entry carries version 1 requirements, a version 2 one version 2.
const versioned = z.discriminatedUnion("x402Version", [
  z.looseObject({ x402Version: z.literal(1), accepts: z.array(paymentRequirementsV1) }),
  z.looseObject({ x402Version: z.literal(2), accepts: z.array(paymentRequirementsV2) }),
]);

const entryFields = z.looseObject({
  resource: z.string().min(1),
  type: z.string().min(1),
  lastUpdated: z.iso.datetime({ offset: true }),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  serviceName: printable.optional(),
  tags: z.array(printable).max(5).optional(),
  iconUrl: z.url().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  // Usage the way Coinbase's Bazaar gives it (its own keys beside these are allowed).
  quality: z.looseObject({
    l30DaysTotalCalls: z.number().int().min(0),
    l30DaysUniquePayers: z.number().int().min(0),
    lastCalledAt: z.iso.datetime({ offset: true }).nullable(),
  }),
});

export const discoveryResource = z.intersection(entryFields, versioned);

// A filter the server cannot apply is named here (specs/extensions/bazaar.md; PROTOCOLS.md section 6).
const unappliedFilters = z.array(z.string().min(1)).min(1).optional();

export const discoveryResourcesResponse = z.strictObject({
  x402Version: z.number().int(),
  items: z.array(discoveryResource),
  pagination: z.strictObject({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() }),
  unappliedFilters,
});

const ajv = new Ajv2020({ strict: false });

/** What a facilitator must do before cataloguing: validate the bazaar `info` against its own `schema`. */
export function bazaarInfoValid(extension: { info: unknown; schema: object }): boolean {
  const schema = extension.schema as { $ref?: string; $id?: string };
  if ([schema.$ref, schema.$id].some((ref) => ref !== undefined && !ref.startsWith("#"))) return false;
  return ajv.validate(extension.schema, extension.info) as boolean;
}

/** GET /discovery/search (the Bazaar's search): the same resources, a partial flag, the page size and an opaque cursor. */
export const discoverySearchResponse = z.strictObject({
  x402Version: z.number().int(),
  resources: z.array(discoveryResource),
  partialResults: z.boolean(),
  pagination: z.strictObject({ limit: z.number().int().min(1), cursor: z.string().min(1).nullable() }),
  unappliedFilters,
});

export type DiscoveryEntry = z.infer<typeof discoveryResource>;
type McpInput = {
  type: string;
  toolName: string;
  inputSchema: Record<string, unknown>;
  example?: Record<string, unknown>;
  description?: string;
};

/** The MCP call an entry describes (its bazaar extension's `info.input`). */
export const mcpInput = (entry: DiscoveryEntry) =>
  (entry.extensions as { bazaar: { info: { input: McpInput } } }).bazaar.info.input;
