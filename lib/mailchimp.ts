// Upserts a newsletter member through Mailchimp's Marketing API when it is configured.
import { createHash } from "node:crypto";
import { env } from "./env";

export class NewsletterServiceError extends Error {}

function apiBase(apiKey: string): string {
  const configured = env().MAILCHIMP_API_BASE;
  if (configured) return configured.replace(/\/$/, "");
  const dc = apiKey.split("-").pop();
  return `https://${dc}.api.mailchimp.com/3.0`;
}

export async function upsertMailchimpMember(email: string): Promise<void> {
  const { MAILCHIMP_API_KEY: key, MAILCHIMP_AUDIENCE_ID: audience } = env();
  if (!key || !audience) return;
  const hash = createHash("md5").update(email.toLowerCase()).digest("hex");
  let response: Response;
  try {
    response = await fetch(`${apiBase(key)}/lists/${encodeURIComponent(audience)}/members/${hash}`, {
      method: "PUT",
      headers: {
        Authorization: `Basic ${Buffer.from(`agora:${key}`).toString("base64")}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ email_address: email, status_if_new: "subscribed" }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new NewsletterServiceError(
      error instanceof Error ? error.message : "An unknown error occurred while subscribing to the newsletter service",
    );
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { detail?: string; title?: string } | null;
    throw new NewsletterServiceError(body?.detail || body?.title || `HTTP ${response.status}`);
  }
}
