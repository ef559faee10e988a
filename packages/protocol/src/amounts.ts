// USDC amounts as integers of the token's smallest unit (6 decimals), end to end. Prices arrive as JSON
// numbers or strings of dollars ("0.02", 0.02, "$0.02"); they are converted by decimal string arithmetic,
// never by multiplying floats.

export const USDC_DECIMALS = 6;
const SCALE = 10n ** BigInt(USDC_DECIMALS);

export class AmountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AmountError";
  }
}

/** A plain decimal string ("12.345") from a finite number, expanding exponent notation (1e-7, 1e+21). */
function decimalOfNumber(value: number): string {
  if (!Number.isFinite(value)) throw new AmountError(`Not a finite amount: ${value}`);
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = "", exp] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * Dollars to USDC units. Strings are exact: more than 6 decimals is refused, not rounded. Numbers are the
 * JSON a server sent, so float noise (0.1 + 0.2 = 0.30000000000000004) is rounded to the nearest unit.
 */
export function usdToUnits(value: string | number): bigint {
  let text: string;
  let roundExcess: boolean;
  if (typeof value === "number") {
    text = decimalOfNumber(value);
    roundExcess = true;
  } else if (typeof value === "string") {
    text = value
      .trim()
      .replace(/^\$\s*/, "")
      .replace(/_/g, "");
    roundExcess = false;
  } else {
    throw new AmountError("An amount must be a number or a string");
  }
  if (text.startsWith("-")) throw new AmountError(`A price cannot be negative: ${String(value).slice(0, 40)}`);
  const match = DECIMAL.exec(text);
  if (!match) throw new AmountError(`Not a decimal amount: ${String(value).slice(0, 40)}`);
  const whole = match[1] ?? "0";
  let fraction = match[2] ?? match[3] ?? "";
  let carry = 0n;
  if (fraction.length > USDC_DECIMALS) {
    const excess = fraction.slice(USDC_DECIMALS);
    if (!roundExcess && /[1-9]/.test(excess)) {
      throw new AmountError(`More precise than USDC's ${USDC_DECIMALS} decimals: ${text.slice(0, 40)}`);
    }
    carry = excess[0]! >= "5" ? 1n : 0n;
    fraction = fraction.slice(0, USDC_DECIMALS);
  }
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(USDC_DECIMALS, "0") || "0") + carry;
}

/** USDC units as a decimal string of dollars, without trailing zeros beyond the cents: 20000n → "0.02". */
export function unitsToUsd(units: bigint | string): string {
  const value = typeof units === "string" ? parseUnits(units) : units;
  if (value < 0n) throw new AmountError("Negative amount");
  const whole = value / SCALE;
  const fraction = (value % SCALE).toString().padStart(USDC_DECIMALS, "0").replace(/0+$/, "");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** "$0.02", for people. */
export function formatUsd(units: bigint | string): string {
  return `$${unitsToUsd(units)}`;
}

/** An integer amount of units as x402 carries it ("20000"); refuses anything else. */
export function parseUnits(value: string): bigint {
  if (!/^\d{1,78}$/.test(value)) throw new AmountError(`Not an integer amount of token units: ${value.slice(0, 40)}`);
  return BigInt(value);
}

/** Dollars as a JS number for display and sorting only (never for arithmetic on money). */
export function unitsToNumber(units: bigint | string): number {
  return Number(unitsToUsd(units));
}
