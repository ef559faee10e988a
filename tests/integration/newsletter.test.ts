import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { newsletterSubscribers } from "@/db/schema";
import { reloadEnv } from "@/lib/env";
import { POST } from "@/app/api/mailchimp/member/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFakeMailchimp, type FakeMailchimp } from "../support/fake-mailchimp";

let ipCounter = 0;
function post(body: BodyInit | null, headers: Record<string, string> = {}) {
  return POST(
    new Request("http://localhost/api/mailchimp/member", {
      method: "POST",
      headers: { "content-type": "application/json", "x-agora-client-address": `10.0.0.${++ipCounter}`, ...headers },
      body,
    }),
  );
}

describe.each(drivers())("POST /api/mailchimp/member on %s", (driver) => {
  let conn: TestConnection;
  let mailchimp: FakeMailchimp;

  const subscriberCount = async () =>
    (await conn.db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers))[0]!.n;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    mailchimp = await startFakeMailchimp({ apiKey: "test-key-us1", audience: "aud1" });
  });
  afterAll(async () => {
    await mailchimp?.close();
    await conn?.close();
  });
  beforeEach(async () => {
    await conn.db.delete(newsletterSubscribers);
    delete process.env.MAILCHIMP_API_KEY;
    delete process.env.MAILCHIMP_AUDIENCE_ID;
    delete process.env.MAILCHIMP_API_BASE;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  function useMailchimp() {
    process.env.MAILCHIMP_API_KEY = "test-key-us1";
    process.env.MAILCHIMP_AUDIENCE_ID = "aud1";
    process.env.MAILCHIMP_API_BASE = mailchimp.url;
    reloadEnv();
  }

  it("stores an address once; subscribing again still answers 200", async () => {
    expect((await post(JSON.stringify({ email: "Reader@Example.com" }))).status).toBe(200);
    expect((await post(JSON.stringify({ email: "reader@example.com " }))).status).toBe(200);
    expect(await subscriberCount()).toBe(1);
  });

  it("upserts the member in Mailchimp when configured", async () => {
    useMailchimp();
    const res = await post(JSON.stringify({ email: "fan@example.com" }));
    expect(res.status).toBe(200);
    expect([...mailchimp.members.values()]).toContain("fan@example.com");
    expect(await subscriberCount()).toBe(1);
  });

  it("answers 502 with Mailchimp's reason and stores nothing when Mailchimp refuses", async () => {
    useMailchimp();
    const res = await post(JSON.stringify({ email: "rejected@example.com" }));
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body.message).toMatch(/^a newsletter-service subscription failed: .*compliance state/);
    expect(await subscriberCount()).toBe(0);
  });

  it("answers 502 when Mailchimp cannot be reached", async () => {
    process.env.MAILCHIMP_API_KEY = "test-key-us1";
    process.env.MAILCHIMP_AUDIENCE_ID = "aud1";
    process.env.MAILCHIMP_API_BASE = "http://127.0.0.1:9/3.0";
    reloadEnv();
    const res = await post(JSON.stringify({ email: "offline@example.com" }));
    expect(res.status).toBe(502);
    expect((await res.json()).message).toMatch(/^a newsletter-service subscription failed: /);
  });

  it.each([
    ["an invalid address", JSON.stringify({ email: "nope" }), {}, 400, "Invalid email address"],
    [
      "a script payload",
      JSON.stringify({ email: "<script>alert(1)</script>@x.com" }),
      {},
      400,
      "Invalid email address",
    ],
    ["a missing field", JSON.stringify({}), {}, 400, undefined],
    ["malformed JSON", "{email:", {}, 400, "Request body is not valid JSON."],
    [
      "a form post",
      "email=a%40b.co",
      { "content-type": "application/x-www-form-urlencoded" },
      415,
      "Content-Type must be application/json.",
    ],
    [
      "a body over 16 KB",
      JSON.stringify({ email: "a@b.co", pad: "x".repeat(17_000) }),
      {},
      413,
      "Request body must be at most 16 KB.",
    ],
  ])("refuses %s", async (_label, body, headers, status, message) => {
    const res = await post(body, headers as Record<string, string>);
    expect(res.status).toBe(status);
    const json = await res.json();
    expect(typeof json.message).toBe("string");
    if (message) expect(json.message).toBe(message);
    expect(JSON.stringify(json)).not.toMatch(/at .*\.ts:\d+/);
    expect(await subscriberCount()).toBe(0);
  });

  it("refuses a chunked body over 16 KB that declares no length", async () => {
    const big = new TextEncoder().encode(JSON.stringify({ email: "a@b.co", pad: "y".repeat(20_000) }));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 4096) controller.enqueue(big.slice(i, i + 4096));
        controller.close();
      },
    });
    const res = await POST(
      new Request("http://localhost/api/mailchimp/member", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
  });

  it("limits subscriptions per IP with 429 and Retry-After", async () => {
    const ip = { "x-agora-client-address": "203.0.113.77" };
    for (let i = 0; i < 5; i++)
      expect((await post(JSON.stringify({ email: `n${i}@example.com` }), ip)).status).toBe(200);
    const res = await post(JSON.stringify({ email: "n6@example.com" }), ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await res.json()).message).toMatch(/^Too many requests/);
    expect(await subscriberCount()).toBe(5);
  });
});
