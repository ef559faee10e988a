import Link from "next/link";
import { Button } from "@/components/ui/button";

/** The way on from the email confirmation screens, whether the link worked or not. */
export function GoToAccountButton() {
  return (
    <Button asChild variant="outline" size="lg" className="w-full">
      <Link href="/account">Go to your account</Link>
    </Button>
  );
}
