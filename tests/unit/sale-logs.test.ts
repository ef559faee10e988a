import { describe, expect, it } from "vitest";
import { encodeAbiParameters, encodeEventTopics, getAddress, type Address, type Hex, type Log } from "viem";
import { SALE_EVENTS_ABI, UPTO_PROXY_ADDRESS, UPTO_SETTLE_EVENTS_ABI, salesInLogs } from "@/lib/sales/sale-logs";

const token = getAddress("0x036cbd53842c5426634e7929541ec2318f3dcf7e");
const other = getAddress("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913");
const payer = getAddress("0x1111111111111111111111111111111111111111");
const payee = getAddress("0x2222222222222222222222222222222222222222");
const stranger = getAddress("0x3333333333333333333333333333333333333333");
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

function log(address: Address, txHash: Hex, logIndex: number, topics: Hex[], data: Hex, blockNumber = 10n): Log {
  return {
    address,
    topics: topics as [Hex, ...Hex[]],
    data,
    blockHash: tx(9999),
    blockNumber,
    logIndex,
    transactionHash: txHash,
    transactionIndex: 0,
    removed: false,
  };
}
const authorization = (txHash: Hex, i: number, who: Address, at: Address = token) =>
  log(
    at,
    txHash,
    i,
    encodeEventTopics({
      abi: SALE_EVENTS_ABI,
      eventName: "AuthorizationUsed",
      args: { authorizer: who, nonce: tx(i + 77) },
    }) as Hex[],
    "0x",
  );
const transfer = (txHash: Hex, i: number, from: Address, to: Address, value: bigint, at: Address = token) =>
  log(
    at,
    txHash,
    i,
    encodeEventTopics({ abi: SALE_EVENTS_ABI, eventName: "Transfer", args: { from, to } }) as Hex[],
    encodeAbiParameters([{ type: "uint256" }], [value]),
  );

describe("salesInLogs", () => {
  it("counts a transfer with the payer's authorization as a sale, exactly", () => {
    const sales = salesInLogs([authorization(tx(1), 0, payer), transfer(tx(1), 1, payer, payee, 250_000n)], token);
    expect(sales).toEqual([
      {
        txHash: tx(1),
        logIndex: 1,
        blockNumber: 10n,
        blockHash: tx(9999),
        payer,
        payee,
        amount: 250_000n,
        kind: "exact",
      },
    ]);
  });

  it("counts a transfer followed by the upto proxy's settlement as a metered sale, and only from the proxy", () => {
    const settled = (txHash: Hex, i: number, at: Address = UPTO_PROXY_ADDRESS) =>
      log(
        at,
        txHash,
        i,
        encodeEventTopics({ abi: UPTO_SETTLE_EVENTS_ABI, eventName: i % 2 ? "Settled" : "SettledWithPermit" }) as Hex[],
        "0x",
      );
    const logs = [
      transfer(tx(6), 0, payer, payee, 30_000n),
      settled(tx(6), 1),
      transfer(tx(7), 0, payer, payee, 50_000n),
      settled(tx(7), 2),
      transfer(tx(8), 0, payer, payee, 9n),
      settled(tx(8), 1, stranger),
    ];
    expect(salesInLogs(logs, token).map((s) => [s.amount, s.kind])).toEqual([
      [30_000n, "metered"],
      [50_000n, "metered"],
    ]);
  });

  it("does not count a plain transfer, another payer's authorization, or another token's logs", () => {
    const logs = [
      transfer(tx(2), 0, payer, payee, 1n),
      authorization(tx(3), 0, stranger),
      transfer(tx(3), 1, payer, payee, 2n),
      authorization(tx(4), 0, payer, other),
      transfer(tx(4), 1, payer, payee, 3n, other),
    ];
    expect(salesInLogs(logs, token)).toEqual([]);
  });

  it("pairs each authorization with one transfer, whatever order the logs arrive in", () => {
    const logs = [
      transfer(tx(5), 3, payer, payee, 5n),
      transfer(tx(5), 1, payer, payee, 4n),
      authorization(tx(5), 0, payer),
      transfer(tx(5), 5, payer, payee, 6n),
      authorization(tx(5), 4, payer),
    ];
    expect(salesInLogs(logs, token).map((s) => s.amount)).toEqual([4n, 6n]);
  });

  it("skips pending logs and logs whose topics do not decode", () => {
    const pending = { ...transfer(tx(6), 1, payer, payee, 7n), blockNumber: null, blockHash: null } as unknown as Log;
    const malformed = {
      ...transfer(tx(6), 2, payer, payee, 8n),
      topics: [encodeEventTopics({ abi: SALE_EVENTS_ABI, eventName: "Transfer" })[0]],
    } as Log;
    expect(salesInLogs([authorization(tx(6), 0, payer), pending, malformed], token)).toEqual([]);
  });
});
