import Link from "next/link";
import { Button } from "@/components/ui/button";

export default function Forbidden() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:py-32">
      <p className="text-7xl font-bold tracking-tight text-primary">403</p>
      <h1 className="mt-4 text-2xl font-semibold">Admins only</h1>
      <p className="mt-2 text-muted-foreground">Your account cannot open this page.</p>
      <Button asChild className="mt-8" size="lg">
        <Link href="/">Return to Home</Link>
      </Button>
    </section>
  );
}
