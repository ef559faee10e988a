// Compiles SandboxUSDC.sol with solc-js (from npm, no network) into the artifact the sandbox installs.
// `npx tsx sandbox/token/compile.ts` rewrites artifact.json; a unit test checks the committed one is current.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import solc from "solc";

const here = path.dirname(fileURLToPath(import.meta.url));

export type TokenArtifact = { compiler: string; abi: unknown[]; deployedBytecode: `0x${string}` };

export function compileToken(): TokenArtifact {
  const input = {
    language: "Solidity",
    sources: { "SandboxUSDC.sol": { content: fs.readFileSync(path.join(here, "SandboxUSDC.sol"), "utf8") } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      metadata: { bytecodeHash: "none" },
      outputSelection: { "*": { SandboxUSDC: ["abi", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts["SandboxUSDC.sol"]!.SandboxUSDC!;
  return { compiler: solc.version(), abi: contract.abi, deployedBytecode: `0x${contract.evm.deployedBytecode.object}` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const artifact = compileToken();
  fs.writeFileSync(path.join(here, "artifact.json"), `${JSON.stringify(artifact, null, 1)}\n`);
  console.log(`SandboxUSDC: ${(artifact.deployedBytecode.length - 2) / 2} bytes of runtime code (${artifact.compiler})`);
}
