import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  dataSourceList as dataSourceListSchema,
  dataSourceSelectBody,
  envelopeOf,
  localeBody,
  isOwnAddressCodeType,
  loginAnswer,
  loginBody,
  loginResult,
  loginTwoFactorBody,
  loginPasskeyBody,
  passkeyAddBody,
  passkeyItem,
  passkeyList,
  passkeyRemoveBody,
  securityInfo,
  sessionList,
  sessionRevokeBody,
  sessionRevokeOthersBody,
  sessionRevokeOthersResult,
  antiPhishingBody,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorEnableResult,
  twoFactorSetupResult,
  nicknameBody,
  paidPwdEditBody,
  passwordChangeBody,
  passwordResetBody,
  registerBody,
  siteInfo,
  userInfo,
  verifyCodeSendBody,
} from '@lq/contracts';
import { optionalAuth, requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit, perIpLimit } from '../platform/limits';
import * as users from './service';
import { disableTwoFactor, enableTwoFactor, loginPasskeyOptions, setupTwoFactor } from './two-factor';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, removePasskey } from './passkeys';
import { passkeyStepUpOptions } from './webauthn';
import { endOtherSessions, endSession, listSessions } from './sessions';
import type { PlatformDeps } from '../platform/deps';

const empty = envelopeOf(z.null());

