import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { sampleCatalogue } from "@/lib/sample-catalogue/catalogue";
import { GET as list } from "@/app/api/mcp-agents/route";
import { GET as one } from "@/app/api/mcp-agents/[id]/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

type Agent = {
  id: string;
  name: string;
  description: string;
  categories: string;
  price: number | null;
  verified: boolean;
  createdAt: string;
  website_url: string | null;
};

const get = (query = "", headers: Record<string, string> = {}) =>
  list(new Request(`http://localhost/api/mcp-agents${query}`, { headers }));
const getOne = (id: string) =>
  one(new Request(`http://localhost/api/mcp-agents/${id}`), { params: Promise.resolve({ id }) });
const names = async (res: Response) => ((await res.json()) as Agent[]).map((a) => a.name);

describe.each(drivers())("GET /api/mcp-agents on %s", (driver) => {
  let conn: TestConnection;
  const approved = sampleCatalogue.length + 3;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await seedSampleCatalogue(conn.db);
    // Edge cases the sample lacks: a zero price, a category that contains another's name, LIKE wildcards, markup.
    await insertListing(conn.db, {
      name: "Zero Priced Tool",
      description: "Costs exactly zero dollars per call.",
      categories: ["AI Tools"],
      price: 0,
      serverUrl: "https://zero.example.com/mcp",
      status: "approved",
    });
    await insertListing(conn.db, {
      name: "Percent 100% Sure",
      description: "A name with a LIKE wildcard in it_ok.",
      categories: ["Data"],
      price: 0.5,
      serverUrl: "https://pct.example.com/mcp",
      status: "approved",
    });
    await insertListing(conn.db, {
      name: "<script>alert('x')</script> Tool",
      description: "<img src=x onerror=alert(1)> markup stays text",
      categories: ["Security"],
      price: 0.01,
      serverUrl: "https://xss.example.com/mcp",
      status: "approved",
    });
  });
  afterAll(async () => conn?.close());

  it("lists approved listings in the spec's shape, never pending or rejected ones", async () => {
    const res = await get("?limit=1000");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as Agent[];
    expect(body).toHaveLength(approved);
    expect(res.headers.get("x-total-count")).toBe(String(approved));
    // The spec's fields keep their shapes; what the probe knows follows them.
    expect(Object.keys(body[0]!).sort()).toEqual(
      ["categories", "createdAt", "description", "id", "name", "price", "verified", "website_url"]
        .concat([
          "lastCheckedAt",
          "reachable",
          "uptime30d",
          "tools",
          "pricedItems",
          "paymentMethods",
          "paymentStyle",
          "lastVerification",
          "protocolVersion",
          "drift",
          "sales",
          "testPurchase",
          "delivery30d",
        ])
        .concat(["source", "upstream"])
        .sort(),
    );
    const scraper = body.find((a) => a.name === "AI-Powered Web Scraper")!;
    expect(scraper.categories).toBe("AI, Data, Search");
    expect(scraper.price).toBe(0.02);
    expect(new Date(scraper.createdAt).toISOString()).toBe(scraper.createdAt);
    expect(body.map((a) => a.name)).not.toContain("Pending Review Example");
    expect(body.map((a) => a.name)).not.toContain("Rejected Example");
  });

  it("searches name, description and categories case-insensitively", async () => {
    expect(await names(await get("?q=SCRAPER"))).toContain("AI-Powered Web Scraper");
    expect(await names(await get("?q=bubble%20tea"))).toEqual(["Boba Order Bot"]);
    const web3 = await names(await get("?q=web3&limit=1000"));
    expect(web3).toContain("Gas Fee Estimator");
    expect(web3.length).toBe(
      sampleCatalogue.filter((s) => s.categories.includes("Web3") || /web3/i.test(s.name + s.description)).length,
    );
  });

  it("treats LIKE wildcards in the search text literally", async () => {
    // Punctuation separates words ("100%" is the word 100); '_' belongs to a word, as in tool names.
    expect((await names(await get("?q=100%25")))[0]).toBe("Percent 100% Sure");
    expect(await names(await get("?q=it_ok"))).toEqual(["Percent 100% Sure"]);
    expect(await names(await get("?q=%25%25%25"))).toEqual([]);
  });

  it("filters by exact category name", async () => {
    const ai = await names(await get("?category=AI&limit=1000"));
    expect(ai).toHaveLength(sampleCatalogue.filter((s) => s.categories.includes("AI")).length);
    expect(ai).not.toContain("Zero Priced Tool");
    expect(await names(await get("?category=AI%20Tools"))).toEqual(["Zero Priced Tool"]);
    expect(await names(await get("?category=ai"))).toEqual([]);
    expect((await get("?category=all")).headers.get("x-total-count")).toBe(String(approved));
  });

  it("treats a null or zero price as free", async () => {
    const free = (await (await get("?price=free&limit=1000")).json()) as Agent[];
    expect(free.every((a) => !a.price)).toBe(true);
    expect(free.map((a) => a.name)).toContain("Zero Priced Tool");
    expect(free).toHaveLength(sampleCatalogue.filter((s) => !s.price).length + 1);
    const paid = (await (await get("?price=paid&limit=1000")).json()) as Agent[];
    expect(paid.every((a) => (a.price ?? 0) > 0)).toBe(true);
    expect(free.length + paid.length).toBe(approved);
  });

  it("sorts popular (verified first), newest and by name", async () => {
    const popular = (await (await get("?limit=1000")).json()) as Agent[];
    const firstUnverified = popular.findIndex((a) => !a.verified);
    expect(popular.slice(firstUnverified).every((a) => !a.verified)).toBe(true);
    const verifiedNames = popular.slice(0, firstUnverified).map((a) => a.name.toLowerCase());
    expect(verifiedNames).toEqual([...verifiedNames].sort());

    const newest = (await (await get("?sort=newest&limit=1000")).json()) as Agent[];
    const times = newest.map((a) => Date.parse(a.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const byName = (await names(await get("?sort=name&limit=1000"))).map((n) => n.toLowerCase());
    expect(byName).toEqual([...byName].sort());
  });

  it("pages with Link and X-Total-Count, without repeats or gaps, by page and by cursor", async () => {
    for (const style of ["page", "cursor"] as const) {
      const seen: string[] = [];
      let next: string | null =
        `?sort=newest&limit=7${style === "cursor" ? "&cursor=" + Buffer.from("o:0").toString("base64url") : ""}`;
      let pages = 0;
      while (next) {
        const res = await get(next);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-total-count")).toBe(String(approved));
        seen.push(...((await res.json()) as Agent[]).map((a) => a.id));
        const link = res.headers.get("link");
        next = link ? /<\/api\/mcp-agents(\?[^>]*)>; rel="next"/.exec(link)![1]! : null;
        pages++;
      }
      expect(pages).toBe(Math.ceil(approved / 7));
      expect(new Set(seen).size).toBe(approved);
    }
  });

  it("answers 304 when the ETag still matches", async () => {
    const first = await get("?category=Finance");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get("cache-control")).toMatch(/max-age=/);
    const again = await get("?category=Finance", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await get("?category=Data", { "if-none-match": etag })).status).toBe(200);
  });

  it("returns markup in listing text as plain JSON strings", async () => {
    const [agent] = (await (await get("?q=onerror")).json()) as Agent[];
    expect(agent!.name).toBe("<script>alert('x')</script> Tool");
  });

  it.each([
    ["?limit=0", "invalid_input", "limit"],
    ["?limit=1001", "invalid_input", "limit"],
    ["?limit=abc", "invalid_input", "limit"],
    ["?limit=2.5", "invalid_input", "limit"],
    ["?page=0", "invalid_input", "page"],
    ["?price=cheap", "invalid_input", "price"],
    ["?sort=random", "invalid_input", "sort"],
    ["?cursor=bogus", "invalid_cursor", undefined],
    ["?page=2&cursor=" + Buffer.from("o:5").toString("base64url"), "invalid_request", undefined],
    ["?q=" + "x".repeat(201), "invalid_input", "q"],
    ["?colour=blue", "invalid_input", undefined],
  ])("refuses %s with 400 and a code, naming the field", async (query, code, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe(code);
    expect(typeof body.message).toBe("string");
    if (field) expect(body.errors?.[field]?.[0]).toBe(body.message);
    if (query === "?colour=blue") expect(body.message).toMatch(/colour/i);
  });

  it("GET /api/mcp-agents/{id} returns one approved listing by id or slug, else 404", async () => {
    const [first] = (await (await get("?q=boba")).json()) as Agent[];
    const byId = await getOne(first!.id);
    expect(byId.status).toBe(200);
    expect(((await byId.json()) as Agent).name).toBe("Boba Order Bot");
    expect((await getOne("boba-order-bot")).status).toBe(200);
    expect((await getOne("pending-review-example")).status).toBe(404);
    expect((await getOne("00000000-0000-0000-0000-000000000000")).status).toBe(404);
    const missing = await getOne("nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found" });
    // The key's length is checked by the route's params schema before the database is asked.
    const long = await getOne("x".repeat(201));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      code: "invalid_input",
      message: "id is too long.",
      errors: { id: ["id is too long."] },
    });
  });
});
