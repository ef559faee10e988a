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
    for (const notOrigin of [
      "agora.example:3000",
      "ftp://agora.example",
      "https://agora.example/agora",
      "https://agora.example/?x=1",
    ]) {
      expect(() => parseEnv({ SITE_URL: notOrigin })).toThrow(/SITE_URL: must be an origin/);
    }
    expect(parseEnv({ SITE_URL: "https://agora.example/" }).SITE_URL).toBe("https://agora.example/");
    expect(() => parseEnv({ MAILCHIMP_API_KEY: "abc-us1" })).toThrow(/MAILCHIMP_AUDIENCE_ID: is required/);
  });

  it("schedules verification hourly unless told otherwise, and refuses a bad interval", () => {
    expect(parseEnv({})).toMatchObject({ CHECK_INTERVAL_SECONDS: 3600, CHECK_SCHEDULE_DISABLED: false });
    expect(parseEnv({ CHECK_INTERVAL_SECONDS: "90", CHECK_SCHEDULE_DISABLED: "true" })).toMatchObject({
      CHECK_INTERVAL_SECONDS: 90,
      CHECK_SCHEDULE_DISABLED: true,
    });
    for (const bad of ["0", "-5", "1.5", "hourly", String(8 * 24 * 3600)]) {
      expect(() => parseEnv({ CHECK_INTERVAL_SECONDS: bad })).toThrow(/CHECK_INTERVAL_SECONDS/);
    }
    // The former names (VERIFY_*) still work where the new ones are unset, so an operator's settings keep their meaning.
    expect(parseEnv({ VERIFY_INTERVAL_SECONDS: "120", VERIFY_SCHEDULE_DISABLED: "true" })).toMatchObject({
      CHECK_INTERVAL_SECONDS: 120,
      CHECK_SCHEDULE_DISABLED: true,
    });
    expect(parseEnv({ VERIFY_INTERVAL_SECONDS: "120", CHECK_INTERVAL_SECONDS: "60" })).toMatchObject({
      CHECK_INTERVAL_SECONDS: 60,
    });
    expect(() => parseEnv({ VERIFY_INTERVAL_SECONDS: "hourly" })).toThrow(/CHECK_INTERVAL_SECONDS/);
  });

  it("leaves PGlite's buffer cache to db/connect.ts unless set, and refuses a bad size; the memory log is off by default", () => {
    expect(parseEnv({}).PGLITE_SHARED_BUFFERS_MB).toBeUndefined();
    expect(parseEnv({}).MEMORY_LOG_SECONDS).toBe(0);
    expect(parseEnv({ PGLITE_SHARED_BUFFERS_MB: "64", MEMORY_LOG_SECONDS: "30" })).toMatchObject({
      PGLITE_SHARED_BUFFERS_MB: 64,
      MEMORY_LOG_SECONDS: 30,
    });
    for (const bad of ["0", "-1", "1.5", "16MB", "2048"])
      expect(() => parseEnv({ PGLITE_SHARED_BUFFERS_MB: bad })).toThrow(/PGLITE_SHARED_BUFFERS_MB/);
    for (const bad of ["-1", "0.5", "often"])
      expect(() => parseEnv({ MEMORY_LOG_SECONDS: bad })).toThrow(/MEMORY_LOG_SECONDS/);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", NEXT_PUBLIC_POSTHOG_KEY: "" }).DATABASE_URL).toBeUndefined();
  });

  it("refuses the test switches in production unless UNSAFE_TEST_MODE is set, whatever CI or E2E say", () => {
    const saved = { CI: process.env.CI, E2E: process.env.E2E };
    // Production also needs its sign-in settings; they are not what this case is about.
    const prod = { NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), SITE_URL: "https://agora.example" };
    try {
      for (const name of ["RATE_LIMIT_DISABLED", "PROBE_ALLOW_PRIVATE_HOSTS"] as const) {
        for (const ambient of [{}, { CI: "true" }, { E2E: "1" }, { CI: "1", E2E: "1" }]) {
          delete process.env.CI;
          delete process.env.E2E;
          Object.assign(process.env, ambient);
          expect(() => parseEnv({ ...prod, ...ambient, [name]: "true" })).toThrow(
            new RegExp(`${name}: may not be set in production`),
          );
        }
        expect(parseEnv(prod)[name]).toBe(false);
        expect(parseEnv({ NODE_ENV: "development", [name]: "1" })[name]).toBe(true);
        expect(parseEnv({ ...prod, [name]: "true", UNSAFE_TEST_MODE: "1" })[name]).toBe(true);
        expect(() => parseEnv({ ...prod, [name]: "true", UNSAFE_TEST_MODE: "0" })).toThrow(new RegExp(name));
      }
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
