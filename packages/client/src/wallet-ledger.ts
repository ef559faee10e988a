// The ledger of the wallet the client runs with: per wallet address and network (settings.ledgerFileFor). A ledger
// from before it was per wallet is taken over only when it began after this wallet was made, so it can only be this
// wallet's; an older one (another key once in the same file) stays where it is and counts for nobody.
import fs from "node:fs";
import { Ledger } from "./ledger.js";
import { ledgerFileFor, legacyLedgerFile, type Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";

function walletCreatedAt(file: string): number | undefined {
  try {
    const createdAt = (JSON.parse(fs.readFileSync(file, "utf8")) as { createdAt?: unknown }).createdAt;
    const time = typeof createdAt === "string" ? Date.parse(createdAt) : NaN;
    return Number.isNaN(time) ? undefined : time;
  } catch {
    return undefined;
  }
}

export function openLedger(
  settings: Pick<Settings, "walletFile" | "network">,
  wallet: Pick<Wallet, "address" | "file">,
): Ledger {
  const file = ledgerFileFor(settings, wallet.address);
  const legacy = legacyLedgerFile(settings);
  if (!fs.existsSync(file) && fs.existsSync(legacy)) {
    const first = new Ledger(legacy).lines()[0];
    const created = walletCreatedAt(wallet.file);
    if (first && created !== undefined && Date.parse(first.time) >= created) fs.renameSync(legacy, file);
  }
  return new Ledger(file);
}
