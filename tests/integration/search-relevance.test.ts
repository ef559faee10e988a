// The judged query set: queries and the listing a person expects first, over the sample catalogue plus noise
// built to compete (synthetic listings, and verified listings that mention the query words only in passing).
// Run on PGlite and, with DATABASE_URL, on PostgreSQL. If ranking regresses, one of these names moves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { searchCatalogue } from "@/lib/listings/search/search";
import { rowsOf } from "@/db/rows";
import { matchesName, matchesSearchText } from "@/db/queries/search/match";
import { planSearch, sampleCounts, sampleStats, searchPlanning } from "@/db/queries/search/plan";
import { RANK_WINDOW, SEARCH_WINDOW } from "@/db/queries/search/rank";
import { searchTerms } from "@/db/queries/search/terms";
import { sql } from "drizzle-orm";
import { seedSampleCatalogue, seedSynthetic } from "@/lib/sample-catalogue/seed";
import { GET as list } from "@/app/api/mcp-agents/route";
import { createRegistryServer } from "@/lib/registry/mcp-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { withDefaultSort } from "@/lib/validations/marketplace";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

// [query, the listing that must come first, what the case is about]
const JUDGED: [string, string, string][] = [
  ["Weather Now", "Weather Now", "exact name above verified listings that say 'weather now' in their description"],
  ["image studio", "Image Studio", "exact name above a verified 'Image Studio Pro Max' and a description match"],
  ["AI-Powered Web Scraper", "AI-Powered Web Scraper", "punctuation in the query and the name"],
  ["token", "Token Price Oracle", "name prefix above synthetic names that hold the word later"],
  ["geocodr", "Geocoder", "a typo (one letter missing)"],
  ["transcribr audio", "Audio Transcriber", "a typo in one of two words"],
  ["bubble tea", "Boba Order Bot", "two words found only in a description"],
  ["exchange rates", "Currency Converter", "two words, description"],
  ["web search", "Semantic Web Search", "two words both in the name beat one in the name"],
  ["SEC filings", "SEC Filings Explorer", "two words, name, mixed case"],
  ["travel", "Route Planner", "a category word: category and description beat a verified description-only mention"],
  [
    "maps",
    "Geocoder",
    "a category word shared by two listings: the tie goes by name, above a verified description mention",
  ],
  ["find me a weather server!!", "Weather Now", "stop-words and punctuation are ignored"],
  ["the best pdf tools?", "PDF Toolkit", "stop-words around a word"],
];

