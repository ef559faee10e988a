import type { MDXComponents } from "mdx/types";
import { isValidElement, type ReactElement } from "react";
import Link from "next/link";
import { CodeBlock } from "@/components/content/code-block";

type CodeProps = { className?: string; children?: string };

// Fenced code blocks arrive as <pre><code class="language-x">; highlight them with shiki.
function Pre({ children }: { children?: React.ReactNode }) {
  if (isValidElement(children)) {
    const { className, children: code } = (children as ReactElement<CodeProps>).props;
    const lang = className?.replace(/^language-/, "");
    return <CodeBlock code={String(code ?? "")} lang={lang} />;
  }
  return <pre>{children}</pre>;
}

function Anchor({ href = "", children, ...rest }: React.ComponentProps<"a">) {
  if (href.startsWith("/")) return <Link href={href} {...rest}>{children}</Link>;
  if (href.startsWith("#") || href.startsWith("mailto:")) return <a href={href} {...rest}>{children}</a>;
  return <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>{children}</a>;
}

function Table(props: React.ComponentProps<"table">) {
  return (
    <div className="my-6 overflow-x-auto rounded-lg border">
      <table {...props} />
    </div>
  );
}

const components: MDXComponents = { pre: Pre, a: Anchor, table: Table };

export function useMDXComponents(inherited: MDXComponents = {}): MDXComponents {
  return { ...components, ...inherited };
}
