// The wallet's MCP server for the agent: wallet, search_servers, explore_server, purchase, review, revoke_review,
// check_job and close_channel, one file each, with input and output schemas and a readable text answer. Nothing here returns the key.
import { McpServer } from "@modelcontextprotocol/server";
import { ConfirmationStates, Confirmations } from "../confirm.js";
import type { ClientDeps, ToolDeps } from "./answer.js";
import { registerCheckJob } from "./check-job.js";
import { registerCloseChannel } from "./close-channel.js";
import { registerExploreServer } from "./explore-server.js";
import { registerPurchase } from "./purchase.js";
import { registerReview } from "./review.js";
import { registerRevokeReview } from "./revoke-review.js";
import { registerSearchServers } from "./search-servers.js";
import { registerWallet } from "./wallet.js";

export type { ClientDeps } from "./answer.js";

export function buildClientServer(deps: ClientDeps): McpServer {
  const confirmations = deps.confirmations ?? new Confirmations();
  const confirmationStates = deps.confirmationStates ?? new ConfirmationStates();
  const mcp = new McpServer(
    { name: "agora-wallet", title: "Agora wallet", version: "0.1.0" },
    {
      // A purchase confirmation's requestState (2026-07-28) is checked (seal, expiry) before the tool runs.
      requestState: { verify: confirmationStates.verify },
      instructions:
        "A USDC wallet for paid MCP servers listed in the Agora registry. Find servers with search_servers, see what one sells with explore_server, " +
        "buy with purchase (it checks the price and the spending policy, and asks the person when needed), collect asynchronous items with check_job, close a payment channel (what its calls did not use comes back) with close_channel, rate a server you paid with review (and withdraw that review with revoke_review). " +
        "The wallet tool shows the balance, the spending rules and what is left of each budget.",
    },
  );
  const tools: ToolDeps = { ...deps, confirmations, confirmationStates, mcp };
  for (const register of [
    registerWallet,
    registerSearchServers,
    registerExploreServer,
    registerPurchase,
    registerReview,
    registerRevokeReview,
    registerCheckJob,
    registerCloseChannel,
  ])
    register(tools);
  return mcp;
}
