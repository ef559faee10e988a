// A small authoritative DNS server on loopback (UDP) that answers TXT questions from a table, so claim checks run
// Node's real resolver (dns.promises.Resolver) without reaching any real DNS. A name in the table with no
// records answers NODATA; a name not in it answers NXDOMAIN.
import dgram from "node:dgram";
import dns from "node:dns";
import type { AddressInfo } from "node:net";

export type FakeDns = {
  /** TXT records by lower-case name; each record is one or more strings (chunks of at most 255 bytes). */
  txt: Map<string, string[][]>;
  /** A resolver function pointed at this server, as the claim check takes it. */
  resolveTxt: (hostname: string) => Promise<string[][]>;
  close: () => Promise<void>;
};

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (msg[at]! !== 0) {
    const len = msg[at]!;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString("ascii"));
    at += 1 + len;
  }
  return { name: labels.join(".").toLowerCase(), end: at + 1 };
}

function answer(query: Buffer, txt: Map<string, string[][]>): Buffer {
  const { name, end } = readName(query, 12);
  const qtype = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const records = txt.get(name);
  const answers = records && qtype === 16 ? records : [];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (records ? 0 : 3), 2); // QR, AA, RD copied, NXDOMAIN when unknown
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const rrs = answers.map((chunks) => {
    const rdata = Buffer.concat(
      chunks.map((c) => Buffer.concat([Buffer.from([Buffer.byteLength(c)]), Buffer.from(c)])),
    );
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the question's name
    rr.writeUInt16BE(16, 2); // TXT
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, question, ...rrs]);
}

export async function startFakeDns(): Promise<FakeDns> {
  const txt = new Map<string, string[][]>();
  const socket = dgram.createSocket("udp4");
  socket.on("message", (msg, from) => {
    try {
      socket.send(answer(msg, txt), from.port, from.address);
    } catch {
      // a malformed question gets no answer
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return {
    txt,
    resolveTxt: (hostname) => resolver.resolveTxt(hostname),
    close: () => new Promise((r) => socket.close(() => r())),
  };
}
