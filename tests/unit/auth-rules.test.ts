import { describe, expect, it } from "vitest";
import { callbackOutcome } from "@/lib/auth/callback-outcome";
import { isSessionCookieName } from "@/lib/session-cookie";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { isPrivateHost, normalizeServerUrl } from "@/lib/listings/submit/server-url";
import { parseEnv } from "@/lib/env";
import { registerSchema } from "@/lib/validations/auth";

describe("the sign-in callback screen", () => {
  it("welcomes a finished sign-in and goes to /submit", () => {
    expect(callbackOutcome({ signedIn: true })).toEqual({
      toast: { kind: "success", title: "Success", description: "You have been logged in successfully." },
      redirectTo: "/submit",
    });
  });

  it("shows a provider's refusal as 'Authentication Error' with a fixed text for its code, and goes to /login", () => {
    const outcome = callbackOutcome({ error: "access_denied", signedIn: false });
    // The provider's bare error code is shown beside the friendly text (spec: the parameter value as description).
    expect(outcome.toast).toEqual({
      kind: "error",
      title: "Authentication Error",
      description: "The sign-in was cancelled or access was not granted. (access_denied)",
    });
    expect(callbackOutcome({ error: "server_error", signedIn: false }).toast.description).toBe(
      "The sign-in did not complete. Please try again. (server_error)",
    );
    expect(outcome.redirectTo).toBe("/login");
    expect(callbackOutcome({ error: "EmailTaken", signedIn: false }).toast.description).toBe(
      "An account with this email already exists. Sign in with your email and password.",
    );
  });

  it("never shows text from the link itself (content spoofing)", () => {
    const notCodes = [
      "Your account is suspended. Call +1 555 0100 to restore it.",
      "The user has denied your application access.",
      "Access_Denied",
      "access-denied",
      "a".repeat(65),
      "access_denied<script>",
    ];
    for (const error of notCodes) {
      expect(callbackOutcome({ error, signedIn: false }).toast).toEqual({
        kind: "error",
        title: "Authentication Error",
        description: "The sign-in did not complete. Please try again.",
      });
    }
  });

  it("looks a known code up as a key of its own, not of Object's prototype", () => {
    for (const error of ["constructor", "__proto__", "tostring"]) {
      expect(callbackOutcome({ error, signedIn: false }).toast.description).toBe(
        `The sign-in did not complete. Please try again. (${error})`,
      );
    }
  });

  it("treats a returned code without a finished sign-in as a failed exchange (spec §8)", () => {
    expect(callbackOutcome({ code: "abc123", signedIn: false })).toEqual({
      toast: { kind: "error", title: "Error", description: "Failed to authenticate with GitHub. Please try again." },
      redirectTo: "/login",
    });
  });

  it("reports a failed code exchange in the spec's words", () => {
    for (const error of ["OAuthCallbackError", "CallbackRouteError", "InvalidCheck", "Configuration"]) {
      expect(callbackOutcome({ error, signedIn: false }).toast).toMatchObject({
        title: "Error",
        description: "Failed to authenticate with GitHub. Please try again.",
      });
    }
  });

  it("says no authorization code was received when nothing finished", () => {
    expect(callbackOutcome({ signedIn: false })).toMatchObject({
      toast: { description: "No authorization code received." },
      redirectTo: "/login",
    });
  });
});

describe("the session cookie", () => {
  it("is recognised under its https name too (__Secure-), and in chunks", () => {
    for (const name of [
      "authjs.session-token",
      "__Secure-authjs.session-token",
      "__Secure-authjs.session-token.0",
      "authjs.session-token.1",
    ]) {
      expect(isSessionCookieName(name), name).toBe(true);
    }
    for (const name of [
      "authjs.csrf-token",
      "__Host-authjs.csrf-token",
      "my-authjs.session-token",
      "authjs.session-tokenX",
    ]) {
      expect(isSessionCookieName(name), name).toBe(false);
    }
  });
});

describe("password hashing", () => {
  const me = { address: "127.0.0.1", account: "me@example.com" };
  it("verifies the right password only, and refuses malformed hashes without throwing", async () => {
    const hash = await hashPassword("tr0ub4dor & 3", me);
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await verifyPassword("tr0ub4dor & 3", hash, me)).toBe(true);
    expect(await verifyPassword("tr0ub4dor & 4", hash, me)).toBe(false);
    for (const bad of ["", "bcrypt$x", "scrypt$x$y$z$salt$hash", "scrypt$32768$8$1$$"])
      expect(await verifyPassword("x", bad, me)).toBe(false);
  });

  it("treats composed and decomposed unicode as the same password", async () => {
    const hash = await hashPassword("caf\u00e9 au lait", me);
    expect(await verifyPassword("cafe\u0301 au lait", hash, me)).toBe(true);
  });
});

