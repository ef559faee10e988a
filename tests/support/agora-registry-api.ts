// One Agora's official-registry API (/v0.1/servers …) on loopback: the route handlers themselves, behind a plain
// HTTP server, reading the given database. Route handlers read one process-wide database, so each request points
// them at this one first: two such servers in one test answer correctly as long as they are asked in turn.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { GET as oneV01 } from "@/app/v0.1/servers/[...path]/route";
import type { Connection } from "@/db/connect";
import { setDatabase } from "@/lib/database";

export type AgoraRegistryApi = { url: string; close: () => Promise<void> };

export async function serveRegistryApi(conn: Connection): Promise<AgoraRegistryApi> {
  const server = http.createServer(async (req, res) => {
    setDatabase(conn);
    const url = new URL(req.url ?? "/", "http://agora.local");
    const request = new Request(url);
    const path = url.pathname.replace(/^\/v0\.1\/servers\/?/, "");
    const answer =
      url.pathname === "/v0.1/servers"
        ? await listV01(request)
        : await oneV01(request, { params: Promise.resolve({ path: path.split("/").map(decodeURIComponent) }) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

type Entry = { server: { name: string; remotes: { url: string }[] } };

/** Every entry `/v0.1/servers` lists, page after page. */
export async function listEveryServer(baseUrl: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | undefined;
  do {
    const res = await fetch(`${baseUrl}/v0.1/servers?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (res.status !== 200) throw new Error(`/v0.1/servers answered ${res.status}`);
    const page = (await res.json()) as { servers: Entry[]; metadata: { nextCursor?: string } };
    entries.push(...page.servers);
    cursor = page.metadata.nextCursor;
  } while (cursor);
  return entries;
}
