// The console's local sign-in (a person picks a user on a developer's machine) exists only where
// the identity header is already unverified by design: the API trusts the proxy header without an
// IAP assertion, the operator acknowledged that mode (SVC_AUTH__ALLOW_UNVERIFIED_HEADER=true), and
// the API listens on loopback, so only the developer's own machine can reach it. Anywhere else the
// browser carries the proxy's identity as-is and the console offers no user picker.
import { isLoopbackHost } from './identity-mode';

export interface LocalSignInInput {
  host: string;
  trustProxyHeader: boolean;
  iapAudience: string | undefined;
  allowUnverifiedHeader: boolean;
}

export function localSignInEnabled(input: LocalSignInInput): boolean {
  return input.trustProxyHeader && !input.iapAudience && input.allowUnverifiedHeader && isLoopbackHost(input.host);
}