describe.each(drivers())("search relevance on %s", (driver) => {
  let conn: TestConnection;
  const first = async (q: string) =>
    (
      await searchCatalogue(conn.db, withDefaultSort({ q, category: "", price: "all" as const }), {
        limit: 5,
        offset: 0,
      })
    ).items;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await seedSampleCatalogue(conn.db);
    await seedSynthetic(conn.db, 1100);
    // Verified noise that mentions the judged words only in passing.
    const noise = [
      {
        name: "Forecast Hub",
        description: "Weather now and later: a verified aggregator that mentions weather now in its text.",
        categories: ["Data"],
      },
      {
        name: "Climate Desk",
        description: "Weather now, tomorrow and historical climate series for researchers.",
        categories: ["Data"],
      },
      { name: "Image Studio Pro Max", description: "A bigger image studio with more styles.", categories: ["Images"] },
      { name: "Studio Lights", description: "Controls image studio lighting rigs.", categories: ["Hardware"] },
      { name: "Trip Journal", description: "Writes a travel diary from your photos.", categories: ["Lifestyle"] },
      { name: "Atlas Printer", description: "Prints maps and posters on demand.", categories: ["Commerce"] },
      { name: "Rate Watch", description: "Alerts when interest rates change at your bank.", categories: ["Finance"] },
      {
        name: "Tea Timer",
        description: "A timer for steeping tea, bubble wrap not included.",
        categories: ["Lifestyle"],
      },
    ];
    for (const [i, n] of noise.entries()) {
      await insertListing(conn.db, {
        ...n,
        price: 0.01,
        verified: true,
        serverUrl: `https://noise-${i}.example.com/mcp`,
        status: "approved",
      });
    }
  }, 120_000);
  afterAll(async () => conn?.close());

  it.each(JUDGED)("%s → %s first (%s)", async (q, expected) => {
    const items = await first(q);
    expect(items[0]?.name).toBe(expected);
  });

  it("a misspelled common word still finds what it means: 'scrapper' finds scrapers", async () => {
    const items = await first("scrapper");
    expect(items.length).toBe(5);
    for (const item of items) expect(item.name).toMatch(/scraper/i);
  });

  it("every word counts: a listing matching only some words is left out", async () => {
    const items = (
      await searchCatalogue(conn.db, withDefaultSort({ q: "bubble tea", category: "", price: "all" as const }), {
        limit: 50,
        offset: 0,
      })
    ).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((i) => i.name)).not.toContain("Rate Watch"); // "rates" alone is not "bubble tea"
    expect(items.every((i) => /bubble/i.test(i.description + i.name) && /tea/i.test(i.description + i.name))).toBe(
      true,
    );
  });

  it("the other sorts stay available with a query, over the same matches", async () => {
    const q = "weather now";
    const byRelevance = await searchCatalogue(conn.db, withDefaultSort({ q, category: "", price: "all" as const }), {
      limit: 100,
      offset: 0,
    });
    const byName = await searchCatalogue(
      conn.db,
      { q, category: "", price: "all", sort: "name" },
      { limit: 100, offset: 0 },
    );
    expect(byName.total).toBe(byRelevance.total);
    expect(new Set(byName.items.map((i) => i.id))).toEqual(new Set(byRelevance.items.map((i) => i.id)));
    const names = byName.items.map((i) => i.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it("queries with no letters or only LIKE wildcards neither fail nor match everything", async () => {
    expect(await first("%_%")).toEqual([]);
    expect(await first("?!")).toEqual([]);
    expect(await first("zzqxv")).toEqual([]);
    expect(await first("zzqxv%")).toEqual([]);
  });

  it("counts stop at 1,000 and say so; a common word pages through its best matches", async () => {
    const search = (offset: number) =>
      searchCatalogue(conn.db, withDefaultSort({ q: "synthetic", category: "", price: "all" as const }), {
        limit: 24,
        offset,
      });
    expect(await search(0)).toMatchObject({ total: 1000, capped: true });
    expect((await search(990)).items).toHaveLength(10);
    expect((await search(1000)).items).toHaveLength(0);
    const browse = await searchCatalogue(conn.db, withDefaultSort({ q: "", category: "", price: "all" as const }), {
      limit: 24,
      offset: 0,
    });
    expect(browse).toMatchObject({ total: 1000, capped: true });
  });

  it("a word with more matches than the first pages rank still counts exactly and pages through every match once", async () => {
    // A word the synthetic catalogue holds more often than RANK_WINDOW but less than SEARCH_WINDOW.
    const exact = async (w: string) =>
      Number(
        rowsOf<{ n: number }>(
          await conn.db.execute(
            sql`select count(*)::int as n from listings where status = 'approved' and search_text like ${`%${w}%`}`,
          ),
        )[0]!.n,
      );
    let word: string | undefined;
    let matches = 0;
    for (const w of [
      "oracle",
      "scraper",
      "ledger",
      "vision",
      "search",
      "secure",
      "fast",
      "finance",
      "audio",
      "travel",
      "data",
    ]) {
      matches = await exact(w);
      if (matches > RANK_WINDOW && matches < SEARCH_WINDOW) {
        word = w;
        break;
      }
    }
    expect(word, "the seeded catalogue should hold such a word").toBeDefined();
    const search = (offset: number) =>
      searchCatalogue(conn.db, withDefaultSort({ q: word!, category: "", price: "all" as const }), {
        limit: 50,
        offset,
      });
    const firstPage = await search(0);
    expect(firstPage).toMatchObject({ total: matches, capped: false });
    const seen: string[] = [];
    for (let offset = 0; offset < matches; offset += 50) seen.push(...(await search(offset)).items.map((i) => i.id));
    expect(seen).toHaveLength(matches);
    expect(new Set(seen).size).toBe(matches);
    expect(seen.slice(0, 50)).toEqual(firstPage.items.map((i) => i.id));
  });

  const syntheticName = async (i = 1) =>
    rowsOf<{ name: string }>(await conn.db.execute(sql`select name from listings where slug = ${`synthetic-${i}`}`))[0]!
      .name;

  it("a word of one or two letters matches where a word starts: 'ai' finds AI listings, not every 'email' or 'detail'", async () => {
    const all = (
      await searchCatalogue(conn.db, withDefaultSort({ q: "ai", category: "", price: "all" as const }), {
        limit: 100,
        offset: 0,
      })
    ).items;
    expect(all.map((i) => i.name)).toContain("AI-Powered Web Scraper");
    for (const i of all)
      expect(`${i.name}\n${i.description}\n${i.categories.join(", ")}`.toLowerCase()).toMatch(/(^|[^\p{L}\p{N}_])ai/u);
    // A name typed halfway: the last, unfinished word is a word's start.
    const [adjective, domain, noun] = (await syntheticName()).split(" ");
    expect((await first(`${adjective} ${domain} ${noun!.slice(0, 2)}`))[0]?.name).toMatch(
      new RegExp(`^${adjective} ${domain} ${noun} `),
    );
  });

  it("reads matches the same whichever way the probe judges them: by index, in table order, or in table order cut short", async () => {
    const [adjective, domain, noun] = (await syntheticName()).toLowerCase().split(" ");
    const late = (await syntheticName(1050)).toLowerCase(); // its number is in no row the probe reads
    const queries = [
      late,
      adjective!,
      `${adjective} ${domain}`,
      `${adjective} ${domain} ${noun!.slice(0, 2)}`,
      "ai",
      "weather",
      "bubble tea",
      "scrapper",
      "zzqxv",
      "web search",
      "synthetic",
    ];
    const answers = async () => {
      const out: unknown[] = [];
      for (const q of queries) {
        const page = await searchCatalogue(conn.db, withDefaultSort({ q, category: "", price: "all" as const }), {
          limit: 24,
          offset: 0,
        });
        const byName = await searchCatalogue(
          conn.db,
          { q, category: "", price: "all", sort: "name" },
          { limit: 24, offset: 0 },
        );
        out.push([
          q,
          page.total,
          page.capped,
          page.items.map((i) => i.name),
          byName.total,
          byName.items.map((i) => i.name),
        ]);
      }
      return out;
    };
    const saved = { ...searchPlanning };
    try {
      Object.assign(searchPlanning, { sampleRows: 1_000_000 }); // the catalogue looks small: every search by index
      expect(await planSearch(conn.db, searchTerms("synthetic")!, sql`true`)).toMatchObject({
        textDense: false,
        nameDense: false,
        recheckOnly: [],
      });
      const byIndex = await answers();
      Object.assign(searchPlanning, { sampleRows: 400 }); // common words are read in table order
      expect(await planSearch(conn.db, searchTerms(adjective!)!, sql`true`)).toMatchObject({
        textDense: true,
        nameDense: true,
      });
      // A rare word (the number) leads the index; the common words are checked on what it found.
      expect((await planSearch(conn.db, searchTerms(late)!, sql`true`)).recheckOnly).toEqual(
        late.split(" ").slice(0, 3),
      );
      expect(await answers()).toEqual(byIndex);
      Object.assign(searchPlanning, { scanRows: 300 }); // ... and that read stops short of the count: the index counts
      expect(await answers()).toEqual(byIndex);
    } finally {
      Object.assign(searchPlanning, saved);
    }
  });

  it("plans searches from one probe sample read once a minute, with the plans a fresh read gives", async () => {
    const [adjective, domain] = (await syntheticName()).toLowerCase().split(" ");
    const late = (await syntheticName(1050)).toLowerCase();
    const number = late.split(" ").at(-1)!;
    const saved = { ...searchPlanning };
    try {
      Object.assign(searchPlanning, { sampleRows: 400 }); // the seeded catalogue looks large: common words are dense
      const plan = (q: string) => planSearch(conn.db, searchTerms(q)!, sql`true`);
      const fresh = await Promise.all([`${adjective} ${number}`, "zzqxv", `${adjective} ${domain}`].map(plan));
      const before = { ...sampleStats() };
      // Other searches on the same filter within the minute: no read, each word counted in the sample in memory.
      const again = [
        await plan(`${number} ${adjective}`),
        await plan(`zzqxv ${adjective}`),
        await plan("zzqxv"),
        await plan(`${domain} ${adjective}`),
      ];
      expect(sampleStats()).toEqual({ reads: before.reads, reused: before.reused + 4 });
      // A common word with one in no sampled row: the index, led by the rare one; common words together: table order.
      expect(again[0]).toEqual({ textDense: false, nameDense: false, recheckOnly: [adjective] });
      expect(again[1]).toEqual({ textDense: false, nameDense: false, recheckOnly: [adjective] });
      expect(fresh[2]).toMatchObject({ textDense: true, nameDense: true });
      expect(again[3]).toEqual(fresh[2]);
      // Another filter is another sample; another probe size too.
      await planSearch(conn.db, searchTerms("zzqxv")!, sql`categories @> array['Data']`);
      expect(sampleStats().reads).toBe(before.reads + 1);
      Object.assign(searchPlanning, { sampleRows: 401 });
      await plan("zzqxv");
      expect(sampleStats().reads).toBe(before.reads + 2);
    } finally {
      Object.assign(searchPlanning, saved);
    }
  });

  it("counts words in the probe sample in memory exactly as the statement would count them", async () => {
    const [adjective, domain, noun] = (await syntheticName()).toLowerCase().split(" ");
    const late = (await syntheticName(1050)).toLowerCase();
    const queries = [
      adjective!,
      `${adjective} ${domain}`,
      `${domain} ${noun!.slice(0, 2)}`,
      late,
      "ai",
      "we",
      "a",
      "web search",
      "weather",
      "zzqxv",
      "snake_case",
      "café",
      "ünïcode 東京",
    ];
    const saved = { ...searchPlanning };
    try {
      Object.assign(searchPlanning, { sampleRows: 400 });
      for (const filter of [sql`true`, sql`categories @> array['Data']`, sql`price <= 0.01`]) {
        for (const q of queries) {
          const terms = searchTerms(q)!;
          const perWord = terms.words.map(
            (w, i) =>
              sql`, (count(*) filter (where ${matchesSearchText({ ...terms, words: [w] }, "scan")}))::int as ${sql.raw(`w${i}`)}`,
          );
          const [row] = rowsOf<Record<string, number>>(
            await conn.db.execute(sql`
              select count(*)::int as seen, (count(*) filter (where ${matchesSearchText(terms, "scan")}))::int as text,
                     (count(*) filter (where ${matchesName(terms, "scan")}))::int as name ${sql.join(perWord, sql``)}
              from (select name, search_text from listings where status = 'approved' and ${filter} limit 400) probe`),
          );
          const expected = {
            seen: Number(row!.seen),
            text: Number(row!.text),
            name: Number(row!.name),
            words: terms.words.map((_, i) => Number(row![`w${i}`])),
          };
          expect(await sampleCounts(conn.db, terms, filter), q).toEqual(expected);
        }
      }
    } finally {
      Object.assign(searchPlanning, saved);
    }
  });

  it("the page's API and the MCP tool give the same first result as the query module", async () => {
    for (const [q, expected] of [
      ["geocodr", "Geocoder"],
      ["bubble tea", "Boba Order Bot"],
      ["travel", "Route Planner"],
    ] as const) {
      const res = await list(new Request(`http://localhost/api/mcp-agents?q=${encodeURIComponent(q)}&limit=3`));
      expect(((await res.json()) as { name: string }[])[0]?.name).toBe(expected);
      const server = createRegistryServer(conn.db);
      const [a, b] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: "judge", version: "1.0.0" });
      await Promise.all([server.connect(a), client.connect(b)]);
      const answer = (await client.callTool({ name: "search_servers", arguments: { query: q, limit: 3 } }))
        .structuredContent as { servers: { name: string }[] };
      expect(answer.servers[0]?.name).toBe(expected);
      await client.close();
    }
  });
});
