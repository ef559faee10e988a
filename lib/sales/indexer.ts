// The sales indexer: reads the token's logs on one network for every listing's payees, keeps each sale once, and
// re-reads the last blocks each run so a reorg removes what it undid. Each block range is written in one
// transaction with the cursor, so a run that fails (RPC down, answers it did not ask for) leaves the cursor at the
// last range it finished and nothing half-written; the next run starts there again.
import type { PaymentNetwork } from "@agora-mcp/protocol";
import { encodeEventTopics, getAddress, pad, type Address, type Hex, type Log, type PublicClient } from "viem";
import { z } from "zod";
import {
  applyBackfillRange,
  applySalesRange,
  dropSalesPaidBy,
  latestPaymentTerms,
  salesCursorRow,
  storedSales,
  syncTrackedPayees,
  trackedPayees,
  type NewSale,
} from "@/db/queries/sales";
import type { Db } from "@/db/types";
import {
  CHANNEL_CONTRACT_ADDRESS,
  CHANNEL_EVENTS_ABI,
  channelSalesInLogs,
  channelsClaimedBy,
  type ClaimedChannel,
} from "./channel-logs";
import { SALE_EVENTS_ABI, UPTO_PROXY_ADDRESS, UPTO_SETTLE_EVENTS_ABI, salesInLogs, type SaleLog } from "./sale-logs";
import { listingsSoldWithAsk, noAsk, payeesOn, type Asked, type Payees } from "./payees";

export type IndexSettings = {
  /** Blocks a sale must be under before it counts (0: the head itself). */
  confirmations: number;
  /** Recent blocks each run reads again; a reorg no deeper than this is undone. */
  reorgDepth: number;
  /** Most blocks one eth_getLogs asks for. */
  maxBlockRange: number;
  /** Where a network's first run starts: this many blocks below the head. */
  backfillBlocks: number;
  /**
   * Wallets whose payments are not sales: Agora's own test-purchase wallet. A listing's figures are what its
   * customers paid; the site's delivery checks show as test purchases, not as a buyer. Sales of these wallets
   * already stored are dropped on the next run.
   */
  excludedPayers?: string[];
};

type IndexOptions = IndexSettings & {
  network: PaymentNetwork;
  client: PublicClient;
  /** The token whose transfers are sales; the network's USDC unless a test says otherwise. */
  token?: Address;
  signal?: AbortSignal;
};

/** `added` counts every sale written, `backfilled` those of it found for payees that appeared late. */
export type IndexResult = {
  network: string;
  from: string | null;
  to: string | null;
  payees: number;
  added: number;
  removed: number;
  backfilled: number;
};

/** The RPC answered something the indexer did not ask for or cannot read: the run stops, nothing of it is kept. */
class SalesRpcError extends Error {}

const TRANSFER_TOPIC = encodeEventTopics({ abi: SALE_EVENTS_ABI, eventName: "Transfer" })[0];
const AUTHORIZATION_TOPIC = encodeEventTopics({ abi: SALE_EVENTS_ABI, eventName: "AuthorizationUsed" })[0];
const CLAIMED_TOPIC = encodeEventTopics({ abi: CHANNEL_EVENTS_ABI, eventName: "Claimed" })[0];
const UPTO_SETTLED_TOPICS = [
  encodeEventTopics({ abi: UPTO_SETTLE_EVENTS_ABI, eventName: "Settled" })[0],
  encodeEventTopics({ abi: UPTO_SETTLE_EVENTS_ABI, eventName: "SettledWithPermit" })[0],
];
// RPCs bound the addresses one topic position may list.
const TOPIC_GROUP = 100;

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const word = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const quantity = z.string().regex(/^0x[0-9a-fA-F]{1,16}$/);
const rawLog = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  topics: z.array(word).min(1).max(4),
  data: hex,
  blockNumber: quantity,
  blockHash: word,
  transactionHash: word,
  logIndex: quantity,
  removed: z.boolean().optional(),
  blockTimestamp: quantity.optional().nullable(),
});
type RawLog = z.infer<typeof rawLog>;

const toBlockTag = (n: bigint) => `0x${n.toString(16)}` as Hex;
const topicOf = (address: Address) => pad(address.toLowerCase() as Hex, { size: 32 });

