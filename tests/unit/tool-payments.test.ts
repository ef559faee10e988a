// The words the account page uses for what a check found per paid tool, the payment style every surface gives a
// listing, and that a hostile server's text reaches the page as text.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PricedItem, ProbedTool, ToolPayment } from "@agora-mcp/protocol";
import { ToolPayments } from "@/components/listings/tool-payments";
import { paymentLine, paymentStyleOf } from "@/lib/listings/presenters/payment-style";
import { paymentStatusText, toolPaymentViews } from "@/lib/listings/presenters/tool-payments";

const PAYEE = "0x000000000000000000000000000000000000dEaD";
const paidTool = (name: string, paid: ToolPayment): ProbedTool => ({
  name,
  description: null,
  inputSchema: { type: "object" },
  paid,
});
const offer = (units: string, network = "eip155:84532") => ({ scheme: "exact" as const, network, units, payTo: PAYEE });

describe("what a check found per paid tool, in words", () => {
  it("says each status as the owner reads it", () => {
    expect(paymentStatusText({ reason: "owner", style: "x402-mcp", status: "priced", offers: [offer("10000")] })).toBe(
      "Priced at $0.01 on Base Sepolia",
    );
    expect(
      paymentStatusText({
        reason: "owner",
        style: "x402-mcp",
        status: "priced",
        offers: [offer("10000"), offer("10000", "eip155:8453"), offer("10000")],
      }),
    ).toBe("Priced at $0.01 on Base Sepolia or $0.01 on Base");
    expect(
      paymentStatusText({
        reason: "owner",
        status: "no-ask",
        note: "an unpaid call answered without asking for payment",
      }),
    ).toBe("Answered without asking for payment — not listed as paid");
    expect(
      paymentStatusText({
        reason: "owner",
        style: "jsonrpc-402",
        status: "unreadable",
        refused: [
          { index: 0, reason: 'scheme "upto" is not one Agora pays yet' },
          { index: 1, reason: 'network "solana" is not one Agora knows' },
        ],
      }),
    ).toBe('No offer Agora can pay: scheme "upto" is not one Agora pays yet; network "solana" is not one Agora knows');
    expect(
      paymentStatusText({
        reason: "payment-hint",
        style: "vercel-x402-mcp",
        status: "unstable",
        offers: [offer("10000")],
      }),
    ).toBe("Asked a different price on a second call");
    expect(paymentStatusText({ reason: "owner", status: "failed", note: "HTTP 500" })).toBe(
      "The unpaid call failed: HTTP 500",
    );
    expect(paymentStatusText({ reason: "owner", status: "failed" })).toBe("The unpaid call failed: no answer");
  });

  it("names the style and who said the tool is paid, lists refused offers, and leaves unpaid tools out", () => {
    const tools: ProbedTool[] = [
      { name: "echo", description: "free", inputSchema: null },
      paidTool("premium", {
        reason: "owner",
        style: "x402-mcp",
        x402Version: 2,
        status: "priced",
        offers: [offer("250000")],
        refused: [{ index: 1, reason: "amount is zero" }],
      }),
      paidTool("hinted", { reason: "payment-hint", status: "failed", note: "timeout" }),
      paidTool("listed", {
        reason: "registry",
        style: "cloudflare-agents",
        status: "unreadable",
        refused: [{ index: 0, reason: "payee is not an address" }],
      }),
    ];
    expect(toolPaymentViews(tools)).toEqual([
      {
        tool: "premium",
        style: "x402 MCP transport",
        reason: "named by the owner",
        status: "Priced at $0.25 on Base Sepolia",
        refused: ["Offer 2 refused: amount is zero"],
      },
      {
        tool: "hinted",
        style: null,
        reason: "marked paid by the server",
        status: "The unpaid call failed: timeout",
        refused: [],
      },
      {
        tool: "listed",
        style: "Cloudflare Agents SDK (x402)",
        reason: "named by its registry entry",
        status: "No offer Agora can pay: payee is not an address",
        refused: [],
      },
    ]);
  });

  it("makes a hostile server's text plain, and the page renders it as text", () => {
    const hostile = paidTool("premium", {
      reason: "owner",
      status: "unreadable",
      refused: [{ index: 0, reason: 'network "<script>alert(1)</script>\u202e\u0000\nEvil" is not one Agora knows' }],
    });
    const [view] = toolPaymentViews([
      hostile,
      paidTool("<img src=x onerror=alert(1)>", { reason: "owner", status: "failed", note: "<b>boom</b>\u0007" }),
    ]);
    expect(view!.status).toBe(
      'No offer Agora can pay: network "<script>alert(1)</script> Evil" is not one Agora knows',
    );
    const html = renderToStaticMarkup(
      createElement(ToolPayments, {
        tools: [
          hostile,
          paidTool("<img src=x onerror=alert(1)>", { reason: "owner", status: "failed", note: "<b>boom</b>" }),
        ],
      }),
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("The unpaid call failed: &lt;b&gt;boom&lt;/b&gt;");
    expect(
      renderToStaticMarkup(
        createElement(ToolPayments, { tools: [{ name: "echo", description: null, inputSchema: null }] }),
      ),
    ).toBe("");
  });
});

describe("a listing's payment style", () => {
  const item = (patch: Partial<PricedItem>): PricedItem => ({ name: "item", amount: 0.01, currency: "USDC", ...patch });
  const tools = (...names: string[]): ProbedTool[] =>
    names.map((name) => ({ name, description: null, inputSchema: null }));

  it("is the style of the first paid item read from a paid tool", () => {
    const probe = {
      tools: tools("price-listing", "weather"),
      pricedItems: [item({ name: "Weather now" }), item({ toolName: "weather", style: "agora-kit" })],
    };
    expect(paymentStyleOf(probe)).toBe("agora-kit");
    expect(paymentLine(probe)).toBe("Payment: Agora provider kit");
    expect(
      paymentLine({
        tools: tools("a", "b"),
        pricedItems: [item({ toolName: "a", style: "vercel-x402-mcp" }), item({ toolName: "b", style: "jsonrpc-402" })],
      }),
    ).toBe("Payment: Vercel x402-mcp");
  });

  it("is MonetizedMCP for items priced by price-listing alone, and nothing for a free or unchecked listing", () => {
    expect(
      paymentLine({ tools: tools("price-listing", "payment-methods", "make-purchase"), pricedItems: [item({})] }),
    ).toBe("Payment: MonetizedMCP");
    expect(paymentLine({ tools: tools("price-listing"), pricedItems: [item({ amount: 0 })] })).toBeNull();
    expect(
      paymentLine({
        tools: tools("premium"),
        pricedItems: [item({ toolName: "premium", amount: 0, style: "x402-mcp" })],
      }),
    ).toBeNull();
    expect(paymentLine(null)).toBeNull();
  });
});
