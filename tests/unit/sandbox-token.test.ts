import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { compileContract, SANDBOX_CONTRACTS, type SandboxContract } from "@/sandbox/token/compile";

describe("the sandbox chain's contracts", () => {
  for (const [name, file] of Object.entries(SANDBOX_CONTRACTS) as [SandboxContract, string][]) {
    it(`${name} is the committed artifact ${file} (rebuild with npx tsx sandbox/token/compile.ts)`, () => {
      const committed = JSON.parse(fs.readFileSync(`sandbox/token/${file}`, "utf8"));
      const fresh = compileContract(name);
      expect(committed.deployedBytecode).toBe(fresh.deployedBytecode);
      expect(committed.abi).toEqual(fresh.abi);
    });
  }
});
