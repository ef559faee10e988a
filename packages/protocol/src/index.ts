// @agora-mcp/protocol: the wire formats Agora's registry, provider kit and agent client share.
export * from "./amounts.js";
export * from "./networks.js";
export * from "./x402.js";
export * from "./paid-styles.js";
export * from "./paid-tool-names.js";
export * from "./monetized.js";
export * from "./jobs.js";
export * from "./catalogue.js";
export * from "./registry.js";
export * from "./tool-example.js";
export * from "./buyer-review.js";
export * from "./json-mode.js";
