// A real SMTP server on loopback (npm smtp-server) that keeps what it receives, decoded enough to read
// links: headers, and a quoted-printable or plain text body. Run directly, it also serves its inbox over
// HTTP (GET /messages?to=…) for the end-to-end tests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; raw: string; at: number };

export type FakeSmtp = {
  url: string;
  messages: ReceivedMail[];
  /** The newest message to `address`, waiting up to `timeoutMs` for it to arrive. */
  /** The newest mail to `address` (whose subject matches `subject`, when given). */
  waitFor: (address: string, timeoutMs?: number, subject?: string) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

export function decodeMessage(raw: string): Pick<ReceivedMail, "subject" | "text"> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  let body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  if (/quoted-printable/i.test(header("Content-Transfer-Encoding"))) {
    body = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    body = Buffer.from(body, "latin1").toString("utf8");
  } else if (/base64/i.test(header("Content-Transfer-Encoding"))) {
    body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return { subject: header("Subject"), text: body.replace(/\r\n/g, "\n") };
}

export async function startFakeSmtp(options: { port?: number } = {}): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          at: Date.now(),
          ...decodeMessage(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  const newestTo = (address: string, subject?: string) =>
    messages
      .filter((m) => m.to.includes(address.toLowerCase()) && (subject === undefined || m.subject === subject))
      .at(-1);
  async function waitFor(address: string, timeoutMs = 10_000, subject?: string): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = newestTo(address, subject);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// Run directly (Playwright's webServer): SMTP on FAKE_SMTP_PORT, its inbox over HTTP on FAKE_SMTP_INBOX_PORT.
if (process.argv[1]?.endsWith("fake-smtp.ts")) {
  const smtp = await startFakeSmtp({ port: Number(process.env.FAKE_SMTP_PORT ?? 3197) });
  const inboxPort = Number(process.env.FAKE_SMTP_INBOX_PORT ?? 3196);
  http
    .createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://inbox");
      const to = url.searchParams.get("to")?.toLowerCase();
      const found = smtp.messages.filter((m) => !to || m.to.includes(to)).map(({ raw: _raw, ...m }) => m);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(found));
    })
    .listen(inboxPort, "127.0.0.1", () =>
      console.log(`fake smtp on ${smtp.url}, inbox on http://127.0.0.1:${inboxPort}/messages`),
    );
}
