// "Which tools charge?": a paid MCP server whose tools/list says nothing about payment is read only through the
// tools its owner names as paid. The names (with the owner's consent to unpaid calls) are checked at every boundary,
// stored with the listing (migration 0027), passed to every probe of it, and what the probe found shows on the
// account page; the listing's payment style shows on the detail page and every registry surface.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createAgent } from "@/app/api/mcp-agents/route";
import { GET as oneAgent } from "@/app/api/mcp-agents/[id]/route";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { POST as register } from "@/app/api/auth/register/route";
import { decideListingEdit, ownEdits } from "@/db/queries/listing-edits";
import { decideListing } from "@/db/queries/reviews";
import { rowsOf } from "@/db/rows";
import { listingEdits, listingProbes, listings, users } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { checkListingEdit } from "@/lib/listings/edits/check-edit";
import { editChanges } from "@/lib/listings/edits/changes";
import { findListingView } from "@/lib/listings/lookup";
import { paymentLine } from "@/lib/listings/presenters/payment-style";
import { toolPaymentViews } from "@/lib/listings/presenters/tool-payments";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { submitServer } from "@/lib/listings/submit/submit-server";
import { readToolChoices } from "@/lib/listings/submit/tool-choices";
import {
  CONSENT_REQUIRED,
  PAID_TOOL_NAME_CHARACTERS,
  PAID_TOOL_NAME_CONTROL,
  PAID_TOOL_NAME_EMPTY,
  PAID_TOOL_NAME_TOO_LONG,
  PAID_TOOL_NAMED_TWICE,
  TOO_MANY_PAID_TOOLS,
} from "@/lib/validations/paid-tools";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { call, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";
import { serveRoute } from "../support/route-server";
import { startSilentPaidServer, type SilentPaidServer } from "../support/silent-paid-server";

const loopback = { allowPrivateHosts: true };
let serial = 0;
const payload = (patch: Record<string, unknown> = {}) => ({
  name: `Deep Answers ${++serial}`,
  description: "Answers questions in depth, paid per call.",
  mcpServerUrl: `https://answers-${Date.now().toString(36)}-${serial}.example.com/mcp`,
  categories: "AI",
  ...patch,
});

describe.each(drivers())("tools named as paid by their owner on %s", (driver) => {
  let conn: TestConnection;
  let server: SilentPaidServer;
  let token: string;
  let owner: string;
  let reviewer: string;
  const post = (body: unknown) =>
    call(createAgent, jsonRequest("/api/mcp-agents", body, { authorization: `Bearer ${token}` }));
  const listingCount = async () => (await conn.db.select({ n: sql<number>`count(*)::int` }).from(listings))[0]!.n;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    setAuthEnv({ RATE_LIMIT_DISABLED: "1", SITE_URL: "https://agora.test" });
    reloadEnv();
    server = await startSilentPaidServer();
    const res = await call(
      register,
      jsonRequest("/api/auth/register", { email: uniqueEmail("owner"), password: "owner password", name: "Owner" }),
    );
    token = res.body.token as string;
    owner = (res.body.user as { id: string }).id;
    [reviewer] = (
      await conn.db
        .insert(users)
        .values([{ name: "Rex Reviewer", email: "rex@example.org" }])
        .returning()
    ).map((u) => u.id) as [string];
  });
  afterAll(async () => {
    await server?.close();
    await conn?.close();
    setAuthEnv();
    reloadEnv();
  });
  beforeEach(() => {
    server.calls.premium = 0;
    server.calls.echo = 0;
    server.calls.metered = 0;
  });

  describe("POST /api/mcp-agents", () => {
    it("stores the named tools with the time of the owner's consent, and answers them back", async () => {
      const before = Date.now();
      const res = await post(payload({ paidTools: ["premium", "tools/deep.search:v2"], readPricesConsent: true }));
      expect(res.status).toBe(201);
      expect(res.body.paidTools).toEqual(["premium", "tools/deep.search:v2"]);
      const [row] = await conn.db
        .select()
        .from(listings)
        .where(eq(listings.id, res.body.id as string));
      expect(row!.paidTools).toEqual(["premium", "tools/deep.search:v2"]);
      expect(row!.paidToolsConsentedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it("stores no names and no consent time when none are named, consent or not", async () => {
      for (const extra of [{}, { readPricesConsent: true }, { paidTools: [], readPricesConsent: false }]) {
        const res = await post(payload(extra));
        expect(res.status).toBe(201);
        const [row] = await conn.db
          .select()
          .from(listings)
          .where(eq(listings.id, res.body.id as string));
        expect(row).toMatchObject({ paidTools: [], paidToolsConsentedAt: null });
      }
    });

    const refusals: [string, Record<string, unknown>, string, string][] = [
      [
        "more than 50 names",
        { paidTools: Array.from({ length: 51 }, (_, i) => `tool_${i}`), readPricesConsent: true },
        "paidTools",
        TOO_MANY_PAID_TOOLS,
      ],
      ["a NUL byte", { paidTools: ["pre\u0000mium"], readPricesConsent: true }, "paidTools.0", PAID_TOOL_NAME_CONTROL],
      [
        "a newline",
        { paidTools: ["ok", "two\nlines"], readPricesConsent: true },
        "paidTools.1",
        PAID_TOOL_NAME_CONTROL,
      ],
      [
        "a script payload",
        { paidTools: ["<script>alert(1)</script>"], readPricesConsent: true },
        "paidTools.0",
        PAID_TOOL_NAME_CHARACTERS,
      ],
      [
        "an attribute payload",
        { paidTools: ['x" onmouseover="alert(1)'], readPricesConsent: true },
        "paidTools.0",
        PAID_TOOL_NAME_CHARACTERS,
      ],
      [
        "a name of 129 characters",
        { paidTools: ["a".repeat(129)], readPricesConsent: true },
        "paidTools.0",
        PAID_TOOL_NAME_TOO_LONG,
      ],
      ["an empty name", { paidTools: [""], readPricesConsent: true }, "paidTools.0", PAID_TOOL_NAME_EMPTY],
      [
        "a name given twice",
        { paidTools: ["premium", "echo", "premium"], readPricesConsent: true },
        "paidTools.2",
        PAID_TOOL_NAMED_TWICE,
      ],
      ["names without consent", { paidTools: ["premium"] }, "readPricesConsent", CONSENT_REQUIRED],
      [
        "names with consent refused",
        { paidTools: ["premium"], readPricesConsent: false },
        "readPricesConsent",
        CONSENT_REQUIRED,
      ],
      [
        "consent that is not a boolean",
        { paidTools: ["premium"], readPricesConsent: "yes" },
        "readPricesConsent",
        "readPricesConsent must be true or false.",
      ],
      [
        "one name instead of a list",
        { paidTools: "premium", readPricesConsent: true },
        "paidTools",
        "paidTools must be a list of tool names.",
      ],
    ];
    it.each(refusals)(
      "refuses %s with a 400 that says why, and stores nothing",
      async (_what, extra, field, message) => {
        const before = await listingCount();
        const res = await post(payload(extra));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: "invalid_input", message });
        expect(res.body.errors?.[field]).toContain(message);
        expect(await listingCount()).toBe(before);
      },
    );

    it("keeps a name of exactly 128 characters and exactly 50 names", async () => {
      const names = Array.from({ length: 50 }, (_, i) => `${i}`.padStart(128, "t"));
      const res = await post(payload({ paidTools: names, readPricesConsent: true }));
      expect(res.status).toBe(201);
      expect(res.body.paidTools).toEqual(names);
    });
  });

  describe("migration 0027", () => {
    it("adds the columns to listings and pending edits, with the bounds and the consent rule as constraints", async () => {
      const columns = await conn.db
        .execute(sql`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
        where table_name in ('listings', 'listing_edits') and column_name in ('paid_tools', 'paid_tools_consented_at') order by table_name, column_name`);
      const rows = rowsOf<Record<string, string>>(columns);
      expect(rows.map((r) => [r.table_name, r.column_name, r.data_type, r.is_nullable])).toEqual([
        ["listing_edits", "paid_tools", "ARRAY", "NO"],
        ["listing_edits", "paid_tools_consented_at", "timestamp with time zone", "YES"],
        ["listings", "paid_tools", "ARRAY", "NO"],
        ["listings", "paid_tools_consented_at", "timestamp with time zone", "YES"],
      ]);
      // A listing written without them (every listing before this migration) names nothing.
      const [plain] = await conn.db
        .insert(listings)
        .values({
          slug: `plain-${serial++}`,
          name: "Plain",
          description: "No names here.",
          serverUrl: `https://plain-${serial}.example.com/mcp`,
          searchText: "plain",
        })
        .returning();
      expect(plain).toMatchObject({ paidTools: [], paidToolsConsentedAt: null });
      // Whatever a caller below the schema tries: no names without consent, never more than 50.
      const write = (values: Partial<typeof listings.$inferInsert>) =>
        conn.db.update(listings).set(values).where(eq(listings.id, plain!.id));
      await expect(write({ paidTools: ["premium"] })).rejects.toThrow();
      await expect(
        write({ paidTools: Array.from({ length: 51 }, (_, i) => `t${i}`), paidToolsConsentedAt: new Date() }),
      ).rejects.toThrow();
      await write({ paidTools: ["premium"], paidToolsConsentedAt: new Date() });
      const [after] = await conn.db
        .select({ paidTools: listings.paidTools })
        .from(listings)
        .where(eq(listings.id, plain!.id));
      expect(after!.paidTools).toEqual(["premium"]);
    });
  });

  describe("the probe of a listing", () => {
    it("reads the tools on a server's list without calling any of them", async () => {
      const choices = await readToolChoices(conn.db, owner, server.url, loopback);
      expect(choices).toEqual({
        tools: [
          { name: "premium", description: "Answers a question in depth.", markedPaid: false, unnameable: null },
          { name: "echo", description: "Says back what it is given.", markedPaid: false, unnameable: null },
          { name: "metered", description: "Counts things.", markedPaid: true, unnameable: null },
        ],
        cut: false,
      });
      expect(server.calls).toEqual({ premium: 0, echo: 0, metered: 0 });
    });

    it("calls only the tools its owner named or the server marks paid, and lists the named tool's price", async () => {
      const listing = await submitServer(conn.db, owner, {
        ...payload(),
        categories: ["AI"],
        websiteUrl: null,
        mcpServerUrl: server.url,
        paidTools: ["premium"],
        readPricesConsent: true,
      });
      const checked = await checkListing(conn.db, listing.id, loopback);
      expect(server.calls.echo).toBe(0);
      // Twice each: a price that moved between two asks would not be listed.
      expect(server.calls.premium).toBe(2);
      expect(server.calls.metered).toBe(2);
      expect(checked!.result.pricedItems.map((i) => [i.toolName, i.amount, i.style])).toEqual([
        ["premium", 0.01, "x402-mcp"],
        ["metered", 0.02, "cloudflare-agents"],
      ]);
      expect(checked!.listing?.price).toBe(0.01);
      // What the probe found per tool is stored with the check.
      const [stored] = await conn.db
        .select({ tools: listingProbes.tools })
        .from(listingProbes)
        .where(eq(listingProbes.listingId, listing.id));
      const premium = stored!.tools.find((t) => t.name === "premium")!;
      expect(premium.paid).toMatchObject({
        reason: "owner",
        style: "x402-mcp",
        x402Version: 2,
        status: "priced",
        refused: [{ index: 1, reason: "an upto offer names no facilitatorAddress" }],
      });
      expect(stored!.tools.find((t) => t.name === "echo")!.paid).toBeUndefined();

      // The account page says it in words.
      expect(toolPaymentViews(stored!.tools)).toEqual([
        {
          tool: "premium",
          style: "x402 MCP transport",
          reason: "named by the owner",
          status: "Priced at $0.01 on Base Sepolia",
          refused: ["Offer 2 refused: an upto offer names no facilitatorAddress"],
        },
        {
          tool: "metered",
          style: "Cloudflare Agents SDK (x402)",
          reason: "marked paid by the server",
          status: "Priced at $0.02 on Base Sepolia",
          refused: [],
        },
      ]);
    });

    it("never calls a tool nobody named: without the owner's names the silent tool stays unread", async () => {
      const listing = await submitServer(conn.db, owner, {
        ...payload(),
        categories: ["AI"],
        websiteUrl: null,
        mcpServerUrl: `${server.url}?unnamed=1`,
      });
      const checked = await checkListing(conn.db, listing.id, loopback);
      expect(server.calls).toEqual({ premium: 0, echo: 0, metered: 2 });
      expect(checked!.result.pricedItems.map((i) => i.toolName)).toEqual(["metered"]);
    });

    it("reads an edit's named tools in the edit's own check, and approving the edit gives the listing its names", async () => {
      const listing = await submitServer(conn.db, owner, {
        ...payload(),
        categories: ["AI"],
        websiteUrl: null,
        mcpServerUrl: `${server.url}?edited=1`,
      });
      await checkListing(conn.db, listing.id, loopback);
      expect(
        (
          await decideListing(conn.db, listing.id, reviewer, {
            decision: "approved",
            reason: null,
            revision: listing.revision,
          })
        ).ok,
      ).toBe(true);
      server.calls.premium = 0;
      await resubmitListing(conn.db, owner, listing.id, {
        name: listing.name,
        description: listing.description,
        categories: ["AI"],
        websiteUrl: null,
        mcpServerUrl: `${server.url}?edited=1`,
        paidTools: ["premium"],
        readPricesConsent: true,
      });
      const edit = (await ownEdits(conn.db, owner, listing.id)).get(listing.id)!;
      expect(editChanges(edit.current, edit.proposed)).toEqual([
        { field: "Tools named as paid", before: "none", after: "premium" },
      ]);
      const checked = await checkListingEdit(conn.db, listing.id, loopback);
      expect(server.calls.premium).toBe(2);
      expect(checked!.tools.find((t) => t.name === "premium")!.paid).toMatchObject({
        reason: "owner",
        status: "priced",
      });
      // Waiting for review, the approved listing still names nothing.
      expect(
        (await conn.db.select({ paidTools: listings.paidTools }).from(listings).where(eq(listings.id, listing.id)))[0]!
          .paidTools,
      ).toEqual([]);
      const [pending] = await conn.db.select().from(listingEdits).where(eq(listingEdits.listingId, listing.id));
      expect(
        (
          await decideListingEdit(conn.db, listing.id, reviewer, {
            decision: "approved",
            reason: null,
            revision: pending!.revision,
          })
        ).ok,
      ).toBe(true);
      const [row] = await conn.db.select().from(listings).where(eq(listings.id, listing.id));
      expect(row!.paidTools).toEqual(["premium"]);
      expect(row!.paidToolsConsentedAt).toEqual(pending!.paidToolsConsentedAt);
      server.calls.premium = 0;
      await checkListing(conn.db, listing.id, loopback);
      expect(server.calls.premium).toBe(2);
      expect(server.calls.echo).toBe(0);
    });
  });

  describe("the payment style on every surface", () => {
    let id: string;
    let registry: Awaited<ReturnType<typeof serveRoute>>;
    let client: Client;

    beforeAll(async () => {
      const listing = await submitServer(conn.db, owner, {
        ...payload(),
        categories: ["AI"],
        websiteUrl: null,
        mcpServerUrl: `${server.url}?surfaces=1`,
        paidTools: ["premium"],
        readPricesConsent: true,
      });
      id = listing.id;
      await checkListing(conn.db, id, loopback);
      expect(
        (await decideListing(conn.db, id, reviewer, { decision: "approved", reason: null, revision: listing.revision }))
          .ok,
      ).toBe(true);
      registry = await serveRoute({ POST, GET, DELETE, OPTIONS });
      client = new Client({ name: "owner-paid-tools-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${registry.url}/api/mcp`)));
    });
    afterAll(async () => {
      await client?.close();
      await registry?.close();
    });

    it("says 'Payment: <style>' on the detail page, from the latest check's paid items", async () => {
      const view = (await findListingView(conn.db, id))!;
      expect(paymentLine(view.probe)).toBe("Payment: x402 MCP transport");
      expect(paymentLine(null)).toBeNull();
      expect(paymentLine({ tools: view.probe!.tools, pricedItems: [] })).toBeNull();
    });

    it("carries paymentStyle in the JSON API, server.json's _meta and the MCP endpoint's answer", async () => {
      const agent = (await (
        await oneAgent(new Request(`http://localhost/api/mcp-agents/${id}`), { params: Promise.resolve({ id }) })
      ).json()) as { paymentStyle: string };
      expect(agent.paymentStyle).toBe("x402-mcp");
      const v01 = (await (await listV01(new Request("http://localhost/v0.1/servers?search=deep"))).json()) as {
        servers: { server: { _meta: Record<string, { id: string; paymentStyle: string }> } }[];
      };
      const meta = v01.servers.map((s) => Object.values(s.server._meta)[0]!).find((m) => m.id === id)!;
      expect(meta.paymentStyle).toBe("x402-mcp");
      const answer = (await client.callTool({ name: "get_server", arguments: { id } })) as CallToolResult;
      expect((answer.structuredContent as { paymentStyle: string }).paymentStyle).toBe("x402-mcp");
      expect((answer.content as { text: string }[])[0]!.text).toContain("\nPayment: x402 MCP transport\n");
    });
  });
});
