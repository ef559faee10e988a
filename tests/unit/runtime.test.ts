// The suite, the site and every npm script run on the Node.js that package.json installs (node-linux-*), not on
// whatever older Node started npm: Node 20 is past its end of life, and on it every rendered page leaked the segment
// prefetch stream Next leaves open (the heap filled under a crawler). Where no such package exists for the machine,
// the machine's own Node runs and must be at least the engines minimum.
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const pinned = pkg.optionalDependencies[`node-${process.platform}-${process.arch}`];

describe("the runtime", () => {
  it.runIf(pinned !== undefined)("is the Node.js package.json installs for this machine", () => {
    expect(process.version).toBe(`v${pinned}`);
    expect(process.versions.node.split(".")[0]).toBe("24");
  });

  it("is at least the engines minimum", () => {
    const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
    const [, wantMajor, wantMinor] = /^>=(\d+)\.(\d+)/.exec(pkg.engines.node)!.map(Number) as [number, number, number];
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor)).toBe(true);
  });
});
