// Who the console acts as. Behind the identity-aware proxy: nobody here (the browser carries the
// proxy's identity). After a local sign-in on a developer's machine: the header name and the chosen
// user's e-mail, kept in this tab's sessionStorage.
const KEY = 'fip.console.identity';

export interface IdentityHeader {
  name: string;
  value: string;
}

export function getIdentityHeader(): IdentityHeader | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as IdentityHeader) : null;
  } catch {
    return null;
  }
}

export function setIdentityHeader(id: IdentityHeader | null): void {
  if (id) sessionStorage.setItem(KEY, JSON.stringify(id));
  else sessionStorage.removeItem(KEY);
}
