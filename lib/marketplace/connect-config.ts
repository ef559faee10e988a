// The desktop-assistant config block: the local Agora client finds any listed server through the registry.
import { site } from "@/lib/site";

export function clientConfigFor(): string {
  return JSON.stringify(
    {
      mcpServers: {
        agora: {
          command: "npx",
          args: ["-y", site.clientPackage],
          env: { ENABLE_REQUEST_ELICITATION: "true", ELICITATION_THRESHOLD: "0.01" },
        },
      },
    },
    null,
    2,
  );
}
