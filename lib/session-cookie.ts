// Auth.js's session cookie names: `authjs.session-token`, `__Secure-authjs.session-token` over https, and
// `.0`, `.1`… chunks when the value is split.
const SESSION_COOKIE = /^(__Secure-|__Host-)?authjs\.session-token(\.\d+)?$/;

export function isSessionCookieName(name: string): boolean {
  return SESSION_COOKIE.test(name);
}