describe("new password rules", () => {
  const check = (password: string) =>
    registerSchema.safeParse({ email: "a@b.co", name: "A", password }).error?.issues[0]?.message;
  it("refuses short and common passwords, case-insensitively", () => {
    expect(check("1234567")).toBe("Password must be at least 8 characters.");
    expect(check("PASSWORD1")).toBe("This password is too common. Choose one that is harder to guess.");
    expect(check("QwErTy123")).toBe("This password is too common. Choose one that is harder to guess.");
    expect(check("a less common passphrase")).toBeUndefined();
  });
});

describe("server URLs", () => {
  it("normalises the spelling so one server is listed once", () => {
    expect(normalizeServerUrl("https://Example.COM:443/mcp/#top")).toBe("https://example.com/mcp");
    expect(normalizeServerUrl("https://example.com/")).toBe("https://example.com");
    expect(normalizeServerUrl("http://example.com:8080/a/b?x=1")).toBe("http://example.com:8080/a/b?x=1");
  });

  it("knows private and loopback hosts", () => {
    for (const host of [
      "localhost",
      "api.localhost",
      "printer.local",
      "db.internal",
      "intranet",
      "127.0.0.1",
      "10.0.0.8",
      "172.20.1.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "[::1]",
    ]) {
      expect(isPrivateHost(host), host).toBe(true);
    }
    for (const host of ["example.com", "8.8.8.8", "172.32.0.1", "mcp.agora.dev"])
      expect(isPrivateHost(host), host).toBe(false);
  });

  it("applies the probe's address rule, so a URL the probe would refuse is refused at submission", () => {
    // IPv4 hidden in IPv6, cloud metadata names and carrier-grade NAT are private to both; a public IPv6 address is not.
    for (const host of [
      "[::ffff:127.0.0.1]",
      "[64:ff9b::a00:1]",
      "metadata.google.internal",
      "[fe80::1]",
      "198.18.0.1",
    ]) {
      expect(isPrivateHost(host), host).toBe(true);
    }
    expect(isPrivateHost("[2001:4860:4860::8888]")).toBe(false);
  });
});

describe("auth configuration", () => {
  it("requires AUTH_SECRET in production and GitHub credentials in pairs", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET: is required in production/);
    // The public origin comes from configuration in production; trusting the Host header is not enough.
    expect(() => parseEnv({ NODE_ENV: "production", AUTH_SECRET: "s".repeat(32), AUTH_TRUST_HOST: "true" })).toThrow(
      /SITE_URL: is required in production/,
    );
    expect(
      parseEnv({ NODE_ENV: "production", AUTH_SECRET: "s".repeat(32), SITE_URL: "https://agora.example" }).SITE_URL,
    ).toBe("https://agora.example");
    expect(
      parseEnv({ NODE_ENV: "production", AUTH_SECRET: "s".repeat(32), AUTH_URL: "https://agora.example" }).AUTH_URL,
    ).toBe("https://agora.example");
    expect(() => parseEnv({ AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET: must be at least 32 characters/);
    expect(() => parseEnv({ AUTH_GITHUB_ID: "id" })).toThrow(/AUTH_GITHUB_SECRET: is required/);
    expect(() => parseEnv({ SMTP_URL: "http://mail" })).toThrow(/SMTP_URL: must be an smtp/);
  });

  it("refuses ADMIN_GITHUB_LOGINS, naming ADMIN_GITHUB_IDS, and takes only numeric GitHub ids", () => {
    expect(() => parseEnv({ ADMIN_GITHUB_LOGINS: "octocat" })).toThrow(
      /ADMIN_GITHUB_LOGINS: is no longer supported .*use ADMIN_GITHUB_IDS/,
    );
    expect(() => parseEnv({ ADMIN_GITHUB_IDS: "octocat" })).toThrow(
      /ADMIN_GITHUB_IDS: must be comma-separated GitHub numeric user ids/,
    );
    expect(parseEnv({ ADMIN_GITHUB_IDS: "583231, 9919" }).ADMIN_GITHUB_IDS).toBe("583231, 9919");
  });

  it("reads TRUSTED_PROXY_HOPS as a small whole number, 0 by default", () => {
    expect(parseEnv({}).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnv({ TRUSTED_PROXY_HOPS: "2" }).TRUSTED_PROXY_HOPS).toBe(2);
    expect(() => parseEnv({ TRUSTED_PROXY_HOPS: "-1" })).toThrow(/TRUSTED_PROXY_HOPS/);
    expect(() => parseEnv({ TRUSTED_PROXY_HOPS: "1.5" })).toThrow(
      /TRUSTED_PROXY_HOPS: must be a whole number of proxies/,
    );
  });

  it("defaults GitHub's endpoints to github.com", () => {
    const env = parseEnv({});
    expect(env.GITHUB_OAUTH_URL).toBe("https://github.com");
    expect(env.GITHUB_API_URL).toBe("https://api.github.com");
    expect(parseEnv({ GITHUB_OAUTH_URL: "http://127.0.0.1:9999/" }).GITHUB_OAUTH_URL).toBe("http://127.0.0.1:9999");
  });
});