/** eth_getLogs with every answered log checked against what was asked: anything else stops the run. */
async function getLogs(
  client: PublicClient,
  address: Address | Address[],
  from: bigint,
  to: bigint,
  topics: [Hex | Hex[], Hex[] | null, Hex[] | null] | [Hex[]],
): Promise<RawLog[]> {
  const addresses = new Set((typeof address === "string" ? [address] : address).map((a) => a.toLowerCase()));
  const answer: unknown = await client.request({
    method: "eth_getLogs",
    params: [{ address, fromBlock: toBlockTag(from), toBlock: toBlockTag(to), topics }],
  });
  if (!Array.isArray(answer)) throw new SalesRpcError("eth_getLogs did not answer a list of logs");
  const seen = new Set<string>();
  return answer.map((raw, i) => {
    const parsed = rawLog.safeParse(raw);
    if (!parsed.success)
      throw new SalesRpcError(
        `eth_getLogs answered a malformed log (#${i}: ${parsed.error.issues[0]!.path.join(".") || "log"})`,
      );
    const log = parsed.data;
    const block = BigInt(log.blockNumber);
    const wanted = (position: 0 | 1 | 2, asked: Hex | Hex[] | null | undefined) => {
      const list = typeof asked === "string" ? [asked] : asked;
      return (
        list == null || (log.topics[position] !== undefined && list.includes(log.topics[position].toLowerCase() as Hex))
      );
    };
    if (
      !addresses.has(log.address.toLowerCase()) ||
      !wanted(0, topics[0]) ||
      block < from ||
      block > to ||
      !wanted(1, topics[1]) ||
      !wanted(2, topics[2])
    ) {
      throw new SalesRpcError(
        `eth_getLogs answered a log it was not asked for (block ${block}, ${log.transactionHash})`,
      );
    }
    const key = `${log.transactionHash.toLowerCase()}:${BigInt(log.logIndex)}`;
    if (seen.has(key)) throw new SalesRpcError(`eth_getLogs answered the same log twice (${log.transactionHash})`);
    seen.add(key);
    if (log.removed) throw new SalesRpcError(`eth_getLogs answered a removed log (${log.transactionHash})`);
    return log;
  });
}

function toViemLog(log: RawLog): Log {
  return {
    address: getAddress(log.address),
    topics: log.topics as [Hex, ...Hex[]],
    data: log.data as Hex,
    blockNumber: BigInt(log.blockNumber),
    blockHash: log.blockHash as Hex,
    transactionHash: log.transactionHash as Hex,
    logIndex: Number(BigInt(log.logIndex)),
    transactionIndex: null,
    removed: false,
  } as Log;
}

/** The timestamp of each block, from the logs when the node includes it, else one eth_getBlockByNumber each. */
async function blockTimes(client: PublicClient, logs: RawLog[], blocks: bigint[]): Promise<Map<bigint, Date>> {
  const times = new Map<bigint, Date>();
  for (const log of logs)
    if (log.blockTimestamp) times.set(BigInt(log.blockNumber), new Date(Number(BigInt(log.blockTimestamp)) * 1000));
  const missing = blocks.filter((b) => !times.has(b));
  for (let i = 0; i < missing.length; i += 8) {
    await Promise.all(
      missing.slice(i, i + 8).map(async (blockNumber) => {
        const block = await client.getBlock({ blockNumber });
        times.set(blockNumber, new Date(Number(block.timestamp) * 1000));
      }),
    );
  }
  return times;
}

/** The sales in blocks from..to to any of `payees` at a price a listing asked there (one listing per row). */
async function readRange(
  client: PublicClient,
  token: Address,
  network: string,
  payees: Payees,
  from: bigint,
  to: bigint,
  excluded: Set<string>,
): Promise<NewSale[]> {
  const addresses = [...payees.keys()];
  // One read finds both kinds of payment to a payee: a token Transfer names it second (`to`), as a channel's Claimed
  // does (`receiver`).
  const paid: RawLog[] = [];
  for (let i = 0; i < addresses.length; i += TOPIC_GROUP) {
    paid.push(
      ...(await getLogs(client, [token, CHANNEL_CONTRACT_ADDRESS], from, to, [
        [TRANSFER_TOPIC, CLAIMED_TOPIC],
        null,
        addresses.slice(i, i + TOPIC_GROUP).map(topicOf),
      ])),
    );
  }
  const logsOf = (address: Address, topic: Hex) =>
    paid.filter((log) => log.address.toLowerCase() === address.toLowerCase() && log.topics[0].toLowerCase() === topic);
  const found = [
    ...(await transferSales(client, token, logsOf(token, TRANSFER_TOPIC), from, to)),
    ...(await channelSales(client, token, logsOf(CHANNEL_CONTRACT_ADDRESS, CLAIMED_TOPIC))),
  ];
  const sales = found.filter((sale) => !excluded.has(sale.payer.toLowerCase()));
  if (sales.length === 0) return [];
  const times = await blockTimes(client, paid, [...new Set(sales.map((s) => s.blockNumber))]);
  return sales.flatMap((sale) =>
    listingsSoldWithAsk(payees, sale.payee, sale.amount, sale.kind).map(({ listingId, askedUnits }) => ({
      listingId,
      network,
      txHash: sale.txHash.toLowerCase(),
      logIndex: sale.logIndex,
      blockNumber: sale.blockNumber,
      blockHash: sale.blockHash.toLowerCase(),
      blockTime: times.get(sale.blockNumber)!,
      payer: sale.payer,
      payee: sale.payee,
      amount: sale.amount,
      kind: sale.kind,
      askedUnits,
    })),
  );
}

