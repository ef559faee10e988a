/** Numbered steps for guides: each number sits in a circle on a line that joins the steps. */
export function Steps({ children }: { children: React.ReactNode }) {
  return (
    <ol className="my-8 list-none space-y-0 pl-0" data-testid="steps">
      {children}
    </ol>
  );
}

// The number is explicit rather than a CSS counter so the heading can say "Step 2: …" to screen readers
// and to links, while sighted readers see it in the circle.
export function Step({
  n,
  title,
  level = 2,
  children,
}: {
  n: number;
  title: string;
  level?: 2 | 3;
  children: React.ReactNode;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  // On phones the body spans the full width under the number, so code blocks keep room to breathe;
  // from sm up it sits in the second column and a line joins the circles.
  return (
    <li
      data-testid="step"
      className="relative grid grid-cols-[2rem_minmax(0,1fr)] items-start gap-x-3 pb-10 last:pb-0 sm:gap-x-5 sm:before:absolute sm:before:top-10 sm:before:bottom-2 sm:before:left-4 sm:before:w-px sm:before:-translate-x-1/2 sm:before:bg-border sm:last:before:hidden"
    >
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground shadow-sm ring-4 ring-primary/10"
      >
        {n}
      </span>
      <Heading id={`step-${n}`} className="mt-0.5 mb-0 text-xl leading-7 font-semibold tracking-tight text-foreground">
        <span className="sr-only">Step {n}: </span>
        {title}
      </Heading>
      <div className="col-span-2 mt-3 min-w-0 sm:col-span-1 sm:col-start-2 sm:mt-2 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0">
        {children}
      </div>
    </li>
  );
}
