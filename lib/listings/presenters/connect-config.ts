// The desktop-assistant config block: the local Agora client finds any listed server through the registry. The
// client comes from this site's tarball (or the npm registry, once published) and searches this site's registry.
// Built in lib/deployment.ts (one source for every block a page, guide or the sandbox shows); re-exported here for
// the listing presenters.
export {
  agentConfig,
  besideSandbox,
  clientConfig,
  clientConfigFor,
  type AgentConfigParts,
  type ClientConfig,
} from "@/lib/deployment";
