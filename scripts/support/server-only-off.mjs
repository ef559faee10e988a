// Preloaded by every `tsx` command in package.json (`tsx --import ./scripts/support/server-only-off.mjs …`).
//
// Site modules that must never reach a browser bundle import `server-only`, whose default export throws outside
// React Server Components. A command run from a terminal (ingest, check:all, the sandbox…) is as server-side as
// code gets, so here `server-only` resolves to the package's own empty module, as Next's react-server condition
// makes it, without turning that condition on for React and everything else.
import { register } from "node:module";

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === "server-only") return next(specifier, { ...context, conditions: ["react-server", ...context.conditions] });
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url);
