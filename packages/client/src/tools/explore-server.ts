// explore_server: what a listed server sells now, read from the server itself, and whether this wallet can pay it.
import { z } from "zod";
import { PAID_STYLE_NAMES, formatUsd, unitsToUsd } from "@agora-mcp/protocol";
import { namedPaidTools, readPriceList, type X402Tool } from "../price-list.js";
import { withConnection } from "../connections.js";
import { resolveServer } from "../servers.js";
import { answer, guarded, type ToolDeps } from "./answer.js";

export function registerExploreServer({ mcp, settings, wallet }: ToolDeps): void {
  mcp.registerTool(
    "explore_server",
    {
      title: "Explore a server",
      description:
        "Connects to a listed server (its registry id or slug; a URL only with ENABLE_UNSAFE_DIRECT_ACCESS) and reads what it sells now: each item's price, the parameters it needs, and whether this wallet can pay it.",
      inputSchema: {
        server: z.string().min(1).max(500).describe("Registry id or slug, or a URL with direct access on"),
      },
      outputSchema: {
        server: z.string(),
        serverUrl: z.string(),
        payTo: z.string().nullable(),
        items: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            description: z.string().optional(),
            priceUsd: z.string(),
            params: z.record(z.string(), z.string()),
            payable: z.boolean(),
            why: z.string().optional(),
          }),
        ),
        x402Tools: z
          .array(
            z.object({
              name: z.string(),
              description: z.string().optional(),
              style: z
                .string()
                .optional()
                .describe(
                  "How the tool is paid: agora-kit, x402-mcp, cloudflare-agents, vercel-x402-mcp or jsonrpc-402; absent until its unpaid call says",
                ),
              styleName: z.string().optional().describe("The paid style's name for people"),
              priceUsd: z
                .string()
                .optional()
                .describe(
                  "Dollars per call, when known without calling the tool; purchase reads the price from the server",
                ),
            }),
          )
          .describe(
            "Tools paid per call over x402, in any of the field's styles: buy one with purchase {server, item: its name, params: its arguments}",
          ),
        notes: z.array(z.string()),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "explore_server", async ({ server }) => {
      const resolved = await resolveServer(server, settings);
      if (!resolved.ok)
        return answer(
          wallet,
          resolved.reason,
          { server, serverUrl: "", payTo: null, items: [], x402Tools: [], notes: [resolved.reason] },
          true,
        );
      const { url, label } = resolved.server;
      const priceList = await withConnection(url, (c) =>
        readPriceList(c, settings.network, namedPaidTools(resolved.server.terms)),
      );
      const items = priceList.items.map((i) => {
        const units = BigInt(i.units ?? "0");
        let why: string | undefined;
        if (units > 0n && !priceList.payTo) why = `the server takes no ${settings.network.paymentMethod}`;
        else if (i.paymentMethod && units > 0n && i.paymentMethod !== settings.network.paymentMethod)
          why = `paid in ${i.paymentMethod}`;
        else if (units > settings.maxPerPurchaseUnits)
          why = `above the per-purchase maximum of ${formatUsd(settings.maxPerPurchaseUnits)}`;
        return {
          id: i.id ?? i.name,
          name: i.name,
          ...(i.description ? { description: i.description } : {}),
          priceUsd: unitsToUsd(units),
          params: i.params ?? {},
          payable: !why,
          ...(why ? { why } : {}),
        };
      });
      const x402Tools = priceList.x402Tools.map(shownTool);
      const text = [
        `${label} (${url}) sells ${items.length} item(s)${priceList.payTo ? `, paid to ${priceList.payTo}` : ""}:`,
        ...items.map(
          (i) =>
            `- ${i.id}: ${i.name}, $${i.priceUsd}${
              Object.keys(i.params).length
                ? `; params ${Object.entries(i.params)
                    .map(([k, v]) => `${k} (${v})`)
                    .join(", ")}`
                : ""
            }${i.payable ? "" : ` — cannot pay: ${i.why}`}`,
        ),
        ...x402Tools.map(
          (t) =>
            `- paid tool ${t.name} (${t.styleName ?? "x402; its style is read when bought"})${t.priceUsd ? `: $${t.priceUsd}` : ""}`,
        ),
        ...priceList.notes.map((n) => `Note: ${n}`),
        "Buy with purchase {server, item, params}.",
      ];
      return answer(wallet, text.join("\n"), {
        server: label,
        serverUrl: url,
        payTo: priceList.payTo ?? null,
        items,
        x402Tools,
        notes: priceList.notes,
      });
    }),
  );
}

/** A paid tool as explore_server shows it: its style's name, and its price when known without calling it. */
function shownTool(t: X402Tool) {
  return {
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    ...(t.style ? { style: t.style, styleName: PAID_STYLE_NAMES[t.style] } : {}),
    ...(t.units ? { priceUsd: unitsToUsd(t.units) } : {}),
  };
}
