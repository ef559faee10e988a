// Calls a route handler directly, the way Next would, with a fresh client address per call unless given.
import { reloadEnv } from "@/lib/env";

let counter = 0;

export type Answer = {
  status: number;
  body: Record<string, unknown> & { message?: string; errors?: Record<string, string[]> };
  headers: Headers;
};

export function jsonRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  counter += 1;
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      // What server/client-address.mjs stamps from the TCP connection; a /64 of its own per call.
      "x-agora-client-address": `2001:db8:${counter.toString(16)}::1`,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function call(handler: (request: Request) => Promise<Response>, request: Request): Promise<Answer> {
  const res = await handler(request);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** A random address that no other test uses. */
export function uniqueEmail(label = "user"): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** Resets the variables auth tests touch, then applies `overrides`. */
export function setAuthEnv(overrides: Record<string, string | undefined> = {}): void {
  for (const key of [
    "RATE_LIMIT_DISABLED",
    "SMTP_URL",
    "AUTH_GITHUB_ID",
    "AUTH_GITHUB_SECRET",
    "GITHUB_OAUTH_URL",
    "GITHUB_API_URL",
    "ALLOW_PRIVATE_SERVER_URLS",
    "SITE_URL",
  ]) {
    delete process.env[key];
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

/** Runs `fn` with NODE_ENV=production (and what production requires), then restores the test environment. */
export async function inProduction<T>(fn: () => Promise<T>): Promise<T> {
  const env = process.env as Record<string, string | undefined>;
  env.NODE_ENV = "production";
  env.AUTH_SECRET = "production-secret-for-tests-0123456789";
  env.AUTH_TRUST_HOST = "true";
  const siteUrl = env.SITE_URL;
  env.SITE_URL ??= "http://localhost:3000";
  // Lets RATE_LIMIT_DISABLED stay set, as in the end-to-end run.
  env.UNSAFE_TEST_MODE = "1";
  reloadEnv();
  try {
    return await fn();
  } finally {
    env.NODE_ENV = "test";
    delete env.AUTH_SECRET;
    delete env.AUTH_TRUST_HOST;
    if (siteUrl === undefined) delete env.SITE_URL;
    delete env.UNSAFE_TEST_MODE;
    reloadEnv();
  }
}
