// The agent client's wallet file: created private on first start, importable, and the key kept out of text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { importWallet, openWallet } from "@agora-mcp/client";

const dirs: string[] = [];
function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-wallet-"));
  dirs.push(dir);
  return path.join(dir, "nested", ".agora-mcp", "wallet.json");
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const KEY = `0x${"4c".repeat(32)}` as const;

describe("client wallet", () => {
  it("creates the wallet on first start in a 0700 directory as a 0600 file, and reopens the same one", () => {
    const file = tempFile();
    const created = openWallet(file);
    expect(created.created).toBe(true);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(stored.address).toBe(created.address);
    expect(stored.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
    const again = openWallet(file);
    expect(again.created).toBe(false);
    expect(again.address).toBe(created.address);
  });

  it("tightens a wallet file others could read", () => {
    const file = tempFile();
    openWallet(file);
    fs.chmodSync(file, 0o644);
    openWallet(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a wallet in a folder others can write, where they could swap in a key of their own", () => {
    const file = tempFile();
    const created = openWallet(file);
    const dir = path.dirname(file);
    fs.chmodSync(dir, 0o777);
    expect(() => openWallet(file)).toThrow(
      `The wallet file ${file} is in the folder ${dir}, and anyone on this machine can write it (mode 0777), so someone else could put their own file there: make the folder yours alone (chmod go-w ${dir}), or move wallet.json to a folder only you can write.`,
    );
    const elsewhere = path.join(dir, "..", "shared", "wallet.json");
    fs.mkdirSync(path.dirname(elsewhere), { mode: 0o777 });
    fs.chmodSync(path.dirname(elsewhere), 0o1777);
    expect(() => importWallet(elsewhere, KEY)).toThrow(
      /is in the folder .*shared, and anyone on this machine can write it \(mode 01777\)/,
    );
    expect(fs.existsSync(elsewhere)).toBe(false);
    fs.chmodSync(dir, 0o700);
    expect(openWallet(file).address).toBe(created.address);
  });

  it.runIf(process.getuid?.() === 0)("refuses a wallet file another user owns", () => {
    const file = tempFile();
    openWallet(file);
    fs.chownSync(file, 4242, 4242);
    expect(() => openWallet(file)).toThrow(
      `The wallet file ${file} is not yours: another user (uid 4242) owns it; move it away and import your own key.`,
    );
  });

  it("imports an existing key, with or without 0x, and never over an existing wallet", () => {
    const file = tempFile();
    const imported = importWallet(file, `${KEY.slice(2)}\n`);
    // The address is the key's own (derived independently here), not any valid-looking address.
    expect(imported.address).toBe(privateKeyToAccount(KEY).address);
    expect(openWallet(file).address).toBe(imported.address);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).privateKey).toBe(KEY);
    // With 0x the same key is the same wallet.
    expect(importWallet(tempFile(), KEY).address).toBe(privateKeyToAccount(KEY).address);
    expect(() => importWallet(file, KEY)).toThrow(/already exists/);
    expect(() => importWallet(tempFile(), "0x1234")).toThrow(/not a private key/);
  });

  it("keeps the key out of JSON, inspection and any text it redacts", () => {
    const file = tempFile();
    const wallet = importWallet(file, KEY);
    expect(JSON.stringify(wallet)).not.toContain(KEY.slice(2));
    expect(inspect(wallet, { depth: 5 })).not.toContain(KEY.slice(2));
    expect(wallet.redact(`failed with ${KEY} and ${KEY.slice(2).toUpperCase()}`)).toBe(
      "failed with [private key redacted] and [private key redacted]",
    );
  });

  it("refuses a corrupt wallet file by name, without echoing its contents", () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `{"privateKey": "${KEY.slice(0, 20)}"}`);
    expect(() => openWallet(file)).toThrow(/holds no valid privateKey/);
    try {
      openWallet(file);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY.slice(2, 20));
    }
  });
});
