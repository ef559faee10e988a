// Where a file's JSON breaks, as a person finds it in an editor: line and column, never the bytes around it.
/** Where a JSON syntax error is, as line and column (1-based), from the parser's "position N". */
export function jsonErrorPlace(text: string, error: SyntaxError): string {
  const lineColumn = /line (\d+) column (\d+)/.exec(error.message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`;
  const position = /position (\d+)/.exec(error.message);
  // No position: the text ended before the JSON did.
  const at = position ? Number(position[1]) : text.length;
  const before = text.slice(0, at).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** The parser's reason without its echo of the text or its position ("Unexpected token 'b'", "Unexpected end of JSON input"). */
export function jsonErrorReason(error: SyntaxError): string {
  return error.message
    .replace(/, ".*" is not valid JSON$/s, "")
    .replace(/\s*in JSON at position \d+.*$/s, "")
    .replace(/\s*\(line \d+ column \d+\)/, "");
}