/** Of the `transfers` to payees, those that are sales: paid with an authorization (exact) or through the upto proxy. */
async function transferSales(
  client: PublicClient,
  token: Address,
  transfers: RawLog[],
  from: bigint,
  to: bigint,
): Promise<SaleLog[]> {
  if (transfers.length === 0) return [];
  // Only the authorizations of the wallets that paid: a plain transfer's sender never used one in that transaction.
  const payers = [...new Set(transfers.map((t) => t.topics[1]!.toLowerCase() as Hex))];
  const authorizations: RawLog[] = [];
  for (let i = 0; i < payers.length; i += TOPIC_GROUP) {
    authorizations.push(
      ...(await getLogs(client, token, from, to, [AUTHORIZATION_TOPIC, payers.slice(i, i + TOPIC_GROUP), null])),
    );
  }
  // Metered (upto) settlements: the proxy's event names no one, so every one in the range is read.
  const settled = await getLogs(client, UPTO_PROXY_ADDRESS, from, to, [UPTO_SETTLED_TOPICS]);
  return salesInLogs([...transfers, ...authorizations, ...settled].map(toViemLog), token);
}

/**
 * Of the payment channels' `claims` for payees, each paired with its channel's payer and token from the claim
 * transaction's input (one eth_getTransactionByHash per claim transaction). The settle that later pays the seller is
 * a transfer from the channel contract with no authorization: never a sale, so a claim's money counts once.
 */
async function channelSales(client: PublicClient, token: Address, claims: RawLog[]): Promise<SaleLog[]> {
  if (claims.length === 0) return [];
  const chainId = await client.getChainId();
  const claimed = new Map<string, Map<string, ClaimedChannel>>();
  for (const hash of new Set(claims.map((c) => c.transactionHash.toLowerCase() as Hex))) {
    const transaction = await client.getTransaction({ hash });
    const called =
      transaction.to !== null &&
      transaction.to !== undefined &&
      getAddress(transaction.to) === CHANNEL_CONTRACT_ADDRESS;
    claimed.set(hash, called ? channelsClaimedBy(transaction.input, chainId) : new Map());
  }
  return channelSalesInLogs(claims.map(toViemLog), token, claimed);
}

const keyOf = (s: { listingId: string; txHash: string; logIndex: number; blockHash: string }) =>
  `${s.listingId}|${s.txHash}|${s.logIndex}|${s.blockHash}`;
const pairOf = (p: { listingId: string; payee: string }) => `${p.listingId}|${p.payee}`;

