// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The probe reads paid servers built with the field's libraries (tests/support/field-servers) tool by tool: the
// style each speaks, its price from an unpaid call (which never runs the tool), its offers; and it never calls a
// tool nothing says is paid: the free tool with a side effect stays at zero calls in every test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeServer } from "@/lib/probe";
import { FIELD_STYLES, startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const PAYEE = "0x2222222222222222222222222222222222222222" as const;
// Styles whose tools/list says nothing: the owner names the paid tool (the submit form's "Which tools charge?").
const SILENT: FieldStyle[] = ["x402-mcp-v2", "jsonrpc-402"];
const EXPECTED_STYLE: Record<FieldStyle, string> = {
  "x402-mcp-v2": "x402-mcp",
  "cloudflare-agents": "cloudflare-agents",
  "vercel-x402-mcp": "vercel-x402-mcp",
  "jsonrpc-402": "jsonrpc-402",
  mcpay: "mcpay",
};

let stack: PaymentStack;
const servers = new Map<FieldStyle, FieldServer>();

beforeAll(async () => {
  stack = await startPaymentStack();
  for (const style of FIELD_STYLES)
    servers.set(
      style,
      await startFieldServer(style, { facilitatorUrl: stack.facilitator.url, payTo: PAYEE, units: 12_345n }),
    );
});

afterAll(async () => {
  for (const s of servers.values()) await s.close();
  await stack?.stop();
});

describe.each(FIELD_STYLES)("a server built with %s", (style) => {
  it("is priced from an unpaid call of its paid tool, with its style, and nothing runs", async () => {
    const server = servers.get(style)!;
    const paidTools = SILENT.includes(style) ? [{ name: server.paidTool, reason: "owner" as const }] : [];
    const result = await probeServer(server.url, { allowPrivateHosts: true, paidTools });
    expect(result.error).toBeNull();
    const item = result.pricedItems.find((i) => i.toolName === server.paidTool);
    expect(item).toMatchObject({
      units: "12345",
      currency: "USDC",
      paymentMethod: "USDC_BASE_SEPOLIA",
      style: EXPECTED_STYLE[style],
    });
    expect(result.paymentMethods).toContainEqual({ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: PAYEE });
    expect(result.verifiable).toBe(true);
    expect(result.lowestPrice).toBeCloseTo(0.012345, 9);
    const paid = result.tools.find((t) => t.name === server.paidTool)?.paid;
    expect(paid).toMatchObject({
      status: "priced",
      style: EXPECTED_STYLE[style],
      offers: [{ units: "12345", payTo: PAYEE }],
    });
    // Only x402 version 2 offers are what a generic client pays from a discovery entry.
    if (style === "vercel-x402-mcp" || style === "mcpay") expect(item?.x402Requirements).toBeUndefined();
    else expect(item?.x402Requirements).toMatchObject({ amount: "12345", payTo: PAYEE, network: "eip155:84532" });
    expect(result.tools.find((t) => t.name === server.freeTool)?.paid).toBeUndefined();
    expect(server.counts).toEqual({ paidRuns: 0, freeCalls: 0 });
  });
});

describe.each(SILENT)("a %s server nobody named a paid tool of", (style) => {
  it("is read as free, and no tool is called", async () => {
    const server = servers.get(style)!;
    const result = await probeServer(server.url, { allowPrivateHosts: true });
    expect(result.reachable).toBe(true);
    expect(result.pricedItems).toEqual([]);
    expect(result.verifiable).toBe(false);
    expect(server.counts).toEqual({ paidRuns: 0, freeCalls: 0 });
  });
});

describe("names that are wrong", () => {
  it("a named tool that answers without asking for payment is flagged, not priced; a name not in tools/list is said", async () => {
    const server = servers.get("x402-mcp-v2")!;
    const result = await probeServer(server.url, {
      allowPrivateHosts: true,
      paidTools: [
        { name: server.freeTool, reason: "owner" },
        { name: "no-such-tool", reason: "discovery" },
      ],
    });
    expect(result.pricedItems).toEqual([]);
    expect(result.tools.find((t) => t.name === server.freeTool)?.paid).toMatchObject({
      status: "no-ask",
      reason: "owner",
    });
    expect(result.quirks).toContain("no-such-tool: named as paid (discovery) but not in tools/list");
    // The owner named the free tool and consented to one unpaid call: that call ran it (and only that one).
    expect(server.counts.freeCalls).toBe(1);
    expect(server.counts.paidRuns).toBe(0);
  });
});
