// `npm run lint:comments`: fails when a comment cites an issue or spec section number, or names a file that does not
// exist (scripts/support/comment-facts.ts says why each matters).
import { commentFindings } from "./support/comment-facts";

const findings = commentFindings();
for (const f of findings) {
  const what =
    f.kind === "history"
      ? "cites the tracker or the spec by number (say the why in words)"
      : `names ${f.text}, which does not exist`;
  console.log(`${f.file}:${f.line} ${what}${f.kind === "history" ? `\n    ${f.text}` : ""}`);
}
if (findings.length) {
  console.log(`\n${findings.length} comment(s) to fix`);
  process.exit(1);
}
console.log("comments: no issue or spec numbers, every named file exists");
