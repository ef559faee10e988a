// Which statements the connection deadline may leave to run late (reads) and which it runs in a transaction
// so that a timed-out write can never be applied afterwards (db/connection-deadline.ts).
import { describe, expect, it } from "vitest";
import { isRead } from "@/db/connection-deadline";

describe("isRead", () => {
  it("counts drizzle's selects and select-only CTEs as reads", () => {
    expect(isRead('select "id", "name" from "listings" where "slug" = $1')).toBe(true);
    expect(isRead("  SELECT 1")).toBe(true);
    expect(isRead("(select 1) union (select 2)")).toBe(true);
    expect(isRead("with ranked as (select id from listings) select * from ranked")).toBe(true);
  });

  it("counts everything else as a write, including CTEs that modify", () => {
    expect(isRead('insert into "newsletter_subscribers" ("email") values ($1)')).toBe(false);
    expect(isRead('update "listings" set "name" = $1')).toBe(false);
    expect(isRead('delete from "sessions" where "expires" < now()')).toBe(false);
    expect(isRead("with gone as (delete from rate_limits returning 1) select count(*) from gone")).toBe(false);
    expect(isRead("WITH x AS (UPDATE listings SET name = 'a' RETURNING id) SELECT id FROM x")).toBe(false);
    expect(isRead("analyze listings")).toBe(false);
  });
});
