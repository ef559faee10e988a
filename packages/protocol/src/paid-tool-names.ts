// Bounds on the tool names a listing's owner gives as paid (PaidReason "owner"): the site's form and API refuse more,
// and the database refuses to store more, so every side reads the same numbers here.

/** The most tools an owner may name as paid on one listing. */
export const MAX_OWNER_PAID_TOOLS = 50;
/** The longest tool name MCP's naming guidance allows. */
export const MAX_TOOL_NAME_LENGTH = 128;
