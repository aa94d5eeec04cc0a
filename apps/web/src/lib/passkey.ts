// Passkeys in the browser: the WebAuthn ceremonies of @simplewebauthn/browser, loaded only when a
// passkey is made or used (most visits never touch one). The options come from the server as JSON
// and the answers go back as JSON; @simplewebauthn/server checks them.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { PasskeyItem, WebauthnResponse } from '@lq/contracts';
import { api } from './session';

/** This browser can make and use passkeys here (WebAuthn, on a secure origin). */
export const passkeysSupported = () =>
  typeof window !== 'undefined' &&
  window.isSecureContext &&
  typeof window.PublicKeyCredential === 'function';

/** navigator.credentials.create with the options of `user/api/passkeys/options`. */
export async function createPasskey(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON });
}

/** navigator.credentials.get with the options of `user/api/login/2fa/passkey`. */
export async function signWithPasskey(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON });
}

/**
 * The user closed the browser's passkey dialog, or it timed out (WebAuthn reports both as
 * NotAllowedError): nothing went wrong that a message should report.
 */
export const passkeyDismissed = (e: unknown) =>
  e instanceof Error && (e.name === 'NotAllowedError' || e.name === 'AbortError');

export type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON };

/** The user's passkeys (`user/api/passkeys`), shared by the Security page and every step-up field. */
export const PASSKEYS_QUERY_KEY = ['user', 'passkeys'] as const;

export const fetchPasskeys = () => api.get<PasskeyItem[]>('user/api/passkeys');

/**
 * The step-up of an action signed by a passkey: options from `user/api/2fa/passkey`, the browser's
 * assertion back; null when the user closed the dialog.
 */
export async function stepUpWithPasskey(): Promise<WebauthnResponse | null> {
  const options = await api.post<PublicKeyCredentialRequestOptionsJSON>('user/api/2fa/passkey', {}, { silent: true });
  try {
    // The library's JSON is the wire format the contract checks (its types lack the index signature).
    return (await signWithPasskey(options)) as unknown as WebauthnResponse;
  } catch (e) {
    if (passkeyDismissed(e)) return null;
    throw e;
  }
}
