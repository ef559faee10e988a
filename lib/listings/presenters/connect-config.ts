// The desktop-assistant config block: the local Agora client finds any listed server through the registry.
import { site } from "@/lib/site";

export type ClientConfig = {
  mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
};

export function clientConfig(): ClientConfig {
  return {
    mcpServers: {
      agora: {
        command: "npx",
        args: ["-y", site.clientPackage],
        env: { ENABLE_REQUEST_ELICITATION: "true", ELICITATION_THRESHOLD: "0.01" },
      },
    },
  };
}

export function clientConfigFor(): string {
  return JSON.stringify(clientConfig(), null, 2);
}
