// The wallet page's data when the chain is out of reach: a refused connection and an RPC that accepts and never
// answers both give "balance unavailable" (null) within the page's deadline, never an error, and the purchases
// still come from the database. Address parsing: what is a 404 and what is a page.
import net from "node:net";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { walletAddress, walletView } from "@/lib/wallet/page-data";
import { openTestDatabase, type TestConnection } from "../support/databases";

let conn: TestConnection;
let silent: net.Server;
let silentPort: number;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  // Accepts connections and says nothing: a node that hangs.
  silent = net.createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as net.AddressInfo).port;
});

afterAll(async () => {
  delete process.env.CHAIN_RPC_URLS;
  reloadEnv();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await conn?.close();
});

describe("walletAddress", () => {
  it("takes an address in lower case or with a valid checksum, and nothing else", () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    expect(walletAddress(address)).toBe(address);
    expect(walletAddress(address.toLowerCase())).toBe(address);
    const letter = [...address].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c));
    const flipped = address.slice(0, letter) + (address[letter] === address[letter]!.toUpperCase() ? address[letter]!.toLowerCase() : address[letter]!.toUpperCase()) + address.slice(letter + 1);
    for (const bad of [flipped, "0x1234", `0x${"g".repeat(40)}`, "vitalik.eth", "", `${address}00`]) expect(walletAddress(bad), bad).toBeNull();
  });
});

describe("walletView with the chain out of reach", () => {
  it("says the balance is unavailable when the RPC refuses the connection", async () => {
    process.env.CHAIN_RPC_URLS = "eip155:84532=http://127.0.0.1:9";
    reloadEnv();
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const view = await walletView(address);
    expect(view.balances).toEqual([{ caip2: "eip155:84532", label: "Base Sepolia", testnet: true, units: null, faucetUrl: "https://faucet.circle.com" }]);
    expect(view.purchases).toEqual([]);
  });

  it("gives up on an RPC that never answers within the page's deadline", async () => {
    process.env.CHAIN_RPC_URLS = `eip155:84532=http://127.0.0.1:${silentPort}`;
    reloadEnv();
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const started = Date.now();
    const view = await walletView(address);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(view.balances.map((b) => b.units)).toEqual([null]);
  });

  it("lists no network when the site reads none", async () => {
    process.env.CHAIN_RPC_URLS = "";
    reloadEnv();
    const view = await walletView(privateKeyToAccount(generatePrivateKey()).address);
    expect(view.balances).toEqual([]);
  });
});
