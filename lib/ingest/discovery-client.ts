// Reads an x402 facilitator's Bazaar discovery list (GET /discovery/resources?type=mcp), page by page with
// limit/offset, leniently: an item that does not parse is counted and skipped (with its position); only MCP
// resources are kept. The Bazaar specification's text names the MCP tool field `tool`, the SDKs send `toolName`:
// either is read, and kept: one server lists one resource per paid tool, and the tool is what the probe is to call.
import { z } from "zod";
import type { FetchLike } from "@/lib/ssrf";
import { upstreamToolName } from "./paid-tool-names";
import { readJsonBody } from "./read-json";
import { httpUrl, plainText } from "./text";

export const DISCOVERY_PAGE_SIZE = 100;
const REMOTE_TYPES = new Set(["streamable-http", "sse"]);

const itemSchema = z
  .object({
    resource: z.string().max(2000),
    type: z.string().max(50),
    description: z.string().max(4000).optional().catch(undefined),
    serviceName: z.string().max(200).optional().catch(undefined),
    lastUpdated: z.string().max(100).optional().catch(undefined),
    extensions: z
      .object({
        bazaar: z
          .object({
            info: z
              .object({
                input: z
                  .object({
                    toolName: z.unknown().optional(),
                    tool: z.unknown().optional(),
                    transport: z.string().max(50).optional(),
                  })
                  .loose(),
              })
              .loose(),
          })
          .loose(),
      })
      .loose()
      .optional()
      .catch(undefined),
  })
  .loose();
const pageSchema = z.object({
  items: z.array(z.unknown()).max(1000),
  pagination: z.object({ total: z.number().int().nonnegative().optional() }).loose().optional(),
});

/** One MCP resource of the list: a server, and the paid tool the entry names (null when it names none readable). */
export type DiscoveredServer = {
  remoteUrl: string;
  name: string;
  description: string;
  htmlStripped: boolean;
  toolName: string | null;
};
type DiscoveryPage = {
  servers: DiscoveredServer[];
  received: number;
  notMcp: number;
  malformed: number;
  malformedAt: number[];
  total: number | null;
};

export function discoveryPageUrl(baseUrl: string, offset: number): string {
  const url = new URL(`${baseUrl}/discovery/resources`);
  url.searchParams.set("type", "mcp");
  url.searchParams.set("limit", String(DISCOVERY_PAGE_SIZE));
  url.searchParams.set("offset", String(offset));
  return url.toString();
}

/** One page; throws on a transport failure or an answer that is not the list shape (the caller retries). */
export async function fetchDiscoveryPage(fetch: FetchLike, url: string): Promise<DiscoveryPage> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`the facilitator answered HTTP ${res.status}`);
  const page = pageSchema.safeParse(await readJsonBody(res, "the facilitator"));
  if (!page.success) throw new Error("the facilitator's answer is not a discovery list");
  const out: DiscoveryPage = {
    servers: [],
    received: page.data.items.length,
    notMcp: 0,
    malformed: 0,
    malformedAt: [],
    total: page.data.pagination?.total ?? null,
  };
  for (let position = 0; position < page.data.items.length; position++) {
    const item = itemSchema.safeParse(page.data.items[position]);
    const remoteUrl = item.success ? httpUrl(item.data.resource) : null;
    if (!item.success || !remoteUrl) {
      out.malformed++;
      out.malformedAt.push(position);
      continue;
    }
    const input = item.data.extensions?.bazaar.info.input;
    if (item.data.type !== "mcp" || (input?.transport && !REMOTE_TYPES.has(input.transport))) {
      out.notMcp++;
      continue;
    }
    const toolName = upstreamToolName(input?.toolName) ?? upstreamToolName(input?.tool);
    // A resource with no service name is named by its tool (either field), else by its host.
    const name = plainText(item.data.serviceName || toolName || "", 100);
    const description = plainText(item.data.description ?? "", 1000);
    out.servers.push({
      remoteUrl,
      name: name.text || new URL(remoteUrl).host,
      description: description.text,
      htmlStripped: name.stripped || description.stripped,
      toolName,
    });
  }
  return out;
}
