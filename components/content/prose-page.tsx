/** Frame for long-form MDX pages: a readable measure, an eyebrow and a lead. */
export function ProsePage({
  eyebrow,
  children,
  aside,
}: {
  eyebrow?: string;
  children: React.ReactNode;
  aside?: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      {eyebrow && <p className="mb-3 text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>}
      <article className="prose-page">{children}</article>
      {aside}
    </div>
  );
}
