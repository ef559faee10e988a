// `npm run lint:exports`: fails when the site's code exports a name no other file uses (scripts/support/export-facts.ts).
import { unnamedExports } from "./support/export-facts";

const found = unnamedExports();
for (const line of found)
  console.log(`${line}: exported, named in no other file (drop the export, or the code if nothing uses it)`);
if (found.length) {
  console.log(`\n${found.length} export(s) to drop`);
  process.exit(1);
}
console.log("exports: every export of the site's code is named in another file");
