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

  it("schedules verification hourly unless told otherwise, and refuses a bad interval", () => {
    expect(parseEnv({})).toMatchObject({ VERIFY_INTERVAL_SECONDS: 3600, VERIFY_SCHEDULE_DISABLED: false });
    expect(parseEnv({ VERIFY_INTERVAL_SECONDS: "90", VERIFY_SCHEDULE_DISABLED: "true" })).toMatchObject({ VERIFY_INTERVAL_SECONDS: 90, VERIFY_SCHEDULE_DISABLED: true });
    for (const bad of ["0", "-5", "1.5", "hourly", String(8 * 24 * 3600)]) {
      expect(() => parseEnv({ VERIFY_INTERVAL_SECONDS: bad })).toThrow(/VERIFY_INTERVAL_SECONDS/);
    }
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", NEXT_PUBLIC_POSTHOG_KEY: "" }).DATABASE_URL).toBeUndefined();
  });

  it("refuses PROBE_ALLOW_PRIVATE_HOSTS in production outside CI and end-to-end tests", () => {
    const saved = { CI: process.env.CI, E2E: process.env.E2E };
    // Production also needs its sign-in settings; they are not what this case is about.
    const prod = { NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), SITE_URL: "https://agora.example" };
    try {
      delete process.env.CI;
      delete process.env.E2E;
      expect(() => parseEnv({ ...prod, PROBE_ALLOW_PRIVATE_HOSTS: "true" })).toThrow(/PROBE_ALLOW_PRIVATE_HOSTS: may not be set in production/);
      expect(parseEnv(prod).PROBE_ALLOW_PRIVATE_HOSTS).toBe(false);
      expect(parseEnv({ NODE_ENV: "development", PROBE_ALLOW_PRIVATE_HOSTS: "1" }).PROBE_ALLOW_PRIVATE_HOSTS).toBe(true);
      process.env.E2E = "1";
      expect(parseEnv({ ...prod, PROBE_ALLOW_PRIVATE_HOSTS: "true" }).PROBE_ALLOW_PRIVATE_HOSTS).toBe(true);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
