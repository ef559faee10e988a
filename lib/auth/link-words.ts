// What the sign-in pages say about a confirmation or reset link, from where this deployment sends it
// (lib/mail.ts linkDelivery): "we mailed you" only when mail goes out; otherwise where the link went, or that none did.
import type { LinkDelivery } from "@/lib/mail";

export type { LinkDelivery };

/** The answer to "Send reset link", the same whether or not the address has an account. */
export function resetRequestedMessage(delivery: LinkDelivery): string {
  if (delivery === "mail") return "If an account exists for that email, we sent a link to reset its password.";
  if (delivery === "log")
    return "If an account exists for that email, its reset link is in this server's terminal: it sends no mail (SMTP_URL is not set).";
  return "This site cannot send mail yet (SMTP_URL is not set), so no reset link was sent: ask its operator.";
}

/** The line under /forgot-password's heading. */
export function forgotPasswordDescription(delivery: LinkDelivery): string {
  if (delivery === "mail")
    return "Enter the email of your account and we will send you a link to choose a new password.";
  if (delivery === "log")
    return "Enter the email of your account: this server sends no mail, so it writes a link to choose a new password to its terminal.";
  return "This site cannot send mail yet, so it cannot send you a link to choose a new password: ask its operator.";
}

/** Beside an unconfirmed address on the account page: how to confirm it. */
export function confirmationHint(delivery: LinkDelivery): string {
  if (delivery === "mail") return "Use the link we mailed you";
  if (delivery === "log")
    return "This server sends no mail (SMTP_URL is not set): use the link it wrote to its terminal";
  return "This site cannot send mail yet, so no link was sent: ask its operator";
}

/** The account page's button for a fresh link; null where a new link would go nowhere (no mail, no terminal). */
export function newLinkButton(delivery: LinkDelivery): { label: string; busy: string; done: string } | null {
  if (delivery === "mail")
    return {
      label: "Send the link again",
      busy: "Sending...",
      done: "We sent a new link. It works once, for 24 hours.",
    };
  if (delivery === "log")
    return {
      label: "Write a new link to the terminal",
      busy: "Writing...",
      done: "A new link is in this server's terminal. It works once, for 24 hours.",
    };
  return null;
}
