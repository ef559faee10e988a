// What every field fixture serves, whatever library wraps it: one paid tool (a forecast for a city) and one free
// tool with a side effect (an alert subscription), counted, so a test can tell a tool that ran from one that was
// only priced, and prove a probe never touched the free tool. `failNext` makes the paid tool's next run fail.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { z as z3 } from "zod/v3";

export const PAID_TOOL = "forecast";
export const FREE_TOOL = "subscribe-alerts";
export const PAID_DESCRIPTION = "Tomorrow's forecast for a city (paid).";
export const FREE_DESCRIPTION = "Subscribes the caller to storm alerts for a city (free, and it changes state).";

/** The tools' input, as a zod shape (what the SDK's McpServer and the libraries' `paidTool` take). */
export const cityShape = { city: z.string().describe("A city, e.g. Lisbon") };

/** The same shape in zod's version 3 API, for the libraries typed against zod 3 (x402-mcp, mcpay). */
export const cityShapeV3 = { city: z3.string().describe("A city, e.g. Lisbon") };

/**
 * The server an mcp-handler initializer really receives from x402-mcp or mcpay: mcp-handler's McpServer (this
 * project's MCP SDK 1.32) with `paidTool`, taking a price in the library's own form. Their declarations name the
 * MCP SDK and zod 3 copies they pin for themselves, which this project's types do not meet.
 */
export type PaidToolServer<Price> = McpServer & {
  paidTool: (
    name: string,
    description: string,
    price: Price,
    shape: typeof cityShapeV3,
    annotations: object,
    cb: (args: { city: string }) => Promise<CallToolResult>,
  ) => unknown;
};

/** The same input as JSON Schema, for a server written on the SDK's low-level Server. */
export const cityJsonSchema = {
  type: "object" as const,
  properties: { city: { type: "string", description: "A city, e.g. Lisbon" } },
  required: ["city"],
};

export type FieldCounts = { paidRuns: number; freeCalls: number };

/** The terms every fixture sells on (the x402 transport example's). */
export type { SaleTerms } from "@/examples/x402-transport-server/seller";

/** The price in US dollars, for the libraries that take a dollar price (USDC is one dollar a unit of 10^6). */
export const dollars = (units: bigint): number => Number(units) / 1e6;

export type WeatherDesk = {
  counts: FieldCounts;
  failNext: () => void;
  forecast: (city: string) => CallToolResult;
  subscribe: (city: string) => CallToolResult;
};

export function weatherDesk(): WeatherDesk {
  const counts: FieldCounts = { paidRuns: 0, freeCalls: 0 };
  let failing = false;
  const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
  return {
    counts,
    failNext: () => void (failing = true),
    forecast(city) {
      counts.paidRuns += 1;
      if (failing) {
        failing = false;
        return { ...text(`No forecast for ${city}: the weather service is down.`), isError: true };
      }
      return text(`Forecast for ${city}: sunny, 21 °C, light wind.`);
    },
    subscribe(city) {
      counts.freeCalls += 1;
      return text(`Subscribed to storm alerts for ${city}.`);
    },
  };
}
