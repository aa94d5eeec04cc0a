// The e-mail one sign-in page hands the next (router state): typed once on register, it is there
// on login; typed on login, it is there on "forgot password" — and back.

/** The e-mail in a page's router state, else ''. */
export const mailFrom = (state: unknown): string => {
  const mail = (state as { mail?: unknown } | null)?.mail;
  return typeof mail === 'string' ? mail : '';
};