export function userRoutes(app: FastifyInstance, deps: PlatformDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const maybeAuth = optionalAuth(deps.sessions);
  const { config } = deps;
  const loginLimit = perIpLimit(config.LOGIN_RATE_PER_MINUTE);
  const codeLimit = perIpLimit(config.CODE_RATE_PER_MINUTE);
  const userLimit = perUserLimit(config.USER_RATE_PER_MINUTE);

  r.post(
    '/user/api/verify-code/send',
    {
      schema: {
        tags: ['user'],
        summary:
          'Send a verification code by e-mail (MAIL_PAID_PWD_RESET, WITHDRAW_ADDRESS, API_KEY, SECURITY: logged in, to the own address)',
        body: verifyCodeSendBody,
        response: { 200: empty, ...errorResponses },
      },
      config: codeLimit,
      preHandler: maybeAuth,
    },
    async (req) => {
      let mail = req.body.userMail;
      if (isOwnAddressCodeType(req.body.codeType)) {
        if (!req.auth) throw new AppError('UNAUTHENTICATED');
        mail = req.auth.user.mail;
      }
      await users.sendVerificationCode(deps, mail, req.body.codeType, req.locale);
      return ok(req, null, 'common.codeSent');
    },
  );

  r.post(
    '/user/api/register',
    {
      schema: {
        tags: ['user'],
        summary: 'Register with an e-mail code; returns a session like login',
        body: registerBody,
        response: { 200: envelopeOf(loginResult), ...errorResponses },
      },
      config: loginLimit,
    },
    async (req) => {
      const result = await users.register(
        deps,
        req.body,
        req.locale,
        req.ip,
        req.headers['user-agent'],
      );
      return ok(req, {
        token: result.token,
        expiresAt: result.expiresAt.toISOString(),
        user: result.user,
      });
    },
  );

  r.post(
    '/user/api/login',
    {
      schema: {
        tags: ['user'],
        summary: 'Log in; send the token as Authorization: Bearer <token>. Two-step on: no token but a challenge for login/2fa',
        body: loginBody,
        response: { 200: envelopeOf(loginAnswer), ...errorResponses },
      },
      config: loginLimit,
    },
    async (req) => {
      const result = await users.login(
        deps,
        req.body.userMail,
        req.body.password,
        req.ip,
        req.headers['user-agent'],
        req.body.code,
      );
      if ('twoFactorRequired' in result) return ok(req, result);
      return ok(req, {
        token: result.token,
        expiresAt: result.expiresAt.toISOString(),
        user: result.user,
      });
    },
  );

  r.post(
    '/user/api/login/2fa',
    {
      schema: {
        tags: ['user'],
        summary: 'The sign-in’s second step: the challenge from login and a TOTP or recovery code, or a passkey assertion (options from login/2fa/passkey); returns the session',
        body: loginTwoFactorBody,
        response: { 200: envelopeOf(loginResult), ...errorResponses },
      },
      config: loginLimit,
    },
    async (req) => {
      const result = await users.loginSecondStep(deps, req.body.challenge, { code: req.body.code, passkey: req.body.passkey }, req.ip, req.headers['user-agent']);
      return ok(req, { token: result.token, expiresAt: result.expiresAt.toISOString(), user: result.user });
    },
  );

  r.post(
    '/user/api/login/2fa/passkey',
    {
      schema: {
        tags: ['user'],
        summary: 'The WebAuthn options (navigator.credentials.get) for signing the second step with a passkey',
        body: loginPasskeyBody,
        response: { 200: envelopeOf(z.looseObject({ challenge: z.string() })), ...errorResponses },
      },
      config: loginLimit,
    },
    async (req) => ok(req, { ...(await loginPasskeyOptions(deps, req.body.challenge)) }),
  );

  r.post(
    '/user/api/2fa/passkey',
    {
      schema: {
        tags: ['user'],
        summary: 'The WebAuthn options (navigator.credentials.get) for proving an action on money or keys with a passkey: the assertion goes in its body as `passkey`, instead of twoFactorCode',
        security: bearerAuth,
        response: { 200: envelopeOf(z.looseObject({ challenge: z.string() })), ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => ok(req, { ...(await passkeyStepUpOptions(deps, req.auth!.user.id)) }),
  );

  r.get(
    '/user/api/passkeys',
    {
      schema: { tags: ['user'], summary: 'The passkeys registered as a second factor', security: bearerAuth, response: { 200: envelopeOf(passkeyList), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await listPasskeys(deps.db, req.auth!.user.id)),
  );

  r.post(
    '/user/api/passkeys/options',
    {
      schema: {
        tags: ['user'],
        summary: 'The WebAuthn options (navigator.credentials.create) for a new passkey; two-step must be on',
        security: bearerAuth,
        response: { 200: envelopeOf(z.looseObject({ challenge: z.string() })), ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => ok(req, { ...(await passkeyRegistrationOptions(deps, req.auth!)) }),
  );

  r.post(
    '/user/api/passkeys/add',
    {
      schema: {
        tags: ['user'],
        summary: 'Keep the passkey the browser made from passkeys/options (a name, its response, and a fresh twoFactorCode)',
        security: bearerAuth,
        body: passkeyAddBody,
        response: { 200: envelopeOf(passkeyItem), ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await addPasskey(deps, req.auth!, req.body)),
  );

  r.post(
    '/user/api/passkeys/remove',
    {
      schema: { tags: ['user'], summary: 'Remove a passkey (a fresh twoFactorCode)', security: bearerAuth, body: passkeyRemoveBody, response: { 200: empty, ...errorResponses } },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => {
      await removePasskey(deps, req.auth!, req.body);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/2fa/setup',
    {
      schema: {
        tags: ['user'],
        summary: 'Start two-step verification: a new TOTP secret and its otpauth:// URL (for the QR code); 2fa/enable proves it',
        security: bearerAuth,
        response: { 200: envelopeOf(twoFactorSetupResult), ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await setupTwoFactor(deps, req.auth!)),
  );

  r.post(
    '/user/api/2fa/enable',
    {
      schema: {
        tags: ['user'],
        summary: 'Turn two-step on with a code of the new secret and the login password; answers the ten recovery codes, once; other sessions end',
        security: bearerAuth,
        body: twoFactorEnableBody,
        response: { 200: envelopeOf(twoFactorEnableResult), ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await enableTwoFactor(deps, req.auth!, req.body.code, req.body.password)),
  );

  r.post(
    '/user/api/2fa/disable',
    {
      schema: {
        tags: ['user'],
        summary: 'Turn two-step off with a code (TOTP or recovery) and the login password',
        security: bearerAuth,
        body: twoFactorDisableBody,
        response: { 200: empty, ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => {
      await disableTwoFactor(deps, req.auth!, req.body.code, req.body.password);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/logout',
    {
      schema: {
        tags: ['user'],
        summary: 'Revoke the current token',
        security: bearerAuth,
        response: { 200: empty, ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      await deps.sessions.revoke(req.auth!.tokenHash);
      return ok(req, null);
    },
  );

  r.get(
    '/user/api/sessions',
    {
      schema: {
        tags: ['user'],
        summary: 'The account’s live sessions, the most recently used first (lastSeenAt to the minute)',
        security: bearerAuth,
        response: { 200: envelopeOf(sessionList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await listSessions(deps, req.auth!)),
  );

  r.post(
    '/user/api/sessions/revoke',
    {
      schema: {
        tags: ['user'],
        summary: 'End one session; it answers 401 at once on every process. Another than the current one: step-up (twoFactorCode, or a SECURITY e-mail code)',
        security: bearerAuth,
        body: sessionRevokeBody,
        response: { 200: empty, ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => {
      await endSession(deps, req.auth!, req.body);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/sessions/revoke-others',
    {
      schema: {
        tags: ['user'],
        summary: 'End every session but the current one. Step-up: twoFactorCode, or a SECURITY e-mail code',
        security: bearerAuth,
        body: sessionRevokeOthersBody,
        response: { 200: envelopeOf(sessionRevokeOthersResult), ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => ok(req, { ended: await endOtherSessions(deps, req.auth!, req.body) }),
  );

  r.get(
    '/user/api/info',
    {
      schema: {
        tags: ['user'],
        summary: 'The logged-in user',
        security: bearerAuth,
        response: { 200: envelopeOf(userInfo), ...errorResponses },
      },
      preHandler: auth,
    },
    (req, reply) => {
      void reply.send(ok(req, users.toUserInfo(req.auth!.user)));
    },
  );

  r.get(
    '/user/api/security',
    {
      schema: {
        tags: ['user'],
        summary: 'The account’s protections: two-step on or off, and until when the security lock holds withdrawals back',
        security: bearerAuth,
        response: { 200: envelopeOf(securityInfo), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await users.securityOf(deps.db, req.auth!.user.id)),
  );

  r.post(
    '/user/api/security/anti-phishing',
    {
      schema: {
        tags: ['user'],
        summary: 'Set the anti-phishing phrase printed on every e-mail the platform sends you (empty: none). Step-up: twoFactorCode, or a SECURITY e-mail code',
        security: bearerAuth,
        body: antiPhishingBody,
        response: { 200: empty, ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => {
      await users.setAntiPhishingPhrase(deps, req.auth!.user, req.body);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/password/reset',
    {
      schema: {
        tags: ['user'],
        summary: 'Forgotten password: new password with a LOGIN_PWD_RESET code; ends all sessions',
        body: passwordResetBody,
        response: { 200: empty, ...errorResponses },
      },
      config: loginLimit,
    },
    async (req) => {
      await users.resetPassword(deps, req.body.userMail, req.body.code, req.body.password);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/password/change',
    {
      schema: {
        tags: ['user'],
        summary: 'Change the password (old + new twice); ends the other sessions',
        security: bearerAuth,
        body: passwordChangeBody,
        response: { 200: empty, ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => {
      await users.changePassword(deps, req.auth!, req.body.oldPassword, req.body.password);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/nickname',
    {
      schema: {
        tags: ['user'],
        summary: 'Set the nickname (at most 8 characters)',
        security: bearerAuth,
        body: nicknameBody,
        response: { 200: empty, ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      await users.updateProfile(deps, req.auth!, { nickname: req.body.nickname });
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/locale',
    {
      schema: {
        tags: ['user'],
        summary: 'Store the preferred language (also used for e-mails)',
        security: bearerAuth,
        body: localeBody,
        response: { 200: empty, ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      await users.updateProfile(deps, req.auth!, { locale: req.body.locale });
      return ok(req, null);
    },
  );

  r.get(
    '/user/api/site',
    {
      schema: {
        tags: ['user'],
        summary: 'What the operator configured that screens show: the support address, the egress IPs to whitelist',
        response: { 200: envelopeOf(siteInfo), ...errorResponses },
      },
    },
    (req, reply) => {
      void reply.send(ok(req, { supportMail: config.SUPPORT_MAIL ?? null, egressIps: config.EGRESS_IPS }));
    },
  );

  r.get(
    '/user/api/paid-pwd/judge',
    {
      schema: {
        tags: ['user'],
        summary: 'Whether a payment password is set',
        security: bearerAuth,
        response: { 200: envelopeOf(z.boolean()), ...errorResponses },
      },
      preHandler: auth,
    },
    (req, reply) => {
      void reply.send(ok(req, req.auth!.user.payPwdHash !== null));
    },
  );

  r.post(
    '/user/api/paid-pwd/edit',
    {
      schema: {
        tags: ['user'],
        summary: 'Set or change the payment password with a MAIL_PAID_PWD_RESET code (and, two-step on, twoFactorCode)',
        security: bearerAuth,
        body: paidPwdEditBody,
        response: { 200: empty, ...errorResponses },
      },
      config: userLimit,
      preHandler: auth,
    },
    async (req) => {
      await users.editPayPassword(deps, req.auth!, req.body.code, req.body.paidPwd, { twoFactorCode: req.body.twoFactorCode, passkey: req.body.passkey });
      return ok(req, null);
    },
  );

  r.get(
    '/user/api/index/datasouce-list',
    {
      schema: {
        tags: ['user'],
        summary: 'Markets (data sources) and the user’s selection; works without login',
        response: { 200: envelopeOf(dataSourceListSchema), ...errorResponses },
      },
      preHandler: maybeAuth,
    },
    (req, reply) => {
      void reply.send(
        ok(req, users.dataSourceList(req.locale, req.auth?.user.selectedDataSource ?? null)),
      );
    },
  );

  r.post(
    '/user/api/index/datasouce-select',
    {
      schema: {
        tags: ['user'],
        summary: 'Persist the selected market; a closed one is refused',
        security: bearerAuth,
        body: dataSourceSelectBody,
        response: { 200: empty, ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      users.checkSelectableDataSource(req.body.type);
      await users.updateProfile(deps, req.auth!, { selectedDataSource: req.body.type });
      return ok(req, null);
    },
  );
}
