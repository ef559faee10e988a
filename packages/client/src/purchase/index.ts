// One purchase, in steps each in its own file: resolve the server, quote (re-read the price and payee from the
// server, check the parameters), take a free item as it is, or pay a priced one: check every rule of the spending
// policy and the balance (before anything is signed), ask the person at or above the threshold, reserve under the
// policy in the ledger's lock, sign and send, and count it as paid only when the chain shows exactly the price went
// to the payee (the receipt).
import { withConnection } from "../connections.js";
import { resolveServer } from "../servers.js";
import { takeFree } from "./free.js";
import { pay } from "./pay.js";
import { quote } from "./quote.js";
import { refused, type PurchaseDeps, type PurchaseInput, type PurchaseOutcome } from "./types.js";

export { OUTCOME_CODES, PURCHASE_STATUSES } from "./types.js";
export type {
  OutcomeCode,
  PurchaseDeps,
  PurchaseInput,
  PurchaseOutcome,
  PurchaseStatus,
  SettlementOrder,
} from "./types.js";

export async function purchase(input: PurchaseInput, deps: PurchaseDeps): Promise<PurchaseOutcome> {
  const resolved = await resolveServer(input.server, deps.settings);
  if (!resolved.ok) return refused("server_not_found", resolved.reason);
  const server = resolved.server;
  const at = { server: server.label, serverUrl: server.url };
  return withConnection(
    server.url,
    async (c) => {
      const quoted = await quote(c, { deps, input, server, at });
      switch (quoted.kind) {
        case "refused":
          return quoted.outcome;
        case "free":
          return takeFree(c, quoted.ctx, quoted.item);
        case "priced":
          return pay(c, quoted.ctx, quoted.offer);
      }
    },
    deps.connection,
  );
}
