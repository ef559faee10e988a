import { codeToHtml } from "shiki";
import { CopyButton } from "./copy-button";

/** Syntax-highlighted at render time; static pages render at build time, so no highlighter ships to the browser. */
export async function CodeBlock({ code, lang, title }: { code: string; lang?: string; title?: string }) {
  const text = code.replace(/\n$/, "");
  let html: string;
  try {
    html = await codeToHtml(text, { lang: lang || "text", theme: "github-light" });
  } catch {
    html = await codeToHtml(text, { lang: "text", theme: "github-light" });
  }
  return (
    <figure className="not-prose my-6 overflow-hidden rounded-lg border bg-[#fafbfc]" data-testid="code-block">
      <figcaption className="flex items-center justify-between border-b bg-muted/50 px-3 py-1.5 text-xs text-muted-foreground">
        <span className="font-mono">{title ?? lang ?? "text"}</span>
        <CopyButton value={text} />
      </figcaption>
      <div
        className="overflow-x-auto text-[13px] leading-6 [&_pre]:!bg-transparent [&_pre]:px-4 [&_pre]:py-3"
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </figure>
  );
}
