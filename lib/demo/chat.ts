// The simulated chat message of the event demo, and the one way its timestamps are written.
export type ChatRole = "user" | "assistant";

export type ChatMessage = {
  id: string;
  content: string;
  role: ChatRole;
  /** Local time as HH:mm. */
  timestamp: string;
};

export function formatTimestamp(date: Date): string {
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

export function formatUsd(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
