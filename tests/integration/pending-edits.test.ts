// An owner's edit never takes an approved listing (a claimed import, or any other) out of the
// catalogue while it waits for review. The approved version keeps being served on every surface; the edit waits
// in listing_edits with its own check; approving applies it atomically, rejecting keeps the reason for its owner,
// a second edit replaces the first, and an approval that cannot apply changes nothing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { GET as oneAgent } from "@/app/api/mcp-agents/[id]/route";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { GET as discoverySearch } from "@/app/discovery/search/route";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { decideListingEdit, listPendingEdits, ownEdits } from "@/db/queries/listing-edits";
import { listingEdits, listingProbes, listingReviews, listings, users } from "@/db/schema";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { checkListingEdit } from "@/lib/listings/edits/check-edit";
import { editChanges } from "@/lib/listings/edits/changes";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { serveRoute } from "../support/route-server";

const loopback = { allowPrivateHosts: true };
const WALLET_A = "0xAAaa000000000000000000000000000000000001";
const WALLET_B = "0x4444444444444444444444444444444444444444";

describe.each(drivers())("pending edits of approved listings on %s", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;
  let other: Awaited<ReturnType<typeof startPricedServer>>;
  let registry: Awaited<ReturnType<typeof serveRoute>>;
  let client: Client;
  let owner: string;
  let reviewer: string;
  let id: string;
  let approvedAt: Date;

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reference = await startReferenceServer({ port: 0, walletAddress: WALLET_A });
    other = await startPricedServer({
      items: [{ name: "forecast", amount: 0.05 }],
      wallet: WALLET_B,
      extraTool: false,
    });
    [owner, reviewer] = (
      await conn.db
        .insert(users)
        .values([
          { name: "Olive Owner", email: "olive@example.org" },
          { name: "Rex Reviewer", email: "rex@example.org" },
        ])
        .returning()
    ).map((u) => u.id) as [string, string];
    // An imported listing its publisher claimed: approved, in the catalogue, checked.
    const listing = await insertListing(conn.db, {
      name: "Harbour Weather",
      description: "Tide tables and harbour forecasts, paid per call.",
      categories: ["Data"],
      serverUrl: reference.url,
      status: "approved",
      source: "mcp-registry",
      upstreamName: "io.github.olive/harbour-weather",
      registryName: "io.github.olive/harbour-weather",
      submitterId: owner,
      claimedAt: new Date(),
    });
    id = listing.id;
    expect((await checkListing(conn.db, id, loopback))?.listing).toEqual({ price: 0.01, verified: true });
    approvedAt = (await row()).approvedAt!;
    registry = await serveRoute({ POST, GET, DELETE, OPTIONS });
    client = new Client({ name: "pending-edits-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${registry.url}/api/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await Promise.all([registry?.close(), reference?.close(), other?.close()]);
    await conn?.close();
    delete process.env.SITE_URL;
    delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  const row = async () => (await conn.db.select().from(listings).where(eq(listings.id, id)))[0]!;
  const edit = (changes: Partial<{ name: string; description: string; mcpServerUrl: string; categories: string[] }>) =>
    resubmitListing(conn.db, owner, id, {
      name: "Harbour Weather",
      description: "Tide tables and harbour forecasts, paid per call.",
      mcpServerUrl: reference.url,
      websiteUrl: null,
      categories: ["Data"],
      ...changes,
    });
  const pendingEdit = async () => (await conn.db.select().from(listingEdits).where(eq(listingEdits.listingId, id)))[0];
  const decisions = async () =>
    (
      await conn.db
        .select({ decision: listingReviews.decision, reason: listingReviews.reason })
        .from(listingReviews)
        .where(eq(listingReviews.listingId, id))
    ).map((d) => d.decision);

  /** What each public surface serves for the listing: name and description, or null when it is absent. */
  async function served() {
    const listed = (await (await listAgents(new Request("http://localhost/api/mcp-agents?q=harbour"))).json()) as {
      id: string;
      name: string;
      description: string;
      price: number | null;
    }[];
    const single = await oneAgent(new Request(`http://localhost/api/mcp-agents/${id}`), {
      params: Promise.resolve({ id }),
    });
    const v01 = (await (await listV01(new Request("http://localhost/v0.1/servers?search=harbour"))).json()) as {
      servers: { server: { name: string; description: string } }[];
    };
    const mcp = (await client.callTool({ name: "search_servers", arguments: { query: "harbour" } })) as CallToolResult;
    const mcpServers = (mcp.structuredContent as { servers: { id: string; name: string; description: string }[] })
      .servers;
    const discovery = (await (
      await discoverySearch(
        new Request("http://localhost/discovery/search?query=harbour", {
          headers: { "x-agora-client-address": "198.51.100.9" },
        }),
      )
    ).json()) as {
      resources: { metadata: { slug: string } }[];
    };
    const one =
      single.status === 200
        ? ((await single.json()) as { name: string; description: string; price: number | null })
        : null;
    return {
      api: listed.filter((l) => l.id === id).map((l) => [l.name, l.description, l.price]),
      apiOne: one && [one.name, one.description, one.price],
      v01: v01.servers.map((s) => [s.server.name, s.server.description]),
      mcp: mcpServers.filter((s) => s.id === id).map((s) => [s.name, s.description]),
      discovery: discovery.resources.length,
    };
  }

  let before: Awaited<ReturnType<typeof served>>;

  it("keeps serving the approved version everywhere while the owner's edit waits, and keeps the edit's check apart", async () => {
    before = await served();
    expect(before.api).toEqual([["Harbour Weather", "Tide tables and harbour forecasts, paid per call.", 0.01]]);
    expect(before.apiOne).toEqual(before.api[0]);
    expect(before.v01).toEqual([
      ["io.github.olive/harbour-weather", "Tide tables and harbour forecasts, paid per call."],
    ]);
    expect(before.mcp).toHaveLength(1);
    expect(before.discovery).toBeGreaterThan(0);

    const saved = await edit({
      name: "Harbour Weather Pro",
      description: "Harbour forecasts with swell, from our new server.",
      mcpServerUrl: other.url,
      categories: ["Data", "Travel"],
    });
    expect(saved.kind).toBe("pending-edit");
    expect(await row()).toMatchObject({
      status: "approved",
      name: "Harbour Weather",
      serverUrl: reference.url,
      revision: 1,
      verified: true,
      price: 0.01,
      approvedAt,
    });
    expect(await served()).toEqual(before);

    // The edit's own check reads the new server; the listing's checks, price and badge stay the approved server's.
    const probesBefore = await conn.db
      .select({ serverUrl: listingProbes.serverUrl })
      .from(listingProbes)
      .where(eq(listingProbes.listingId, id));
    expect((await checkListingEdit(conn.db, id, loopback))?.paymentMethods).toEqual([
      { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: WALLET_B },
    ]);
    expect((await pendingEdit())?.check).toMatchObject({ url: other.url, reachable: true, lowestPrice: 0.05 });
    expect(
      await conn.db
        .select({ serverUrl: listingProbes.serverUrl })
        .from(listingProbes)
        .where(eq(listingProbes.listingId, id)),
    ).toEqual(probesBefore);
    expect(await row()).toMatchObject({ verified: true, price: 0.01 });

    // The owner and the reviewer see what changed.
    const mine = (await ownEdits(conn.db, owner)).get(id)!;
    expect(mine.status).toBe("pending");
    expect(editChanges(mine.current, mine.proposed)).toEqual([
      { field: "Name", before: "Harbour Weather", after: "Harbour Weather Pro" },
      {
        field: "Description",
        before: "Tide tables and harbour forecasts, paid per call.",
        after: "Harbour forecasts with swell, from our new server.",
      },
      { field: "Categories", before: "Data", after: "Data, Travel" },
      { field: "MCP Server URL", before: reference.url, after: other.url },
    ]);
    const [queued] = (await listPendingEdits(conn.db)).filter((e) => e.listingId === id);
    expect(queued).toMatchObject({
      revision: 2,
      current: { name: "Harbour Weather" },
      proposed: { name: "Harbour Weather Pro" },
      submitter: { name: "Olive Owner" },
    });
  });

  it("a second edit replaces the first: a new revision, no check, and a decision on the first is refused", async () => {
    const saved = await edit({
      name: "Harbour Weather Plus",
      description: "Harbour forecasts with swell, from our new server.",
      mcpServerUrl: other.url,
    });
    expect(saved.kind === "pending-edit" && saved.edit).toMatchObject({
      revision: 3,
      name: "Harbour Weather Plus",
      check: null,
      status: "pending",
    });
    expect(await conn.db.select().from(listingEdits).where(eq(listingEdits.listingId, id))).toHaveLength(1);
    expect(await decideListingEdit(conn.db, id, reviewer, { decision: "approved", reason: null, revision: 2 })).toEqual(
      { ok: false, reason: "edited" },
    );
    // Without a check of this edit's server there is nothing to approve.
    expect(await decideListingEdit(conn.db, id, reviewer, { decision: "approved", reason: null, revision: 3 })).toEqual(
      { ok: false, reason: "unprobed" },
    );
    expect(await row()).toMatchObject({ name: "Harbour Weather", revision: 1, status: "approved" });
    expect(await decisions()).toEqual([]);
  });

  it("an approval that cannot apply (another listing took the edited server meanwhile) changes nothing", async () => {
    await checkListingEdit(conn.db, id, loopback);
    const squatter = await insertListing(conn.db, {
      name: "Squatter",
      description: "Took the URL.",
      categories: ["Data"],
      serverUrl: other.url,
      status: "pending",
    });
    const probes = (await conn.db.select().from(listingProbes).where(eq(listingProbes.listingId, id))).length;
    expect(await decideListingEdit(conn.db, id, reviewer, { decision: "approved", reason: null, revision: 3 })).toEqual(
      { ok: false, reason: "taken" },
    );
    expect(await row()).toMatchObject({
      name: "Harbour Weather",
      serverUrl: reference.url,
      revision: 1,
      status: "approved",
    });
    expect(await pendingEdit()).toMatchObject({ status: "pending", revision: 3 });
    expect(await conn.db.select().from(listingProbes).where(eq(listingProbes.listingId, id))).toHaveLength(probes);
    expect(await decisions()).toEqual([]);
    await conn.db.delete(listings).where(eq(listings.id, squatter.id));
  });

  it("approving applies the edit at once: new text and server on every surface, the approval's date kept, the new payee's date taken", async () => {
    const outcome = await decideListingEdit(conn.db, id, reviewer, { decision: "approved", reason: null, revision: 3 });
    expect(outcome.ok).toBe(true);
    const after = await row();
    expect(after).toMatchObject({
      status: "approved",
      name: "Harbour Weather Plus",
      serverUrl: other.url,
      revision: 3,
      categories: ["Data"],
      approvedAt,
      price: 0.05,
    });
    expect(after.editedFields).toEqual(["description", "name"]);
    expect(after.approvedTerms).toMatchObject({
      prices: [{ name: "forecast", amount: 0.05, currency: "USDC" }],
      walletsSince: { [WALLET_B.toLowerCase()]: expect.any(String) },
    });
    expect(await pendingEdit()).toBeUndefined();
    expect(await decisions()).toEqual(["approved an edit"]);
    // The edit's check joined the listing's history as a check of the revision approved.
    expect(
      await conn.db
        .select({ revision: listingProbes.revision })
        .from(listingProbes)
        .where(and(eq(listingProbes.listingId, id), eq(listingProbes.serverUrl, other.url))),
    ).toEqual([{ revision: 3 }]);
    expect((await checkListing(conn.db, id, loopback))?.listing).toEqual({ price: 0.05, verified: true });

    const now = await served();
    expect(now.api).toEqual([["Harbour Weather Plus", "Harbour forecasts with swell, from our new server.", 0.05]]);
    expect(now.apiOne).toEqual(now.api[0]);
    expect(now.v01).toEqual([
      ["io.github.olive/harbour-weather", "Harbour forecasts with swell, from our new server."],
    ]);
    expect(now.mcp).toEqual([["Harbour Weather Plus", "Harbour forecasts with swell, from our new server."]]);
    // The new server sells through make-purchase only: nothing a generic x402 client can pay.
    expect(now.discovery).toBe(0);
  });

  it("rejecting discards the edit with its reason for the owner; a text-only edit approved later keeps the payee's date", async () => {
    const since = (await row()).approvedTerms!.walletsSince!;
    await edit({ name: "Harbour Weather Plus", description: "Spam spam spam.", mcpServerUrl: other.url });
    const revision = (await pendingEdit())!.revision;
    expect(
      await decideListingEdit(conn.db, id, reviewer, {
        decision: "rejected",
        reason: "The description is not about the server.",
        revision,
      }),
    ).toMatchObject({ ok: true });
    expect(await row()).toMatchObject({
      description: "Harbour forecasts with swell, from our new server.",
      status: "approved",
      revision: 3,
    });
    expect((await ownEdits(conn.db, owner)).get(id)).toMatchObject({
      status: "rejected",
      rejectionReason: "The description is not about the server.",
    });
    expect(await decideListingEdit(conn.db, id, reviewer, { decision: "approved", reason: null, revision })).toEqual({
      ok: false,
      reason: "not_pending",
    });

    // The next edit clears the rejection; approved, it keeps when the (unchanged) payee was first approved.
    await edit({
      name: "Harbour Weather Plus",
      description: "Harbour forecasts with swell and wind.",
      mcpServerUrl: other.url,
    });
    expect((await ownEdits(conn.db, owner)).get(id)).toMatchObject({ status: "pending", rejectionReason: null });
    await checkListingEdit(conn.db, id, loopback);
    const next = (await pendingEdit())!.revision;
    expect(
      await decideListingEdit(conn.db, id, reviewer, { decision: "approved", reason: null, revision: next }),
    ).toMatchObject({ ok: true });
    expect(await row()).toMatchObject({
      description: "Harbour forecasts with swell and wind.",
      revision: next,
      approvedAt,
      verified: true,
    });
    expect((await row()).approvedTerms!.walletsSince).toEqual(since);
    expect(await decisions()).toEqual(
      expect.arrayContaining(["approved an edit", "rejected an edit", "approved an edit"]),
    );
  });

  it("a listing that is not approved is edited in place, as before, and an edit of someone else's listing is refused", async () => {
    const pending = await insertListing(conn.db, {
      name: "Waiting Weather",
      description: "Not reviewed yet.",
      categories: ["Data"],
      serverUrl: "https://waiting.example.com/mcp",
      status: "pending",
      submitterId: owner,
    });
    const saved = await resubmitListing(conn.db, owner, pending.id, {
      name: "Waiting Weather",
      description: "Edited before review.",
      mcpServerUrl: "https://waiting.example.com/mcp",
      websiteUrl: null,
      categories: ["Data"],
    });
    expect(saved.kind === "resubmitted" && saved.listing).toMatchObject({
      status: "pending",
      description: "Edited before review.",
      revision: 2,
    });
    expect(await conn.db.select().from(listingEdits).where(eq(listingEdits.listingId, pending.id))).toEqual([]);
    const refused = await resubmitListing(conn.db, reviewer, id, {
      name: "Mine Now",
      description: "Taken over.",
      mcpServerUrl: "https://elsewhere.example.com/mcp",
      websiteUrl: null,
      categories: ["Data"],
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(404);
    expect(await row()).toMatchObject({ name: "Harbour Weather Plus" });
  });
});
