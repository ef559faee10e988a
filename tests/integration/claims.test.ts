// An imported listing belongs to nobody until its publisher claims it, by the official MCP
// Registry's namespace rules. GitHub sign-in (through the real code-exchange route, against the fake GitHub with
// organisation memberships) claims io.github.<login> and owned organisations; a reverse-DNS namespace is claimed
// with a one-time token published in a file served on loopback or in a TXT record answered by a DNS server on
// loopback. Then the owner edits the listing, and an upstream update leaves the edited field alone.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as exchange } from "@/app/api/auth/callback/route";
import { ingestedServers, listings, users } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { claimPage, startDomainClaim, verifyDomainClaim } from "@/lib/claims/claim-listing";
import { namespaceOf } from "@/lib/claims/namespace";
import type { DomainProofOptions } from "@/lib/claims/domain-proof";
import { issueClaimToken } from "@/lib/claims/tokens";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { insertListing } from "@/lib/listings/write";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { checkListingEdit } from "@/lib/listings/edits/check-edit";
import { decideListingEdit } from "@/db/queries/listing-edits";
import { ApiError } from "@/lib/errors";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFakeDns, type FakeDns } from "../support/fake-dns";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github";
import { fixture, startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { startPricedServer } from "../support/priced-server";
import { call, jsonRequest, setAuthEnv } from "../support/route-client";

type Site = { status?: number; body?: string; headers?: Record<string, string> };

/** Domains' web servers on loopback, chosen by the Host header. */
async function startSites() {
  const sites = new Map<string, Site>();
  const server = http.createServer((req, res) => {
    const site = sites.get((req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase());
    if (!site || req.url !== "/.well-known/agora-claim") return res.writeHead(404).end("not found");
    res.writeHead(site.status ?? 200, { "content-type": "text/plain", ...site.headers }).end(site.body ?? "");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { sites, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let serial = 0;
const unique = (label: string) => `${label}${Date.now().toString(36)}${(serial++).toString(36)}`;

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe.each(drivers())("claiming imported listings on %s", (driver) => {
  let conn: TestConnection;
  let github: FakeGitHub;
  let dnsServer: FakeDns;
  let web: Awaited<ReturnType<typeof startSites>>;
  let proof: DomainProofOptions;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    github = await startFakeGitHub({ clientId: "claim-client", clientSecret: "claim-secret" });
    dnsServer = await startFakeDns();
    web = await startSites();
    // Every domain resolves to loopback, where `web` serves it over plain HTTP on its port.
    proof = {
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
      allowPrivateHosts: true,
      origin: (domain) => `http://${domain}:${web.port}`,
      resolveTxt: dnsServer.resolveTxt,
    };
  });
  afterAll(async () => {
    await Promise.all([github?.close(), dnsServer?.close(), web?.close()]);
    await conn?.close();
  });
  beforeEach(() => {
    setAuthEnv({
      RATE_LIMIT_DISABLED: "1",
      AUTH_GITHUB_ID: "claim-client",
      AUTH_GITHUB_SECRET: "claim-secret",
      GITHUB_OAUTH_URL: github.url,
      GITHUB_API_URL: github.url,
    });
    reloadEnv();
  });

  /** A server on a host the name's namespace covers (<account>.github.io, a host in the domain); elsewhere for other names. */
  const coveredUrl = (upstreamName: string) => {
    const namespace = namespaceOf(upstreamName);
    if (namespace?.kind === "github") return `https://${namespace.account}.github.io/${unique("srv")}/mcp`;
    if (namespace?.kind === "domain") return `https://${unique("srv")}.${namespace.domain}/mcp`;
    return `https://${unique("srv")}.example.net/mcp`;
  };
  const imported = (upstreamName: string, extra: Partial<Parameters<typeof insertListing>[1]> = {}) =>
    insertListing(conn.db, {
      name: upstreamName.split("/").pop()!,
      description: `${upstreamName}, from the MCP Registry.`,
      categories: [],
      serverUrl: coveredUrl(upstreamName),
      status: "approved",
      source: "mcp-registry",
      upstreamName,
      ...extra,
    });
  const ownerOf = async (id: string) =>
    (
      await conn.db
        .select({ submitterId: listings.submitterId, claimedAt: listings.claimedAt })
        .from(listings)
        .where(eq(listings.id, id))
    )[0]!;
  const signIn = async (login: string, scope?: string) => {
    const res = await call(
      exchange,
      jsonRequest("/api/auth/callback", { code: github.issueCode(login, scope ? { scope } : {}) }),
    );
    expect(res.status).toBe(200);
    return (res.body.user as { id: string }).id;
  };
  /** The server's host (loopback here) publishes `userId`'s token in the claim file on its origin, and it is verified. */
  const proveHost = async (userId: string, listingId: string) => {
    const issued = await startDomainClaim(conn.db, userId, listingId);
    web.sites.set(issued.domain, { body: issued.record });
    return verifyDomainClaim(conn.db, userId, listingId, "well-known", proof);
  };
  const newUser = async () =>
    (
      await conn.db
        .insert(users)
        .values({ name: "Domain Owner", email: `${unique("owner")}@example.org` })
        .returning()
    )[0]!.id;

  describe("GitHub", () => {
    it("a sign-in as <login> claims io.github.<login>/… at once, and nothing under another login or submitted here", async () => {
      const login = unique("alice-");
      const mine = await imported(`io.github.${login.toUpperCase()}/weather`); // GitHub names are case-insensitive
      const someoneElses = await imported(`io.github.${unique("bob-")}/weather`);
      const submitted = await insertListing(conn.db, {
        name: "Submitted",
        description: "Submitted here.",
        categories: [],
        serverUrl: `https://${unique("s")}.example.net/mcp`,
        status: "approved",
        upstreamName: `io.github.${login}/x`,
      });
      const userId = await signIn(login);
      expect(await ownerOf(mine.id)).toMatchObject({ submitterId: userId, claimedAt: expect.any(Date) });
      expect((await ownerOf(someoneElses.id)).submitterId).toBeNull();
      expect((await ownerOf(submitted.id)).submitterId).toBeNull();
      // Signed in as the wrong login, the other listing cannot be claimed with a token either.
      expect((await refusal(startDomainClaim(conn.db, userId, someoneElses.id))).message).toMatch(
        /names are claimed by signing in with GitHub, not with a token/,
      );
    });

    it("a name whose namespace only lower-cases to <login> (a Unicode lookalike) is not <login>'s", async () => {
      const rest = unique("evin-");
      // U+212A KELVIN SIGN: PostgreSQL's lower() folds it to "k" as JavaScript's does.
      const lookalike = await imported(`io.github.\u212A${rest}/tool`);
      await signIn(`k${rest}`);
      expect((await ownerOf(lookalike.id)).submitterId).toBeNull();
    });

    it("an organisation's names need its owner role: a member claims nothing, an owner claims them", async () => {
      const org = unique("acme-");
      const login = unique("carol-");
      const listing = await imported(`io.github.${org}/billing`);
      github.setOrgRole(org, login, "member");
      await signIn(login);
      expect((await ownerOf(listing.id)).submitterId).toBeNull();
      github.setOrgRole(org, login, "admin");
      const userId = await signIn(login);
      expect((await ownerOf(listing.id)).submitterId).toBe(userId);
    });

    it("a token without read:org proves the personal namespace only, as the registry does", async () => {
      const org = unique("noscope-");
      const login = unique("dora-");
      const orgListing = await imported(`io.github.${org}/tool`);
      const personal = await imported(`io.github.${login}/tool`);
      github.setOrgRole(org, login, "admin");
      const userId = await signIn(login, "read:user user:email");
      expect((await ownerOf(personal.id)).submitterId).toBe(userId);
      expect((await ownerOf(orgListing.id)).submitterId).toBeNull();
    });

    it("a claimed listing stays with its claimant when someone else proves the namespace later", async () => {
      const login = unique("erin-");
      const listing = await imported(`io.github.${login}/tool`);
      const first = await signIn(login);
      const intruder = await newUser();
      expect((await refusal(startDomainClaim(conn.db, intruder, listing.id))).message).toBe(
        "This listing has already been claimed by its publisher.",
      );
      expect((await refusal(startDomainClaim(conn.db, first, listing.id))).message).toBe(
        "This listing is already yours.",
      );
      expect((await ownerOf(listing.id)).submitterId).toBe(first);
    });
  });

  describe("a domain's well-known file", () => {
    it("claims every unclaimed listing of the namespace with a token served at /.well-known/agora-claim, once", async () => {
      const label = unique("wk");
      const domain = `${label}.example.com`;
      const listing = await imported(`com.example.${label}/search`);
      const sibling = await imported(`com.example.${label}/maps`);
      const userId = await newUser();
      const issued = await startDomainClaim(conn.db, userId, listing.id);
      expect(issued).toMatchObject({
        namespace: `com.example.${label}`,
        domain,
        record: `agora-claim=${issued.token}`,
      });
      web.sites.set(domain, { body: `${issued.record}\n` });
      expect(await verifyDomainClaim(conn.db, userId, listing.id, "well-known", proof)).toEqual({
        namespace: `com.example.${label}`,
        claimed: 2,
      });
      expect((await ownerOf(listing.id)).submitterId).toBe(userId);
      expect((await ownerOf(sibling.id)).submitterId).toBe(userId);
      // Single use: a listing imported later in the same namespace needs a new token.
      const later = await imported(`com.example.${label}/later`);
      const reused = await refusal(verifyDomainClaim(conn.db, userId, later.id, "well-known", proof));
      expect(reused.message).toBe(
        `The token published at http://${domain}:${web.port}/.well-known/agora-claim has already been used. Get a new token and publish it.`,
      );
      expect((await ownerOf(later.id)).submitterId).toBeNull();
    });

    it("refuses a wrong token, another account's token, another namespace's token and an expired one, claiming nothing", async () => {
      const label = unique("bad");
      const domain = `${label}.example.com`;
      const namespace = `com.example.${label}`;
      const listing = await imported(`${namespace}/tool`);
      const userId = await newUser();
      const other = await newUser();
      const url = `http://${domain}:${web.port}/.well-known/agora-claim`;
      const publish = (record: string) => web.sites.set(domain, { body: record });
      const attempt = async () =>
        (await refusal(verifyDomainClaim(conn.db, userId, listing.id, "well-known", proof))).message;

      publish(`agora-claim=${"x".repeat(43)}`);
      expect(await attempt()).toBe(
        `The token published at ${url} is not one Agora gave this account for ${namespace}.`,
      );
      publish((await issueClaimToken(conn.db, other, namespace)).record);
      expect(await attempt()).toBe(
        `The token published at ${url} is not one Agora gave this account for ${namespace}.`,
      );
      publish((await issueClaimToken(conn.db, userId, "com.example.elsewhere")).record);
      expect(await attempt()).toBe(
        `The token published at ${url} is not one Agora gave this account for ${namespace}.`,
      );
      publish((await issueClaimToken(conn.db, userId, namespace, new Date(Date.now() - 49 * 3600_000))).record);
      expect(await attempt()).toBe(`The token published at ${url} has expired. Get a new token and publish it.`);
      publish("nothing to see");
      expect(await attempt()).toBe(`${url} does not contain an Agora claim record (agora-claim=…).`);
      expect((await ownerOf(listing.id)).submitterId).toBeNull();
    });

    it("refuses a file over 4 KB, a redirect, a missing file and a private address", async () => {
      const label = unique("net");
      const domain = `${label}.example.com`;
      const listing = await imported(`com.example.${label}/tool`);
      const userId = await newUser();
      const { record } = await startDomainClaim(conn.db, userId, listing.id);
      const url = `http://${domain}:${web.port}/.well-known/agora-claim`;
      const attempt = async (options = proof) =>
        (await refusal(verifyDomainClaim(conn.db, userId, listing.id, "well-known", options))).message;

      web.sites.set(domain, { body: `${record}\n${"#".repeat(5000)}` });
      expect(await attempt()).toBe(`${url} is larger than 4 KB. Serve only the claim record.`);
      web.sites.set(domain, {
        status: 302,
        headers: { location: `http://elsewhere.example.com:${web.port}/.well-known/agora-claim` },
      });
      expect(await attempt()).toBe(
        `${url} answered with a redirect (302). Serve the file there directly: redirects are not followed.`,
      );
      web.sites.delete(domain);
      expect(await attempt()).toBe(`${url} answered 404. It must answer 200 with the claim record.`);
      web.sites.set(domain, { body: record });
      expect(await attempt({ ...proof, allowPrivateHosts: false })).toBe(
        `${url} was not fetched: ${domain} resolves to a private or reserved address.`,
      );
      expect((await ownerOf(listing.id)).submitterId).toBeNull();
      // The same token, served properly, still works: refusals did not use it up.
      expect((await verifyDomainClaim(conn.db, userId, listing.id, "well-known", proof)).claimed).toBe(1);
    });
  });

  describe("a domain's TXT record", () => {
    it("claims with the token in a TXT record at the apex (split into strings, among other records)", async () => {
      const label = unique("txt");
      const domain = `${label}.example.org`;
      const listing = await imported(`org.example.${label}/tool`);
      const userId = await newUser();
      const { record } = await startDomainClaim(conn.db, userId, listing.id);
      dnsServer.txt.set(domain, [["v=spf1 -all"], [record.slice(0, 20), record.slice(20)]]);
      expect(await verifyDomainClaim(conn.db, userId, listing.id, "dns", proof)).toEqual({
        namespace: `org.example.${label}`,
        claimed: 1,
      });
      expect((await ownerOf(listing.id)).submitterId).toBe(userId);
    });

    it("says so when no TXT record carries a token, whether the name has other records or none", async () => {
      const label = unique("notxt");
      const domain = `${label}.example.org`;
      const listing = await imported(`org.example.${label}/tool`);
      const userId = await newUser();
      await startDomainClaim(conn.db, userId, listing.id);
      const missing = `No TXT record at ${domain} carries an Agora claim record (agora-claim=…).`;
      expect((await refusal(verifyDomainClaim(conn.db, userId, listing.id, "dns", proof))).message).toBe(missing); // NXDOMAIN
      dnsServer.txt.set(domain, []);
      expect((await refusal(verifyDomainClaim(conn.db, userId, listing.id, "dns", proof))).message).toBe(missing); // NODATA
      dnsServer.txt.set(domain, [["google-site-verification=abc"]]);
      expect((await refusal(verifyDomainClaim(conn.db, userId, listing.id, "dns", proof))).status).toBe(403);
      expect((await ownerOf(listing.id)).submitterId).toBeNull();
    });
  });

  it("refuses to claim a listing submitted on Agora, an unknown id, and a name no rule can prove", async () => {
    const userId = await newUser();
    const submitted = await insertListing(conn.db, {
      name: "Here",
      description: "Submitted.",
      categories: [],
      serverUrl: `https://${unique("h")}.example.net/mcp`,
      status: "approved",
    });
    expect(await refusal(startDomainClaim(conn.db, userId, submitted.id))).toMatchObject({ status: 400 });
    expect(await refusal(startDomainClaim(conn.db, userId, "00000000-0000-4000-8000-000000000000"))).toMatchObject({
      status: 404,
    });
    const odd = await imported("localhost/tool");
    expect((await refusal(startDomainClaim(conn.db, userId, odd.id))).message).toBe(
      "localhost/tool is neither an io.github name nor a reverse-DNS name, so no rule can prove who publishes it.",
    );
  });

  it("never hands over a listing found in an x402 discovery list: its name there is whatever the list says, proven by no one", async () => {
    const login = unique("mallory-");
    const label = unique("disc");
    // A discovery list's serviceName is not a registry name: anyone who gets a resource into the list picks it.
    const byGitHubName = await imported(`io.github.${login}/weather`, { source: "x402-discovery" });
    const byDomainName = await imported(`com.example.${label}/weather`, { source: "x402-discovery" });
    const userId = await signIn(login);
    expect((await ownerOf(byGitHubName.id)).submitterId).toBeNull();
    const refused = await refusal(startDomainClaim(conn.db, userId, byGitHubName.id));
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.message).toBe(
      "This listing was found in an x402 discovery list, which does not prove who publishes it: only listings imported from the MCP Registry can be claimed.",
    );
    expect(await refusal(startDomainClaim(conn.db, userId, byDomainName.id))).toMatchObject({ status: 400 });
    expect(await claimPage(conn.db, userId, byDomainName.id)).toBeNull();
    expect((await ownerOf(byDomainName.id)).submitterId).toBeNull();
  });

  describe("after a claim", () => {
    let registry: FixtureRegistry;
    let paid: Awaited<ReturnType<typeof startPricedServer>>;
    beforeAll(async () => {
      paid = await startPricedServer({
        items: [{ name: "instant-answer", amount: 0.02 }],
        wallet: "0x3333333333333333333333333333333333333333",
        extraTool: false,
      });
      const server = {
        ...fixture("io.github.golfgolfgolf200.warppay402-server.json"),
        transports: { "streamable-http": { url: paid.url } },
      };
      registry = await startFixtureRegistry([{ server, updatedAt: "2026-01-07T00:00:00Z" }]);
    });
    afterAll(async () => {
      await Promise.all([registry?.close(), paid?.close()]);
    });

    it("the owner edits the imported listing like a submitted one, and an upstream update never overwrites the edited field", async () => {
      const loopback = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 5_000 };
      const sources = parseIngestSources(`mcp-registry=${registry.url}`);
      await runIngest(conn.db, sources, loopback);
      const [listing] = await conn.db
        .select()
        .from(listings)
        .where(eq(listings.upstreamName, "io.github.golfgolfgolf200/warppay402-server"));
      expect(listing).toMatchObject({ submitterId: null, name: "warppay402-server" });

      // Its remote is on a host the io.github name does not cover: signing in is not enough, the host proves it.
      const owner = await signIn("golfgolfgolf200");
      expect((await ownerOf(listing!.id)).submitterId).toBeNull();
      await proveHost(owner, listing!.id);
      expect((await ownerOf(listing!.id)).submitterId).toBe(owner);
      const edited = await resubmitListing(conn.db, owner, listing!.id, {
        name: listing!.name,
        description: "Written by the owner: pay per answer in USDC.",
        mcpServerUrl: listing!.serverUrl,
        websiteUrl: listing!.websiteUrl,
        categories: ["Finance"],
      });
      // Approved, it stays in the catalogue as it was while the edit waits for review; a reviewer applies it.
      expect(edited.kind).toBe("pending-edit");
      expect(
        (
          await conn.db
            .select({ status: listings.status, description: listings.description })
            .from(listings)
            .where(eq(listings.id, listing!.id))
        )[0],
      ).toEqual({
        status: "approved",
        description: listing!.description,
      });
      await checkListingEdit(conn.db, listing!.id, loopback);
      const reviewer = await newUser();
      const decided = await decideListingEdit(conn.db, listing!.id, reviewer, {
        decision: "approved",
        reason: null,
        revision: edited.kind === "pending-edit" ? edited.edit.revision : 0,
      });
      expect(decided.ok && decided.listing).toMatchObject({ status: "approved", editedFields: ["description"] });

      // Upstream publishes a new version with a new title and description: the title arrives, the description stays the owner's.
      const entry = registry.entries[0]!;
      registry.entries.push({
        server: { ...(entry.server as object), title: "WarpPay 402", description: "Upstream's new description." },
        updatedAt: "2026-02-01T00:00:00Z",
      });
      registry.entries.shift();
      await runIngest(conn.db, sources, loopback);
      const [after] = await conn.db.select().from(listings).where(eq(listings.id, listing!.id));
      expect(after).toMatchObject({
        name: "WarpPay 402",
        description: "Written by the owner: pay per answer in USDC.",
        submitterId: owner,
        categories: ["Finance"],
      });
      expect(after!.searchText).toContain("warppay 402");
    });
  });

  describe("a name covers a server only where its namespace covers the host", () => {
    let registry: FixtureRegistry;
    let paid: Awaited<ReturnType<typeof startPricedServer>>;
    const label = unique("vic");
    // The victim's server, on a host in its own domain (resolved to loopback for the checks).
    const domain = `${label}.example`;
    let remote: string;
    beforeAll(async () => {
      paid = await startPricedServer({
        items: [{ name: "forecast", amount: 0.02 }],
        wallet: "0x5555555555555555555555555555555555555555",
        extraTool: false,
      });
      remote = paid.url.replace("127.0.0.1", `weather.${domain}`);
      registry = await startFixtureRegistry([]);
    });
    afterAll(async () => {
      await Promise.all([registry?.close(), paid?.close()]);
    });

    it("ingesting io.github.attacker/weather and then com.victim/weather with the same remote gives the listing to the victim's namespace, not the attacker's", async () => {
      const options = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 5_000, lookup: proof.lookup };
      const sources = parseIngestSources(`mcp-registry=${registry.url}`);
      const attackerLogin = unique("attacker-");
      const entry = (name: string, description: string, updatedAt: string) => ({
        server: { name, title: "Weather", description, remotes: [{ type: "streamable-http", url: remote }] },
        updatedAt,
      });
      registry.entries.push(
        entry(`io.github.${attackerLogin}/weather`, "The attacker's words.", "2026-01-01T00:00:00Z"),
      );
      await runIngest(conn.db, sources, options);
      const [listing] = await conn.db.select().from(listings).where(eq(listings.serverUrl, remote));
      expect(listing).toMatchObject({
        upstreamName: `io.github.${attackerLogin}/weather`,
        status: "approved",
        submitterId: null,
      });
      // The attacker's GitHub sign-in proves io.github.<attacker>, which says nothing about weather.<victim's domain>.
      const attacker = await signIn(attackerLogin);
      expect((await ownerOf(listing!.id)).submitterId).toBeNull();

      const victimNamespace = `example.${label}`;
      registry.entries.push(entry(`${victimNamespace}/weather`, "The victim's own words.", "2026-01-02T00:00:00Z"));
      await runIngest(conn.db, sources, options);
      const [after] = await conn.db.select().from(listings).where(eq(listings.id, listing!.id));
      expect(after).toMatchObject({
        upstreamName: `${victimNamespace}/weather`,
        description: "The victim's own words.",
        status: "approved",
        submitterId: null,
      });
      const [candidate] = await conn.db.select().from(ingestedServers).where(eq(ingestedServers.remoteUrl, remote));
      expect(candidate).toMatchObject({ upstreamName: `${victimNamespace}/weather` });
      // The attacker's entry, updated or deleted later, no longer touches it.
      registry.entries.splice(0, 1, {
        ...entry(`io.github.${attackerLogin}/weather`, "Refunds to the attacker.", "2026-01-03T00:00:00Z"),
        status: "deleted",
      });
      await runIngest(conn.db, sources, options);
      expect((await conn.db.select().from(listings).where(eq(listings.id, listing!.id)))[0]).toMatchObject({
        status: "approved",
        upstreamName: `${victimNamespace}/weather`,
      });

      // The attacker can claim nothing; the victim proves the domain and claims it.
      expect((await claimPage(conn.db, attacker, listing!.id))!.namespace).toMatchObject({ kind: "domain", domain });
      const victim = await newUser();
      const issued = await startDomainClaim(conn.db, victim, listing!.id);
      web.sites.set(domain, { body: issued.record });
      expect(await verifyDomainClaim(conn.db, victim, listing!.id, "well-known", proof)).toEqual({
        namespace: victimNamespace,
        claimed: 1,
      });
      expect((await ownerOf(listing!.id)).submitterId).toBe(victim);
    });

    it("a domain namespace does not claim a server outside its domain: only that server's host can", async () => {
      const own = unique("dom");
      const outside = await imported(`com.example.${own}/tool`, {
        serverUrl: `https://${unique("api")}.elsewhere.example.net/mcp`,
      });
      const covered = await imported(`com.example.${own}/covered`);
      const domainOwner = await newUser();
      const claim = await claimPage(conn.db, domainOwner, outside.id);
      expect(claim!.namespace).toMatchObject({
        kind: "host",
        host: new URL(outside.serverUrl).hostname,
        origin: new URL(outside.serverUrl).origin,
      });
      // Proving the domain claims the listing whose server lies in it, not the other.
      const issued = await startDomainClaim(conn.db, domainOwner, covered.id);
      web.sites.set(`${own}.example.com`, { body: issued.record });
      expect(await verifyDomainClaim(conn.db, domainOwner, covered.id, "well-known", proof)).toEqual({
        namespace: `com.example.${own}`,
        claimed: 1,
      });
      expect((await ownerOf(outside.id)).submitterId).toBeNull();
      expect((await ownerOf(covered.id)).submitterId).toBe(domainOwner);
      // The host proves itself only with the file on its own origin, not with DNS.
      expect((await refusal(verifyDomainClaim(conn.db, domainOwner, outside.id, "dns", proof))).status).toBe(400);
    });

    it("an io.github name pointing at someone else's host claims it only with the host's file, and the host's owner takes it over", async () => {
      const login = unique("squatter-");
      const host = `${unique("svc")}.example.org`;
      const listing = await imported(`io.github.${login}/api`, { serverUrl: `https://${host}/v1/mcp` });
      const neighbour = await imported(`io.github.${unique("other-")}/api2`, { serverUrl: `https://${host}/v2/mcp` });
      const squatter = await signIn(login);
      expect((await ownerOf(listing.id)).submitterId).toBeNull();
      // Without the host's file there is nothing to verify.
      await startDomainClaim(conn.db, squatter, listing.id);
      expect((await refusal(verifyDomainClaim(conn.db, squatter, listing.id, "well-known", proof))).message).toBe(
        `http://${host}:${web.port}/.well-known/agora-claim answered 404. It must answer 200 with the claim record.`,
      );
      expect((await ownerOf(listing.id)).submitterId).toBeNull();

      // A claim made before this rule (the squatter holds it): the host's owner publishes its token and takes over
      // every listing on the origin whose name does not cover the host.
      await conn.db
        .update(listings)
        .set({ submitterId: squatter, claimedAt: new Date() })
        .where(eq(listings.id, listing.id));
      const hostOwner = await newUser();
      expect((await claimPage(conn.db, hostOwner, listing.id))?.state).toBe("open");
      const issued = await startDomainClaim(conn.db, hostOwner, listing.id);
      expect(issued).toMatchObject({ namespace: `https://${host}`, domain: host });
      web.sites.set(host, { body: issued.record });
      expect(await verifyDomainClaim(conn.db, hostOwner, listing.id, "well-known", proof)).toEqual({
        namespace: `https://${host}`,
        claimed: 2,
      });
      expect((await ownerOf(listing.id)).submitterId).toBe(hostOwner);
      expect((await ownerOf(neighbour.id)).submitterId).toBe(hostOwner);
      expect((await refusal(startDomainClaim(conn.db, hostOwner, listing.id))).message).toBe(
        "This listing is already yours.",
      );
    });
  });

  describe("another publisher's entry for the same server", () => {
    let registry: FixtureRegistry;
    let paid: Awaited<ReturnType<typeof startPricedServer>>;
    const victim = "io.github.victimvictim/pay-tool";
    beforeAll(async () => {
      paid = await startPricedServer({
        items: [{ name: "instant-answer", amount: 0.02 }],
        wallet: "0x4444444444444444444444444444444444444444",
        extraTool: false,
      });
      const server = {
        name: victim,
        title: "Pay Tool",
        description: "The victim's own words.",
        remotes: [{ type: "streamable-http", url: paid.url }],
      };
      registry = await startFixtureRegistry([{ server, updatedAt: "2026-01-07T00:00:00Z" }]);
    });
    afterAll(async () => {
      await Promise.all([registry?.close(), paid?.close()]);
    });

    it("can neither rewrite nor take down a listing imported under another name, claimed or not", async () => {
      const loopback = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 5_000 };
      const sources = parseIngestSources(`mcp-registry=${registry.url}`);
      await runIngest(conn.db, sources, loopback);
      const [listing] = await conn.db.select().from(listings).where(eq(listings.upstreamName, victim));
      expect(listing).toMatchObject({ name: "Pay Tool", status: "approved" });
      const owner = await signIn("victimvictim");
      await proveHost(owner, listing!.id);
      expect((await ownerOf(listing!.id)).submitterId).toBe(owner);

      // Anyone can publish a name in their own namespace whose remote is somebody else's server, then delete it.
      const copycat = {
        name: "io.github.mallorymallory/pay-tool",
        title: "Pay Tool (send refunds to mallory)",
        description: "Mallory's words.",
        remotes: [{ type: "streamable-http", url: paid.url }],
      };
      registry.entries.push({ server: copycat, updatedAt: "2026-02-01T00:00:00Z" });
      await runIngest(conn.db, sources, loopback);
      registry.entries.splice(1, 1, { server: copycat, updatedAt: "2026-02-02T00:00:00Z", status: "deleted" });
      await runIngest(conn.db, sources, loopback);

      const [after] = await conn.db.select().from(listings).where(eq(listings.id, listing!.id));
      expect(after).toMatchObject({
        name: "Pay Tool",
        description: "The victim's own words.",
        status: "approved",
        upstreamName: victim,
        upstreamStatus: "active",
        submitterId: owner,
      });
      const [candidate] = await conn.db.select().from(ingestedServers).where(eq(ingestedServers.remoteUrl, paid.url));
      expect(candidate).toMatchObject({ upstreamName: victim, status: "active" });
    });
  });
});
