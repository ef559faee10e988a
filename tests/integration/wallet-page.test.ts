// The wallet page's data when the chain is out of reach: a refused connection and an RPC that accepts and never
// answers both give "balance unavailable" (null) within the page's deadline, never an error, and the purchases
// still come from the database. Against a real local chain, behind a proxy that counts the calls: an address with
// no purchases costs no read until asked, one address asked twice is one read, and one client asking for many
// addresses is stopped at its limit. Address parsing: what is a 404 and what is a page.
import http from "node:http";
import net from "node:net";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { limits } from "@/lib/rate-limit";
import { walletAddress, walletView } from "@/lib/wallet/page-data";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

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
  delete process.env.RATE_LIMIT_DISABLED;
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
    const flipped =
      address.slice(0, letter) +
      (address[letter] === address[letter]!.toUpperCase()
        ? address[letter]!.toLowerCase()
        : address[letter]!.toUpperCase()) +
      address.slice(letter + 1);
    for (const bad of [flipped, "0x1234", `0x${"g".repeat(40)}`, "vitalik.eth", "", `${address}00`])
      expect(walletAddress(bad), bad).toBeNull();
  });
});

describe("walletView with the chain out of reach", () => {
  it("says the balance is unavailable when the RPC refuses the connection (a chain on loopback: no public faucet)", async () => {
    process.env.CHAIN_RPC_URLS = "eip155:84532=http://127.0.0.1:9";
    reloadEnv();
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const view = await walletView(address, { client: "192.0.2.1", balanceAsked: true });
    expect(view.balances).toEqual([
      {
        caip2: "eip155:84532",
        label: "Base Sepolia",
        testnet: true,
        state: "unavailable",
        units: null,
        refusal: null,
        faucetUrl: null,
        localRpc: "http://127.0.0.1:9",
      },
    ]);
    expect(view.purchases).toEqual([]);
  });

  it("offers the public faucet for a test network read through a remote RPC (read only when asked)", async () => {
    process.env.CHAIN_RPC_URLS = "eip155:84532=https://sepolia.base.example";
    reloadEnv();
    const view = await walletView(privateKeyToAccount(generatePrivateKey()).address, {
      client: "192.0.2.1",
      balanceAsked: false,
    });
    expect(view.balances).toEqual([
      {
        caip2: "eip155:84532",
        label: "Base Sepolia",
        testnet: true,
        state: "on-request",
        units: null,
        refusal: null,
        faucetUrl: "https://faucet.circle.com",
        localRpc: null,
      },
    ]);
  });

  it("gives up on an RPC that never answers within the page's deadline", async () => {
    process.env.CHAIN_RPC_URLS = `eip155:84532=http://127.0.0.1:${silentPort}`;
    reloadEnv();
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const started = Date.now();
    const view = await walletView(address, { client: "192.0.2.1", balanceAsked: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(view.balances.map((b) => b.units)).toEqual([null]);
  });

  it("lists no network when the site reads none", async () => {
    process.env.CHAIN_RPC_URLS = "";
    reloadEnv();
    const view = await walletView(privateKeyToAccount(generatePrivateKey()).address, {
      client: "192.0.2.1",
      balanceAsked: true,
    });
    expect(view.balances).toEqual([]);
  });
});

describe("walletView spends the chain sparingly", () => {
  let stack: PaymentStack;
  let counter: http.Server;
  const calls: string[] = [];
  const balanceReads = () => calls.filter((m) => m === "eth_call").length;
  const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

  beforeAll(async () => {
    stack = await startPaymentStack();
    // A loopback proxy in front of anvil that counts each JSON-RPC method it passes on.
    counter = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { method: string } | { method: string }[];
      for (const call of [body].flat()) calls.push(call.method);
      const answer = await fetch(stack.chain.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", resolve));
    process.env.CHAIN_RPC_URLS = `eip155:84532=http://127.0.0.1:${(counter.address() as net.AddressInfo).port}`;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  afterAll(async () => {
    counter?.closeAllConnections();
    await new Promise((resolve) => counter?.close(resolve));
    await stack?.stop();
  });

  it("reads no balance of an address with no purchases until the person asks, then reads it from the chain", async () => {
    const before = balanceReads();
    for (let i = 0; i < 50; i++) {
      const view = await walletView(fresh(), { client: "198.51.100.7", balanceAsked: false });
      expect(view.balances.map((b) => [b.state, b.units])).toEqual([["on-request", null]]);
    }
    expect(balanceReads() - before).toBe(0);
    const buyer = await stack.fundedBuyer(1_250_000n);
    const asked = await walletView(buyer.address, { client: "198.51.100.7", balanceAsked: true });
    expect(asked.balances.map((b) => [b.state, b.units])).toEqual([["read", "1250000"]]);
    expect(balanceReads() - before).toBe(1);
  });

  it("reads one address once for everyone within a few seconds", async () => {
    const address = fresh();
    const before = balanceReads();
    const views = [
      await walletView(address, { client: "198.51.100.8", balanceAsked: true }),
      await walletView(address, { client: "198.51.100.8", balanceAsked: true }),
      await walletView(address.toLowerCase() as `0x${string}`, { client: "203.0.113.9", balanceAsked: true }),
    ];
    expect(views.map((v) => v.balances[0]!.units)).toEqual(["0", "0", "0"]);
    expect(balanceReads() - before).toBe(1);
  });

  it("stops one client that asks for many addresses at its limit, and not another client", async () => {
    const before = balanceReads();
    const states: string[] = [];
    for (let i = 0; i < limits.walletBalanceReadsPerIp.max + 30; i++) {
      const view = await walletView(fresh(), { client: "2001:db8:1:2::1", balanceAsked: true });
      states.push(view.balances[0]!.state);
    }
    expect(balanceReads() - before).toBe(limits.walletBalanceReadsPerIp.max);
    expect(states.filter((s) => s === "limited")).toHaveLength(30);
    // The same /64 is the same client.
    const neighbour = await walletView(fresh(), { client: "2001:db8:1:2::99", balanceAsked: true });
    expect(neighbour.balances[0]).toMatchObject({
      state: "limited",
      units: null,
      refusal: expect.stringMatching(/^Too many balance reads from your address\. Try again in \d+ minutes\.$/),
    });
    const other = await walletView(fresh(), { client: "198.51.100.200", balanceAsked: true });
    expect(other.balances[0]!.state).toBe("read");
  });
});
