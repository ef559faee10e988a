// A small stand-in for Mailchimp's Marketing API on loopback: accepts member upserts with the
// right credentials, and refuses addresses containing "rejected" the way Mailchimp does.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeMailchimp = { url: string; members: Map<string, string>; close: () => Promise<void> };

export async function startFakeMailchimp(options: {
  apiKey: string;
  audience: string;
  port?: number;
}): Promise<FakeMailchimp> {
  const members = new Map<string, string>();
  const expectedAuth = `Basic ${Buffer.from(`agora:${options.apiKey}`).toString("base64")}`;
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/problem+json" });
      res.end(JSON.stringify(body));
    };
    const match = req.url?.match(/^\/3\.0\/lists\/([^/]+)\/members\/([a-f0-9]{32})$/);
    if (req.method !== "PUT" || !match)
      return send(404, { title: "Resource Not Found", detail: "The requested resource could not be found." });
    if (req.headers.authorization !== expectedAuth)
      return send(401, { title: "API Key Invalid", detail: "Your API key may be invalid." });
    if (match[1] !== options.audience)
      return send(404, { title: "Resource Not Found", detail: "The requested list could not be found." });
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as { email_address: string };
      if (body.email_address.includes("rejected")) {
        return send(400, {
          title: "Member In Compliance State",
          detail: `${body.email_address} is in a compliance state due to unsubscribe, bounce, or compliance review and cannot be subscribed.`,
        });
      }
      members.set(match[2]!, body.email_address);
      send(200, { id: match[2], email_address: body.email_address, status: "subscribed" });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/3.0`, members, close: () => new Promise((r) => server.close(() => r())) };
}

// Run directly (Playwright's webServer): a fixed port for the end-to-end app.
if (process.argv[1]?.endsWith("fake-mailchimp.ts")) {
  const port = Number(process.env.FAKE_MAILCHIMP_PORT ?? 3199);
  startFakeMailchimp({ apiKey: "e2e-key-us1", audience: "e2e-audience", port }).then((f) =>
    console.log(`fake mailchimp on ${f.url}`),
  );
}
