// Compiles the sandbox chain's contracts with solc-js (from npm, no network) into the artifacts the sandbox
// installs (SANDBOX_CONTRACTS: each NAME.sol → its artifact file).
// `npx tsx sandbox/token/compile.ts` rewrites them all; a unit test checks the committed ones are current.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import solc from "solc";

const here = path.dirname(fileURLToPath(import.meta.url));

export type TokenArtifact = { compiler: string; abi: unknown[]; deployedBytecode: `0x${string}` };

/** Each contract the sandbox chain installs, with the file its artifact is committed as. */
export const SANDBOX_CONTRACTS = {
  SandboxUSDC: "artifact.json",
  Multicall3: "multicall3.json",
  SandboxPermit2: "permit2.json",
  SandboxUptoPermit2Proxy: "upto-proxy.json",
  SandboxBatchSettlement: "batch-settlement.json",
  SandboxErc3009DepositCollector: "erc3009-deposit-collector.json",
} as const;
export type SandboxContract = keyof typeof SANDBOX_CONTRACTS;

export function compileContract(name: SandboxContract): TokenArtifact {
  const source = `${name}.sol`;
  const input = {
    language: "Solidity",
    // Every contract of the folder is a source, so one may import another (the upto proxy calls Permit2).
    sources: Object.fromEntries(
      fs
        .readdirSync(here)
        .filter((file) => file.endsWith(".sol"))
        .map((file) => [file, { content: fs.readFileSync(path.join(here, file), "utf8") }]),
    ),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      metadata: { bytecodeHash: "none" },
      outputSelection: { [source]: { [name]: ["abi", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts[source]![name]!;
  return { compiler: solc.version(), abi: contract.abi, deployedBytecode: `0x${contract.evm.deployedBytecode.object}` };
}

export const compileToken = (): TokenArtifact => compileContract("SandboxUSDC");

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [name, file] of Object.entries(SANDBOX_CONTRACTS) as [SandboxContract, string][]) {
    const artifact = compileContract(name);
    fs.writeFileSync(path.join(here, file), `${JSON.stringify(artifact, null, 1)}\n`);
    console.log(`${name}: ${(artifact.deployedBytecode.length - 2) / 2} bytes of runtime code (${artifact.compiler})`);
  }
}
