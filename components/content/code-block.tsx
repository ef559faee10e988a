import { codeToHtml } from "shiki";
import { CopyButton } from "./copy-button";

// The same block highlighted once per process: the detail page's "How to connect" config is one text on every listing,
// and highlighting it cost several milliseconds of every first render. Keys are the code and language the pages pass
// (a handful of fixed blocks), so the map stays small; a bound keeps it so should a page ever pass varying text.
const MAX_HIGHLIGHTED = 200;
const highlighted = new Map<string, Promise<string>>();

async function highlight(text: string, lang: string): Promise<string> {
  try {
    return await codeToHtml(text, { lang, theme: "github-light" });
  } catch {
    return codeToHtml(text, { lang: "text", theme: "github-light" });
  }
}

function highlightOnce(text: string, lang: string): Promise<string> {
  const key = `${lang}\n${text}`;
  let html = highlighted.get(key);
  if (!html) {
    if (highlighted.size >= MAX_HIGHLIGHTED) highlighted.delete(highlighted.keys().next().value!);
    html = highlight(text, lang);
    highlighted.set(key, html);
    // A failure is not remembered: the next render tries again.
    html.catch(() => highlighted.delete(key));
  }
  return html;
}

/** Syntax-highlighted on the server (once per text and language); no highlighter ships to the browser. */
export async function CodeBlock({ code, lang, title }: { code: string; lang?: string; title?: string }) {
  const text = code.replace(/\n$/, "");
  const html = await highlightOnce(text, lang || "text");
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
