// The desktop-assistant config block: the local Agora client finds any listed server through the registry. The
// client comes from this site's tarball (or the npm registry, once published) and searches this site's registry.
import { packageSpec, registryUrl } from "@/lib/deployment";

export type ClientConfig = {
  mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
};

export function clientConfig(): ClientConfig {
  return {
    mcpServers: {
      agora: {
        command: "npx",
        args: ["-y", packageSpec("client")],
        env: { AGORA_REGISTRY_URL: registryUrl(), ENABLE_REQUEST_ELICITATION: "true", ELICITATION_THRESHOLD: "0.01" },
      },
    },
  };
}

export function clientConfigFor(): string {
  return JSON.stringify(clientConfig(), null, 2);
}