/** One run over one network: from the cursor's last `reorgDepth` blocks up to the confirmed head, then the back-fill. */
export async function indexSales(db: Db, options: IndexOptions): Promise<IndexResult> {
  const { network, client } = options;
  const token = getAddress(options.token ?? network.asset);
  const payees = payeesOn(network, token, await latestPaymentTerms(db));
  // cacheTime 0: viem would otherwise answer a head up to its polling interval old.
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const safe = head - BigInt(options.confirmations);
  const result: IndexResult = {
    network: network.caip2,
    from: null,
    to: null,
    payees: payees.size,
    added: 0,
    removed: 0,
    backfilled: 0,
  };
  const excluded = new Set((options.excludedPayers ?? []).map((a) => a.toLowerCase()));
  result.removed += await dropSalesPaidBy(db, network.caip2, [...excluded]);
  if (safe < 0n) return result;
  const cursorRow = await salesCursorRow(db, network.caip2);
  const cursor = cursorRow?.block ?? null;
  const start =
    cursor === null
      ? max(0n, safe - BigInt(options.backfillBlocks) + 1n)
      : max(0n, min(cursor, safe) - BigInt(options.reorgDepth) + 1n);
  await trackPayees(db, network.caip2, payees, cursorRow, options.backfillBlocks);
  // The chain is shorter than what was read (a reorg onto a shorter branch): what lay above it is gone.
  let dropAbove = cursor !== null && cursor > safe ? safe : undefined;
  result.from = start.toString();
  for (let from = start; from <= safe; from += BigInt(options.maxBlockRange)) {
    if (options.signal?.aborted) break;
    const to = min(safe, from + BigInt(options.maxBlockRange) - 1n);
    const found = payees.size > 0 ? await readRange(client, token, network.caip2, payees, from, to, excluded) : [];
    const stored = await storedSales(db, network.caip2, from, to);
    const now = new Set(found.map(keyOf));
    const before = new Set(stored.map(keyOf));
    const remove = stored.filter((s) => !now.has(keyOf(s)));
    const add = found.filter((s) => !before.has(keyOf(s)));
    await applySalesRange(db, network.caip2, {
      remove,
      add,
      cursor: to,
      dropAbove,
      firstBlock: cursor === null ? start : undefined,
    });
    dropAbove = undefined;
    result.added += add.length;
    result.removed += remove.length;
    result.to = to.toString();
  }
  result.backfilled = await backfill(db, options, token, payees, excluded);
  result.added += result.backfilled;
  return result;
}

/**
 * Records the payees the checks name now. On a network's first run there is nothing behind them to read; later, a
 * payee that appeared is to be read from where the network's index started (or `backfillBlocks` below the cursor,
 * for a cursor older than that record) up to the cursor, and one no check names any more is forgotten.
 */
async function trackPayees(
  db: Db,
  network: string,
  payees: Payees,
  cursor: { block: bigint; firstBlock: bigint | null } | null,
  backfillBlocks: number,
) {
  const current = [...payees].flatMap(([payee, listings]) =>
    [...listings.keys()].map((listingId) => ({ listingId, payee })),
  );
  const tracked = await trackedPayees(db, network);
  const known = new Set(tracked.map(pairOf));
  const wanted = new Set(current.map(pairOf));
  const fromBlock = cursor ? (cursor.firstBlock ?? max(0n, cursor.block - BigInt(backfillBlocks) + 1n)) : 0n;
  // Nothing to read behind a payee on the first run: toBlock below fromBlock marks it done.
  const toBlock = cursor ? cursor.block : -1n;
  const add = current
    .filter((p) => !known.has(pairOf(p)))
    .map((p) => ({ ...p, fromBlock, toBlock, nextBlock: fromBlock }));
  const drop = tracked.filter((p) => !wanted.has(pairOf(p)));
  await syncTrackedPayees(db, network, { add, drop });
}

/**
 * Reads, for the payees that appeared after the network's first run, the blocks indexed before they appeared: the
 * same bounded, checked eth_getLogs, one range per transaction with their progress, so a run that stops resumes
 * where it was and a sale already stored (the re-read window, a run that stopped) is kept once. Sales count at the
 * prices the latest checks ask (`payees`, which the tracked payees were just synced to). Returns sales added.
 */
async function backfill(
  db: Db,
  options: IndexOptions,
  token: Address,
  payees: Payees,
  excluded: Set<string>,
): Promise<number> {
  const network = options.network.caip2;
  let added = 0;
  for (;;) {
    const pending = (await trackedPayees(db, network)).filter((p) => p.nextBlock <= p.toBlock);
    if (pending.length === 0 || options.signal?.aborted) return added;
    // The payees at the lowest next block go together, as far as the nearest end among them.
    const from = pending.reduce((m, p) => min(m, p.nextBlock), pending[0]!.nextBlock);
    const group = pending.filter((p) => p.nextBlock === from);
    const to = min(
      from + BigInt(options.maxBlockRange) - 1n,
      group.reduce((m, p) => min(m, p.toBlock), group[0]!.toBlock),
    );
    const wanted: Payees = new Map();
    for (const p of group) {
      const payee = getAddress(p.payee);
      const listings = wanted.get(payee) ?? new Map<string, Asked>();
      listings.set(p.listingId, payees.get(payee)?.get(p.listingId) ?? noAsk());
      wanted.set(payee, listings);
    }
    const found = await readRange(options.client, token, network, wanted, from, to, excluded);
    const stored = new Set((await storedSales(db, network, from, to)).map(keyOf));
    const add = found.filter((s) => !stored.has(keyOf(s)));
    await applyBackfillRange(db, network, { add, payees: group, to });
    added += add.length;
  }
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
