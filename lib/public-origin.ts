// The site's public origin: from configuration (AUTH_URL, else SITE_URL), never from Host or X-Forwarded-Host,
// which any client can send. Development without either falls back to the request's own URL.
import { env } from "./env";

/** The configured public origin (e.g. https://agora.example), or undefined when neither variable is set. */
export function configuredOrigin(): string | undefined {
  const { AUTH_URL, SITE_URL } = env();
  const url = AUTH_URL ?? SITE_URL;
  return url ? new URL(url).origin : undefined;
}

/**
 * Auth.js builds its OAuth redirect_uri and action URLs from AUTH_URL when set, and from X-Forwarded-Host
 * otherwise; production always gives it the configured origin.
 */
export function pinAuthUrl(): void {
  if (env().NODE_ENV !== "production" || process.env.AUTH_URL) return;
  const origin = configuredOrigin();
  if (origin) process.env.AUTH_URL = origin;
}
