import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "@/components/ui/card";

/** The frame of every sign-in screen: a centred card with a title, a line of text and the form. */
export function AuthScreen({
  title,
  description,
  footer,
  children,
}: {
  title: string;
  description: React.ReactNode;
  footer?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card className="gap-5">
        <CardHeader className="text-center">
          <h1 data-slot="card-title" className="text-2xl font-semibold tracking-tight">
            {title}
          </h1>
          <CardDescription className="text-pretty">{description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
        {footer && (
          <CardFooter className="flex-col gap-2 border-t pt-5 text-center text-sm text-muted-foreground">
            {footer}
          </CardFooter>
        )}
      </Card>
    </div>
  );
}

/** "or" between groups of sign-in options. */
export function OrDivider() {
  return (
    <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase" role="separator" aria-label="or">
      <span className="h-px flex-1 bg-border" />
      or
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}
