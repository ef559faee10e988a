// A local EVM chain that answers as Base Sepolia (chain id 84532) on loopback: anvil from npm, with a
// USDC-like EIP-3009 token installed at the real Base Sepolia USDC address, Multicall3, the Permit2 and
// x402 upto-proxy contracts x402's `upto` scheme settles through, and x402's batch-settlement channel contract with
// its ERC-3009 deposit collector, each at its real address. Nothing leaves the machine.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicClient, createTestClient, createWalletClient, http, publicActions, toHex, type Abi } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { createNonceManager, jsonRpc } from "viem/nonce";
import { baseSepolia } from "viem/chains";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import {
  BATCH_SETTLEMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  PERMIT2_ADDRESS,
  x402UptoPermit2ProxyAddress,
} from "@x402/evm";

const here = path.dirname(fileURLToPath(import.meta.url));
type Artifact = { abi: Abi; deployedBytecode: `0x${string}` };
const readArtifact = (file: string) => JSON.parse(fs.readFileSync(path.join(here, "token", file), "utf8")) as Artifact;
const artifact = readArtifact("artifact.json");
const multicall3 = readArtifact("multicall3.json");
const permit2 = readArtifact("permit2.json");
const uptoProxy = readArtifact("upto-proxy.json");
const batchSettlement = readArtifact("batch-settlement.json");
const depositCollector = readArtifact("erc3009-deposit-collector.json");

export const USDC_ADDRESS = BASE_SEPOLIA.asset;
export const USDC_ABI = artifact.abi;
/** Where Multicall3 lives on Base Sepolia (and most chains); x402's facilitator reads through it. */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** Uniswap's Permit2 and x402's upto settlement proxy, at the addresses x402's scheme code expects on every chain. */
export { PERMIT2_ADDRESS, x402UptoPermit2ProxyAddress as X402_UPTO_PROXY_ADDRESS } from "@x402/evm";
/** x402's batch-settlement channel contract and the collector its ERC-3009 deposits go through. */
export { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
export const BATCH_SETTLEMENT_ABI = batchSettlement.abi;

/**
 * anvil's well-known development mnemonic (printed by every anvil and hardhat node, worthless anywhere but a
 * local chain), whose first ten accounts anvil funds with ETH. The sandbox mints with the first; the facilitator
 * pays gas with the second, so a mint never takes a nonce the facilitator's nonce manager has counted on.
 */
const ANVIL_TEST_MNEMONIC = "test test test test test test test test test test test junk";
function anvilTestKey(index: number): `0x${string}` {
  const key = mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
  if (!key) throw new Error("could not derive anvil's test key");
  return toHex(key);
}
export const ANVIL_TEST_KEYS = { minter: anvilTestKey(0), facilitator: anvilTestKey(1) } as const;

/**
 * anvil from npm (`@foundry-rs/anvil-linux-amd64`, an optional dependency: the registry this project installs
 * from carries only the Linux x64 build), else an `anvil` on PATH (Foundry's own installer, other platforms).
 */
export function anvilBinary(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  try {
    const dir = path.dirname(
      createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`),
    );
    const binary = path.join(dir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
    // npm may skip install scripts; the executable bit is all they would set.
    if (process.platform !== "win32") fs.chmodSync(binary, 0o755);
    return binary;
  } catch {
    return "anvil";
  }
}

export type LocalChain = {
  rpcUrl: string;
  port: number;
  /** Mints sandbox USDC (units of 6 decimals) to an address. */
  mintUsdc: (to: `0x${string}`, units: bigint) => Promise<void>;
  usdcBalance: (of: `0x${string}`) => Promise<bigint>;
  ethBalance: (of: `0x${string}`) => Promise<bigint>;
  stop: () => Promise<void>;
};

export type ChainOptions = {
  port?: number;
  /** Seconds per block; 0 mines each transaction at once. */
  blockTime?: number;
  /** How many of the development mnemonic's accounts anvil unlocks (default 10): the benchmark's buyers sign through it. */
  accounts?: number;
};

async function waitForRpc(rpcUrl: string, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}`);
    try {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`anvil did not answer on ${rpcUrl} within ${timeoutMs} ms`);
}

/** A port the kernel says is free right now (anvil binds it a moment later; startChain retries a lost race). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function launchAnvil(port: number, blockTime: number, accounts: number | undefined) {
  const args = [
    "--chain-id",
    String(BASE_SEPOLIA.chainId),
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--silent",
    "--no-request-size-limit",
  ];
  if (blockTime > 0) args.push("--block-time", String(blockTime));
  if (accounts !== undefined) args.push("--accounts", String(accounts));
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.on(
    "error",
    (error) => (stderr = `${error.message}: install Foundry's anvil (https://getfoundry.sh) or use Linux x64`),
  );
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2_000)));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  try {
    await waitForRpc(rpcUrl, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}${stderr ? `: ${stderr.trim()}` : ""}`);
  }
  return { rpcUrl, stop };
}

export async function startChain({ port = 0, blockTime = 1, accounts }: ChainOptions = {}): Promise<LocalChain> {
  let chosen = port;
  let launched: Awaited<ReturnType<typeof launchAnvil>> | undefined;
  // Without a fixed port, another process can take the free one before anvil binds it: try a few.
  for (let attempt = 1; !launched; attempt++) {
    chosen = port || (await freePort());
    try {
      launched = await launchAnvil(chosen, blockTime, accounts);
    } catch (error) {
      if (port || attempt >= 5 || !/Address already in use/i.test((error as Error).message)) throw error;
    }
  }
  const { rpcUrl, stop } = launched;
  const transport = http(rpcUrl);
  const test = createTestClient({ chain: baseSepolia, mode: "anvil", transport });
  await test.setCode({ address: USDC_ADDRESS, bytecode: artifact.deployedBytecode });
  await test.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode });
  await test.setCode({ address: PERMIT2_ADDRESS, bytecode: permit2.deployedBytecode });
  await test.setCode({ address: x402UptoPermit2ProxyAddress, bytecode: uptoProxy.deployedBytecode });
  await test.setCode({ address: BATCH_SETTLEMENT_ADDRESS, bytecode: batchSettlement.deployedBytecode });
  await test.setCode({ address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS, bytecode: depositCollector.deployedBytecode });
  // Its own nonce manager: tests fund many buyers at once, and parallel mints must not reuse a nonce.
  const account = privateKeyToAccount(ANVIL_TEST_KEYS.minter, {
    nonceManager: createNonceManager({ source: jsonRpc() }),
  });
  const minter = createWalletClient({ account, chain: baseSepolia, transport }).extend(publicActions);
  const reader = createPublicClient({ chain: baseSepolia, transport });
  return {
    rpcUrl,
    port: chosen,
    async mintUsdc(to, units) {
      const hash = await minter.writeContract({
        address: USDC_ADDRESS,
        abi: USDC_ABI,
        functionName: "mint",
        args: [to, units],
      });
      const receipt = await minter.waitForTransactionReceipt({ hash, pollingInterval: 100 });
      if (receipt.status !== "success") throw new Error("Minting sandbox USDC failed");
    },
    usdcBalance: async (of) =>
      (await reader.readContract({
        address: USDC_ADDRESS,
        abi: USDC_ABI,
        functionName: "balanceOf",
        args: [of],
      })) as bigint,
    ethBalance: (of) => reader.getBalance({ address: of }),
    stop,
  };
}
