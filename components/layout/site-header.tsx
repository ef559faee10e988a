"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { Menu, UserRound, X } from "lucide-react";
import { mainNav, site } from "@/lib/site-copy";
import { Logo } from "./logo";
import { useSignedIn } from "./use-signed-in";

// Class strings are written out whole (what cn() produced) so every page's first load need not carry
// tailwind-merge for this one component.
const HEADER = "sticky top-0 z-40 w-full border-b transition-colors duration-200";
const NAV_LINK = "rounded-md px-3 py-2 text-sm font-medium transition-colors";
function navLinkClass(href: string, current: boolean): string {
  if (href === "/submit")
    return `${NAV_LINK} ml-2 bg-primary text-primary-foreground hover:bg-primary/90 hover:text-primary-foreground`;
  return `${NAV_LINK} hover:bg-accent hover:text-foreground ${current ? "text-foreground" : "text-foreground/75"}`;
}

export function SiteHeader() {
  const pathname = usePathname();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const signedIn = useSignedIn(pathname);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 20);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  // A navigation (a link, back or forward) closes the mobile menu: adjusted while rendering the new path, so the
  // page never paints once with the menu still open (React's pattern for state that follows a changed value).
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }

  const opaque = scrolled || menuOpen;
  return (
    <header
      data-testid="site-header"
      data-scrolled={opaque ? "true" : "false"}
      className={`${HEADER} ${opaque ? "border-border bg-white/95 shadow-sm backdrop-blur" : "border-transparent bg-transparent"}`}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link
          href="/"
          className="flex items-center gap-2 font-semibold tracking-tight"
          aria-label={`${site.name} home`}
        >
          <Logo />
          <span className="text-lg">{site.name}</span>
          <span className="hidden rounded-full border border-primary/20 bg-primary/5 px-2 py-0.5 text-[11px] font-medium text-primary sm:inline">
            Developer preview
          </span>
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {mainNav.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              aria-current={pathname === item.href ? "page" : undefined}
              className={navLinkClass(item.href, pathname === item.href)}
            >
              {item.label}
            </Link>
          ))}
          {signedIn && (
            <Link
              href="/account"
              aria-current={pathname === "/account" ? "page" : undefined}
              className="ml-1 inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-foreground/75 transition-colors hover:bg-accent hover:text-foreground"
            >
              <UserRound className="size-4" aria-hidden="true" />
              Account
            </Link>
          )}
          {signedIn === false && (
            <Link
              href="/login"
              aria-current={pathname === "/login" ? "page" : undefined}
              className="ml-1 inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-foreground/75 transition-colors hover:bg-accent hover:text-foreground"
            >
              <UserRound className="size-4" aria-hidden="true" />
              Sign in
            </Link>
          )}
        </nav>
        <button
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-md text-foreground hover:bg-accent md:hidden"
          aria-label={menuOpen ? "Close menu" : "Open menu"}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-5" /> : <Menu className="size-5" />}
        </button>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t bg-white px-4 pb-4 md:hidden">
          <ul className="flex flex-col pt-2">
            {mainNav.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  className="block rounded-md px-3 py-3 text-base font-medium text-foreground/80 hover:bg-accent hover:text-foreground"
                  onClick={() => setMenuOpen(false)}
                >
                  {item.label}
                </Link>
              </li>
            ))}
            {signedIn && (
              <li>
                <Link
                  href="/account"
                  className="block rounded-md px-3 py-3 text-base font-medium text-foreground/80 hover:bg-accent hover:text-foreground"
                  onClick={() => setMenuOpen(false)}
                >
                  Account
                </Link>
              </li>
            )}
            {signedIn === false && (
              <li>
                <Link
                  href="/login"
                  className="block rounded-md px-3 py-3 text-base font-medium text-foreground/80 hover:bg-accent hover:text-foreground"
                  onClick={() => setMenuOpen(false)}
                >
                  Sign in
                </Link>
              </li>
            )}
          </ul>
        </nav>
      )}
    </header>
  );
}
