// Outgoing mail: SMTP through nodemailer when SMTP_URL is set; otherwise a structured log line.
import type { Transporter } from "nodemailer";
import { env } from "./env";
import { logInfo, logWarn } from "./log";
import { site } from "./site";

let transport: { url: string; transporter: Transporter } | undefined;

async function transporter(url: string): Promise<Transporter> {
  if (transport?.url !== url) {
    const { createTransport } = await import("nodemailer");
    transport = { url, transporter: createTransport(url) };
  }
  return transport.transporter;
}

/** Where this deployment sends a confirmation or reset link (lib/auth/link-words.ts words each). */
export type LinkDelivery = "mail" | "log" | "nowhere";

/**
 * Where a confirmation or reset link goes, for the words a page uses: "mail" when SMTP_URL is set; "log" when a
 * development server writes it to its terminal instead; "nowhere" when a production server has no mail set up.
 */
export function linkDelivery(): LinkDelivery {
  const { SMTP_URL, NODE_ENV } = env();
  if (SMTP_URL) return "mail";
  return NODE_ENV === "production" ? "nowhere" : "log";
}

export async function sendPasswordResetMail(to: string, link: string, validMinutes: number): Promise<void> {
  const { SMTP_URL, MAIL_FROM, NODE_ENV } = env();
  if (!SMTP_URL) {
    // Without SMTP the link only reaches a developer's terminal; production logs never carry the secret.
    if (NODE_ENV === "production")
      logWarn("password reset mail not sent: SMTP_URL is not set", { to: maskAddress(to) });
    else logInfo("password reset link (SMTP_URL is not set, so it was not mailed)", { to, link });
    return;
  }
  const subject = `Reset your ${site.name} password`;
  const text = [
    `Someone asked to reset the password of your ${site.name} account.`,
    "",
    `Choose a new password here (the link works once, for ${validMinutes} minutes):`,
    link,
    "",
    "If it was not you, ignore this message: your password stays as it is.",
  ].join("\n");
  await (await transporter(SMTP_URL)).sendMail({ from: MAIL_FROM, to, subject, text });
  logInfo("password reset mail sent", { to: maskAddress(to) });
}

export async function sendEmailVerificationMail(to: string, link: string, validHours: number): Promise<void> {
  const { SMTP_URL, MAIL_FROM, NODE_ENV } = env();
  if (!SMTP_URL) {
    if (NODE_ENV === "production") logWarn("verification mail not sent: SMTP_URL is not set", { to: maskAddress(to) });
    else logInfo("email verification link (SMTP_URL is not set, so it was not mailed)", { to, link });
    return;
  }
  const subject = `Confirm your email address for ${site.name}`;
  const text = [
    `Someone created a ${site.name} account with this email address.`,
    "",
    `If it was you, confirm the address here (the link works once, for ${validHours} hours):`,
    link,
    "",
    "If it was not you, ignore this message: the address stays unconfirmed and counts for nothing.",
  ].join("\n");
  await (await transporter(SMTP_URL)).sendMail({ from: MAIL_FROM, to, subject, text });
  logInfo("verification mail sent", { to: maskAddress(to) });
}

/** "jane.doe@example.com" → "j***@example.com", for logs. */
function maskAddress(address: string): string {
  const [local = "", domain = ""] = address.split("@");
  return `${local.slice(0, 1)}***@${domain}`;
}
