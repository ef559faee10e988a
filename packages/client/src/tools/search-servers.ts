// search_servers: the registry's approved paid servers, by text, category, price and source, one page at a time.
import { z } from "zod";
import {
  deliveryRate,
  CATALOGUE_PRICES,
  CATALOGUE_SORT_MEANINGS,
  CATALOGUE_SORTS,
  CATALOGUE_SOURCE_MEANINGS,
  CATALOGUE_SOURCES,
  registryListingSchema,
} from "@agora-mcp/protocol";
import { searchRegistry } from "../registry.js";
import { answer, guarded, type ToolDeps } from "./answer.js";

export function registerSearchServers({ mcp, settings, wallet }: ToolDeps): void {
  mcp.registerTool(
    "search_servers",
    {
      title: "Search the registry",
      description: `Search the Agora registry's approved paid MCP servers by text, category, price (free or paid) and source, best match first when there is text (relevance), or sorted ${CATALOGUE_SORTS.filter((s) => s !== "relevance").join(", ")}; pages with cursor.`,
      inputSchema: {
        query: z.string().max(200).optional().describe("Words to look for in names and descriptions"),
        category: z.string().max(100).optional(),
        price: z.enum(CATALOGUE_PRICES).optional(),
        source: z
          .enum(CATALOGUE_SOURCES)
          .optional()
          .describe(
            Object.entries(CATALOGUE_SOURCE_MEANINGS)
              .map(([k, v]) => `${k}: ${v}`)
              .join("; "),
          ),
        sort: z
          .enum(CATALOGUE_SORTS)
          .optional()
          .describe(
            Object.entries(CATALOGUE_SORT_MEANINGS)
              .map(([k, v]) => `${k}: ${v}`)
              .join("; "),
          ),
        limit: z.number().int().min(1).max(50).optional(),
        cursor: z.string().max(200).optional().describe("nextCursor from the previous page"),
        minDeliveryRate: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe(
            "Keep only servers that delivered at least this share (0 to 1) of their purchases in 30 days (the registry's test purchases and buyers' signed receipts); servers with neither are left out",
          ),
      },
      outputSchema: {
        servers: z.array(
          registryListingSchema.pick({
            id: true,
            slug: true,
            name: true,
            description: true,
            categories: true,
            price: true,
            verified: true,
            serverUrl: true,
          }),
        ),
        total: z.number(),
        totalCapped: z.boolean(),
        nextCursor: z.string().nullable(),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "search_servers", async (args) => {
      const { minDeliveryRate, ...search } = args;
      const found = await searchRegistry(settings.registryUrl, { ...search, limit: search.limit ?? 10 });
      // The registry does not filter by delivery: this page is filtered here, and the answer says how many it left out.
      const kept =
        minDeliveryRate === undefined
          ? found.servers
          : found.servers.filter((s) => (deliveryRate(s.delivery30d) ?? -1) >= minDeliveryRate);
      const servers = kept.map(({ id, slug, name, description, categories, price, verified, serverUrl }) => ({
        id,
        slug,
        name,
        description,
        categories,
        price,
        verified,
        serverUrl,
      }));
      const text = [
        `${found.total}${found.totalCapped ? "+" : ""} server(s) match; showing ${servers.length}.`,
        kept.length < found.servers.length
          ? `${found.servers.length - kept.length} on this page left out: they delivered less than ${Math.round(minDeliveryRate! * 100)}% of their purchases in 30 days (the registry's test purchases and buyers' signed receipts), or have none.`
          : "",
        ...servers.map(
          (s) =>
            `- ${s.name} (id ${s.slug}${s.verified ? ", verified" : ""}): ${s.price ? `from $${s.price} a call` : "free"}. ${s.description.slice(0, 160)}`,
        ),
        found.nextCursor ? `More: pass cursor "${found.nextCursor}".` : "",
        "Next: explore_server with a server's id to see its items and prices.",
      ].filter(Boolean);
      return answer(wallet, text.join("\n"), {
        servers,
        total: found.total,
        totalCapped: found.totalCapped,
        nextCursor: found.nextCursor,
      });
    }),
  );
}
