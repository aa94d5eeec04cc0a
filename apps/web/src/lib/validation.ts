// Turns form errors into the user's language. Schema messages are catalog keys of contracts
// (`errors.*`, `validation.*`) or zod defaults; both map to our `validation.*` texts.
import type { FieldError } from 'react-hook-form';
import type { TFunction } from 'i18next';

const KEY_OF_MESSAGE: Record<string, string> = {
  'errors.PASSWORD_WEAK': 'validation.passwordWeak',
  'errors.PASSWORDS_DIFFER': 'validation.passwordsDiffer',
  'errors.PAY_PWD_FORMAT': 'validation.payPwdFormat',
  'errors.PAY_PWD_DIFFER': 'validation.payPwdDiffer',
  'errors.NICKNAME_TOO_LONG': 'validation.nicknameTooLong',
  'errors.REGISTER_COUNTRY_REFUSED': 'validation.countryRefused',
  'validation.invalidEmail': 'validation.email',
  'validation.countryFormat': 'validation.country',
};

/** i18n key for a field error; `fallback` names what the field expects (e.g. validation.email). */
export function errorKey(error: Pick<FieldError, 'type' | 'message'>, fallback = 'validation.invalid'): string {
  const message = error.message ?? '';
  if (KEY_OF_MESSAGE[message]) return KEY_OF_MESSAGE[message];
  if (message.startsWith('validation.') && !message.includes(' ')) return message;
  if (error.type === 'too_small') return fallback === 'validation.invalid' ? 'validation.required' : fallback;
  return fallback;
}

/** A field's error in the user's language; a server's message (type `server`) is already in it. */
export function fieldError(t: TFunction, error: FieldError | undefined, fallback?: string, params?: Record<string, unknown>): string | undefined {
  if (!error) return undefined;
  if (error.type === 'server' && error.message) return error.message;
  return t(errorKey(error, fallback), params);
}

/**
 * A server message shown under the field it names, without the "params.interval: " prefix the API
 * puts in front for callers that have no form.
 */
export function messageForField(message: string, field: string): string {
  const bare = field.replace(/^params\./, '');
  for (const prefix of [field, bare, `params.${bare}`]) {
    if (message.startsWith(`${prefix}: `)) {
      const rest = message.slice(prefix.length + 2);
      return rest.charAt(0).toLocaleUpperCase() + rest.slice(1);
    }
  }
  return message;
}
