// The local wallet: one key in a JSON file under the user's home (directory 0700, file 0600), created on first
// start or imported. The key stays inside this module; everything else sees the address and a signer.
import fs from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { FileRefused, ownedByAnother, refuseSharedFolder } from "./file-trust.js";
import { jsonErrorPlace } from "./json-place.js";

const KEY = /^0x[0-9a-fA-F]{64}$/;

export class WalletError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WalletError";
  }
}

export type Wallet = {
  address: `0x${string}`;
  file: string;
  /** True when this start created the file. */
  created: boolean;
  /** The viem account that signs payments; never serialised. */
  account: PrivateKeyAccount;
  /** Removes the key from any text (a last line of defence for errors and logs). */
  redact: (text: string) => string;
};

type WalletFile = { address: string; privateKey: string; createdAt: string };

function makeRedactor(key: string): (text: string) => string {
  const bare = key.slice(2).toLowerCase();
  return (text) => {
    if (!text) return text;
    const lower = text.toLowerCase();
    if (!lower.includes(bare)) return text;
    let out = "";
    let from = 0;
    for (let at = lower.indexOf(bare); at !== -1; at = lower.indexOf(bare, from)) {
      const start = at >= 2 && lower.slice(at - 2, at) === "0x" ? at - 2 : at;
      out += text.slice(from, start) + "[private key redacted]";
      from = at + bare.length;
    }
    return out + text.slice(from);
  };
}

function toWallet(key: `0x${string}`, file: string, created: boolean): Wallet {
  const account = privateKeyToAccount(key);
  const wallet: Wallet = { address: account.address, file, created, account, redact: makeRedactor(key) };
  // The account object holds no key, but keep any accidental dump of the wallet short.
  Object.defineProperty(wallet, "toJSON", { value: () => ({ address: account.address, file }) });
  Object.defineProperty(wallet, inspect.custom, { value: () => `Wallet(${account.address})` });
  return wallet;
}

function ensureDirectory(dir: string): void {
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
  }
}

/**
 * A wallet someone else could swap for theirs is refused, never used: the person would fund the address it shows,
 * and the key would be theirs. So its folder must be the person's alone, and the file theirs (or root's).
 */
function checkPlace(file: string): void {
  try {
    if (fs.existsSync(path.dirname(file))) refuseSharedFolder(path.dirname(file), file);
    const owner = fs.existsSync(file) ? ownedByAnother(fs.statSync(file)) : undefined;
    if (owner) throw new FileRefused(`is not yours: ${owner}; move it away and import your own key`);
  } catch (error) {
    if (error instanceof FileRefused) throw new WalletError(`The wallet file ${file} ${error.reason}.`);
    throw error;
  }
}

/** Writes a new wallet file atomically (never over an existing one), readable by its owner only. */
function writeNew(file: string, key: `0x${string}`): void {
  ensureDirectory(path.dirname(file));
  checkPlace(file);
  const body: WalletFile = {
    address: privateKeyToAccount(key).address,
    privateKey: key,
    createdAt: new Date().toISOString(),
  };
  let fd: number;
  try {
    fd = fs.openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new WalletError(`A wallet already exists at ${file}; move it away first.`);
    throw new WalletError(`Cannot create the wallet file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  try {
    fs.writeSync(fd, `${JSON.stringify(body, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(file, 0o600);
}

function readExisting(file: string): Wallet {
  checkPlace(file);
  const mode = fs.statSync(file).mode & 0o777;
  // Others must not read the key; tighten a file someone copied in with loose permissions.
  if (mode & 0o077) fs.chmodSync(file, 0o600);
  let parsed: Partial<WalletFile>;
  const text = fs.readFileSync(file, "utf8");
  try {
    parsed = JSON.parse(text) as Partial<WalletFile>;
  } catch (error) {
    // Where, never what: the text around the error could be the key.
    throw new WalletError(
      `The wallet file ${file} is not valid JSON (at ${jsonErrorPlace(text, error as SyntaxError)}).`,
    );
  }
  if (typeof parsed.privateKey !== "string" || !KEY.test(parsed.privateKey)) {
    throw new WalletError(`The wallet file ${file} holds no valid privateKey (0x and 64 hex digits).`);
  }
  const wallet = toWallet(parsed.privateKey as `0x${string}`, file, false);
  if (parsed.address && parsed.address.toLowerCase() !== wallet.address.toLowerCase()) {
    throw new WalletError(
      `The wallet file ${file} names address ${parsed.address}, but its key belongs to ${wallet.address}.`,
    );
  }
  return wallet;
}

/** The wallet at `file`, created with a fresh key when there is none. */
export function openWallet(file: string): Wallet {
  if (fs.existsSync(file)) return readExisting(file);
  const key = generatePrivateKey();
  try {
    writeNew(file, key);
  } catch (error) {
    // Another client started at the same moment and won the race: use its wallet.
    if (error instanceof WalletError && fs.existsSync(file)) return readExisting(file);
    throw error;
  }
  return toWallet(key, file, true);
}

/** Saves an existing key (0x and 64 hex digits) as the wallet; refuses to overwrite one. */
export function importWallet(file: string, key: string): Wallet {
  const trimmed = key.trim();
  const normalised = (trimmed.startsWith("0x") ? trimmed : `0x${trimmed}`) as `0x${string}`;
  if (!KEY.test(normalised))
    throw new WalletError("That is not a private key: expected 64 hex digits, with or without 0x.");
  writeNew(file, normalised);
  return toWallet(normalised, file, true);
}

/** A wallet whose key a program was given (the registry's test-purchase setting): nothing is written anywhere. */
export function walletFromKey(key: string, label = "(from a setting)"): Wallet {
  const trimmed = key.trim();
  if (!KEY.test(trimmed)) throw new WalletError("That is not a private key: expected 0x and 64 hex digits.");
  return toWallet(trimmed as `0x${string}`, label, false);
}
