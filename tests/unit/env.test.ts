import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

describe("environment validation", () => {
  it("defaults to the embedded database", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_DIR).toBe(".data/pglite");
  });

  it("names the variable that is wrong", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => parseEnv({ SITE_URL: "not a url" })).toThrow(/SITE_URL/);
    expect(() => parseEnv({ MAILCHIMP_API_KEY: "abc-us1" })).toThrow(/MAILCHIMP_AUDIENCE_ID: is required/);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", NEXT_PUBLIC_POSTHOG_KEY: "" }).DATABASE_URL).toBeUndefined();
  });
});
