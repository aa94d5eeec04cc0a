// Passkeys in the browser: the WebAuthn ceremonies of @simplewebauthn/browser, loaded only when a
// passkey is made or used (most visits never touch one). The options come from the server as JSON
// and the answers go back as JSON; @simplewebauthn/server checks them.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

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

export type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON };
