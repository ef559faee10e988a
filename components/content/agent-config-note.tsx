import { Callout } from "@/components/content/callout";
import { besideSandbox } from "@/lib/deployment";

/**
 * What the agent config block next to it is for, where the reader is: beside a running sandbox the block names the
 * sandbox's chain and funded wallet (paste it as it stands); on a deployment, how to get that block locally.
 */
export function AgentConfigNote() {
  if (besideSandbox()) {
    return (
      <Callout kind="tip" title="This site is your local sandbox">
        <p>
          The block below is the one <code>npm run sandbox</code> printed: it searches this sandbox, reads its local
          chain (<code>AGORA_RPC_URL</code>) and pays from its funded buyer wallet (<code>AGORA_WALLET_FILE</code>).
          Paste it as it stands; nothing needs filling in.
        </p>
      </Callout>
    );
  }
  return (
    <Callout kind="note" title="Try it locally first">
      <p>
        No testnet USDC yet? From a clone of the Agora repository, run <code>npm ci</code>, then{" "}
        <code>npm run sandbox</code>: it runs this site on your machine with a local chain, paid sample servers and a
        funded wallet, and prints this block with the sandbox&apos;s chain and wallet filled in. Its own Getting Started
        page, at the address it prints, shows the same block.
      </p>
    </Callout>
  );
}
