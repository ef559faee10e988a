// The probe: what a listing's MCP server answers, read as a MonetizedMCP server.
export { probeServer, PROBE_TIMEOUT_MS, type ProbeOptions } from "./probe";
export type { NamedPaidTool } from "./x402-tools";
export * from "./types";
export { readToolList, TOOL_LIST_TIMEOUT_MS, type ListedToolSignal, type ToolListReading } from "./tool-list";
