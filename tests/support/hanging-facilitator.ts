// A facilitator that verifies through a real one and then holds every settlement open without answering or
// sending anything: what a settlement that never comes back looks like to a paid server.
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function startHangingFacilitator(
  realFacilitatorUrl: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const hanging = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.url !== "/verify") return;
    const answer = await fetch(`${realFacilitatorUrl}/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat(chunks),
    });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
    close: async () => {
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
    },
  };
}
