// A facilitator that verifies and lists what it supports through a real one, then refuses every settlement with an
// ordinary answer (200, success false, as a facilitator reports a transfer that failed on chain) and sends nothing:
// what a paid server sees when the payment it verified cannot be collected.
import http from "node:http";
import type { AddressInfo } from "node:net";

export const REFUSED_REASON = "invalid_exact_evm_transaction_failed";

export async function startRefusingFacilitator(
  realFacilitatorUrl: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (status: number, body: string) =>
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    if (req.url === "/settle") {
      const { paymentRequirements } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        paymentRequirements: { network: string };
      };
      return json(
        200,
        JSON.stringify({
          success: false,
          errorReason: REFUSED_REASON,
          transaction: "",
          network: paymentRequirements.network,
        }),
      );
    }
    const answer = await fetch(`${realFacilitatorUrl}${req.url}`, {
      method: req.method,
      headers: { "content-type": "application/json" },
      body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    json(answer.status, await answer.text());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
