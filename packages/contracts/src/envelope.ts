// No zod here: the web app's first screen imports these, and zod loads only with the forms.

/** The code every successful response carries (spec §8). */
export const SUCCESS_CODE = '00000';

/** Every response body, success or error: `{ code, msg, data }`. */
export interface Envelope<T = unknown> {
  code: string;
  msg: string;
  data: T;
}

export const isSuccess = (body: Pick<Envelope, 'code'>): boolean => body.code === SUCCESS_CODE;
