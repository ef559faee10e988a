// What the sign-in pages say about the ways in, from the ways this deployment has configured: a page never describes
// or offers a provider whose app is not set up (the button would only lead to "not available"). With a GitHub app
// configured the product spec's own words stand.
export type SignInMethods = { github: boolean; google: boolean };

/** The line under /login's "Login" heading. */
export function loginDescription({ github, google }: SignInMethods): string {
  if (github) return "Enter with your gmail or github account";
  if (google) return "Enter with your Google account or your email";
  return "Sign in with your email and password";
}

/** The line under the signed-out card on /submit. */
export function submitDescription({ github, google }: SignInMethods): string {
  if (github) return "Enter with your github account";
  if (google) return "Sign in with your Google account or your email";
  return "Sign in with your email to list your server";
}

/** The provider /register offers beside "Sign in" (null: email only). */
export function registerAlternative({ github, google }: SignInMethods): { label: string; href: string } | null {
  if (github) return { label: "Use GitHub", href: "/login" };
  if (google) return { label: "Use Google", href: "/login" };
  return null;
}
