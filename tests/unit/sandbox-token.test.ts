import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { compileToken } from "@/sandbox/token/compile";

describe("the sandbox USDC token", () => {
  it("is the committed artifact of SandboxUSDC.sol (rebuild with npx tsx sandbox/token/compile.ts)", () => {
    const committed = JSON.parse(fs.readFileSync("sandbox/token/artifact.json", "utf8"));
    const fresh = compileToken();
    expect(committed.deployedBytecode).toBe(fresh.deployedBytecode);
    expect(committed.abi).toEqual(fresh.abi);
  });
});
