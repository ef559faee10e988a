import Link from "next/link";
import { Mail } from "lucide-react";
import { contactEmail } from "@/lib/deployment";
import { mainNav, site } from "@/lib/site";
import { Logo } from "./logo";

function XIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true" fill="currentColor">
      <path d="M18.9 2H22l-6.8 7.8L23 22h-6.2l-4.8-6.3L6.4 22H3.3l7.3-8.3L1 2h6.3l4.4 5.8L18.9 2Zm-1.1 18h1.7L6.3 3.9H4.5L17.8 20Z" />
    </svg>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1.5fr_1fr_1fr]">
        <div className="space-y-3">
          <Link href="/" className="flex items-center gap-2 font-semibold">
            <Logo className="size-6" />
            {site.name}
          </Link>
          <p className="max-w-sm text-sm text-muted-foreground">
            {site.tagline}. A developer preview — feedback is welcome.
          </p>
        </div>
        <nav aria-label="Footer" className="text-sm">
          <h2 className="mb-3 font-semibold">Product</h2>
          <ul className="space-y-2 text-muted-foreground">
            {mainNav.map((item) => (
              <li key={item.href}>
                <Link className="hover:text-foreground" href={item.href}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="text-sm">
          <h2 className="mb-3 font-semibold">Company</h2>
          <ul className="space-y-2 text-muted-foreground">
            <li>
              <a className="hover:text-foreground" href="/terms-of-service" target="_blank" rel="noopener noreferrer">
                Terms of Service
              </a>
            </li>
            <li>
              <a className="hover:text-foreground" href="/privacy-policy" target="_blank" rel="noopener noreferrer">
                Privacy Policy
              </a>
            </li>
            <li>
              <a
                className="inline-flex items-center gap-2 hover:text-foreground"
                href={site.socialUrl}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`${site.name} on X`}
              >
                <XIcon /> Follow us
              </a>
            </li>
            <li>
              <a className="inline-flex items-center gap-2 hover:text-foreground" href={`mailto:${contactEmail()}`}>
                <Mail className="size-4" /> {contactEmail()}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} {site.name}. Payments settle in USDC on Base Sepolia (testnet) during the preview.
      </div>
    </footer>
  );
}
