// A JSON-RPC proxy on loopback in front of a real anvil that misbehaves on eth_getLogs when told to: it hangs,
// answers an error, adds a log nobody asked for, or mangles one, from the first call on or after `after` calls
// answered well (a run that fails half-way). Everything else passes through untouched.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RpcFault = "none" | "hang" | "error" | "extra-log" | "malformed-log";

type RpcLog = Record<string, unknown> & { blockNumber: string; topics: string[] };

export async function startFaultyRpc(upstream: string) {
  let armed: RpcFault = "none";
  let healthyCalls = Infinity;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as {
      id: number;
      method: string;
      params: [{ toBlock: string }];
    };
    const fault = body.method !== "eth_getLogs" || healthyCalls-- > 0 ? "none" : armed;
    const send = (value: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (body.method === "eth_getLogs" && fault === "hang") return void hanging.add(res);
    if (body.method === "eth_getLogs" && fault === "error")
      return send({
        jsonrpc: "2.0",
        id: body.id,
        error: { code: -32005, message: "query returned more than 10000 results" },
      });
    const answer = (await (
      await fetch(upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    ).json()) as { result?: RpcLog[] };
    if (body.method === "eth_getLogs" && Array.isArray(answer.result) && answer.result.length > 0) {
      const first = answer.result[0]!;
      // A log past the block range asked for (a node that ignores toBlock), or one whose topics are cut short.
      if (fault === "extra-log")
        answer.result.push({
          ...first,
          blockNumber: `0x${(BigInt(body.params[0].toBlock) + 1n).toString(16)}`,
          logIndex: "0x63",
        });
      if (fault === "malformed-log") answer.result[0] = { ...first, topics: [first.topics[0]!.slice(0, 20)] };
    }
    send(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(next: RpcFault, options: { after?: number } = {}) {
      armed = next;
      healthyCalls = options.after ?? 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
