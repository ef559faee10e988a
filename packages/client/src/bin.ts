#!/usr/bin/env node
// `npx @agora-mcp/client`: the wallet's MCP server on stdio for a desktop assistant.
// `… import-key` saves an existing key read from standard input (never from the command line, which other
// users can see); `… address` prints the wallet's address. Logs go to stderr: stdout carries MCP.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { chainReader } from "./chain.js";
import { chainName } from "./local-chain.js";
import fs from "node:fs";
import path from "node:path";
import { LimitConflict, PolicyError } from "./policy/load.js";
import { serveFault } from "./settings-fault.js";
import { loadSettings, SettingsError } from "./settings.js";
import { buildClientServer } from "./tools/index.js";
import { openLedger } from "./wallet-ledger.js";
import { ConfirmationStates, Confirmations } from "./confirm.js";
import { walletPageUrl } from "./wallet-page.js";
import { importWallet, openWallet, WalletError, type Wallet } from "./wallet.js";

let wallet: Wallet | undefined;

function log(message: string) {
  process.stderr.write(`[agora-mcp-client] ${wallet ? wallet.redact(message) : message}\n`);
}

function fail(message: string): never {
  log(message);
  process.exit(1);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main() {
  const command = process.argv[2];
  let settings;
  try {
    settings = loadSettings();
  } catch (error) {
    const reason =
      error instanceof SettingsError
        ? `Bad setting ${error.message}`
        : error instanceof PolicyError
          ? `Bad spending policy ${error.message}`
          : error instanceof LimitConflict
            ? `Spending limits that contradict each other: ${error.message}`
            : undefined;
    if (reason === undefined) throw error;
    // From the MCP bundle the host shows only "Connection closed": answer the reason through the wallet tool instead.
    if (process.env.AGORA_BUNDLE_SETTINGS && (command === undefined || command === "serve")) {
      log(reason);
      serveFault(reason.endsWith(".") ? reason : `${reason}.`);
      return;
    }
    fail(reason);
  }
  try {
    if (command === "import-key") {
      const imported = importWallet(settings.walletFile, await readStdin());
      log(`Imported wallet ${imported.address} into ${imported.file}`);
      return;
    }
    // A named wallet in a folder that does not exist is a wrong path (a pasted block from another machine or run),
    // not a wish for a new empty wallet there.
    const folder = path.dirname(settings.walletFile);
    if (settings.walletFileSet && !fs.existsSync(folder)) {
      fail(
        `Bad setting AGORA_WALLET_FILE: there is no folder ${folder}; check the path (npm run sandbox prints its wallet file), or leave the setting out to use ~/.agora/wallet.json.`,
      );
    }
    wallet = openWallet(settings.walletFile);
  } catch (error) {
    if (error instanceof WalletError) fail(error.message);
    throw error;
  }
  if (command === "address") {
    process.stdout.write(`${wallet.address}\n`);
    return;
  }
  if (command !== undefined && command !== "serve")
    fail(`Unknown command "${command}": use no command (serve over stdio), import-key or address.`);

  // The address (never the key) on first start, and where to fund it without a terminal.
  if (wallet.created)
    log(
      `Created a new wallet ${wallet.address} in ${wallet.file} (keep that file private; back it up). Fund it: ${walletPageUrl(settings.registryUrl, wallet.address)}`,
    );
  const ledger = openLedger(settings, wallet);
  // Both eras over stdio (SDK v2): a 2026-07-28 host (server/discover) and a 2025 host (initialize) alike.
  const deps = {
    settings,
    wallet,
    ledger,
    chain: chainReader(settings.network, settings.rpcUrl),
    confirmations: new Confirmations(),
    confirmationStates: new ConfirmationStates(),
  };
  const served = serveStdio(() => buildClientServer(deps));
  log(
    `Wallet ${wallet.address} on ${chainName(settings.network, settings.rpcUrl, { withUrl: true })}; registry ${settings.registryUrl}; spending policy ${settings.policy?.file ?? "from the settings (no policy file)"}; ready.`,
  );
  const stop = () => void served.close().finally(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.stdin.on("end", stop);
}

process.on("uncaughtException", (error) => fail(`Crashed: ${error.message.split("\n")[0]}`));
process.on("unhandledRejection", (error) =>
  fail(`Crashed: ${error instanceof Error ? error.message.split("\n")[0] : "unknown error"}`),
);

main().catch((error: unknown) => fail(error instanceof Error ? error.message.split("\n")[0]! : "Failed to start"));
