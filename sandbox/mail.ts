// The sandbox's inbox: the site sends no mail here (no SMTP_URL), it logs each message's link instead; the sandbox
// prints those lines, and nothing else of the site's log, so a newcomer can confirm an address or reset a password.
import readline from "node:readline";
import type { Readable } from "node:stream";

/** One printed line for a logged mail, or undefined for any other log line. */
export function mailLine(line: string): string | undefined {
  if (!line.includes("SMTP_URL is not set")) return undefined;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; to?: unknown; link?: unknown };
    if (typeof entry.link !== "string") return undefined;
    const what =
      typeof entry.msg === "string" && entry.msg.startsWith("password reset")
        ? "password reset link"
        : "confirmation link";
    return `Mail to ${String(entry.to)}: ${what} ${entry.link}`;
  } catch {
    return undefined;
  }
}

export function relayMail(stream: Readable, print: (line: string) => void = (l) => console.log(l)): void {
  const lines = readline.createInterface({ input: stream });
  lines.on("line", (line) => {
    const mail = mailLine(line);
    if (mail) print(mail);
  });
}
