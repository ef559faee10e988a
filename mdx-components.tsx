import type { MDXComponents } from "mdx/types";
import { isValidElement, type ReactElement } from "react";
import Link from "next/link";
import { CodeBlock } from "@/components/content/code-block";
import { fillPlaceholders } from "@/lib/deployment";
import { slugify } from "@/lib/listings/slug";

type CodeProps = { className?: string; children?: string };

// Fenced code blocks arrive as <pre><code class="language-x">; highlight them with shiki. Code names this
// deployment through placeholders ({SITE_URL}, {CLIENT_PACKAGE}, {SERVER_PACKAGE}; lib/deployment.ts).
function Pre({ children }: { children?: React.ReactNode }) {
  if (isValidElement(children)) {
    const { className, children: code } = (children as ReactElement<CodeProps>).props;
    const lang = className?.replace(/^language-/, "");
    return <CodeBlock code={fillPlaceholders(String(code ?? ""))} lang={lang} />;
  }
  return <pre>{children}</pre>;
}

function Code({ children, ...rest }: React.ComponentProps<"code">) {
  return <code {...rest}>{typeof children === "string" ? fillPlaceholders(children) : children}</code>;
}

function Anchor({ href = "", children, ...rest }: React.ComponentProps<"a">) {
  if (href.startsWith("/"))
    return (
      <Link href={href} {...rest}>
        {children}
      </Link>
    );
  if (href.startsWith("#") || href.startsWith("mailto:"))
    return (
      <a href={href} {...rest}>
        {children}
      </a>
    );
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
      {children}
    </a>
  );
}

function Table(props: React.ComponentProps<"table">) {
  return (
    <div className="my-6 overflow-x-auto rounded-lg border">
      <table {...props} />
    </div>
  );
}

function textOf(node: React.ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement(node)) return textOf((node as ReactElement<{ children?: React.ReactNode }>).props.children);
  return "";
}

// Section headings get ids from their text, so guides and legal pages can link to a section (#your-wallet).
function H2({ id, children, ...rest }: React.ComponentProps<"h2">) {
  return (
    <h2 id={id ?? slugify(textOf(children))} {...rest}>
      {children}
    </h2>
  );
}
function H3({ id, children, ...rest }: React.ComponentProps<"h3">) {
  return (
    <h3 id={id ?? slugify(textOf(children))} {...rest}>
      {children}
    </h3>
  );
}

const components: MDXComponents = { pre: Pre, code: Code, a: Anchor, table: Table, h2: H2, h3: H3 };

export function useMDXComponents(inherited: MDXComponents = {}): MDXComponents {
  return { ...components, ...inherited };
}
