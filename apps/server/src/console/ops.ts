// Operator accounts from the command line (wired into `npm run ops` by ops/). Credentials are
// printed once and never stored in the clear.
import { OpsError, printTable, type OpsCommandSet } from '../platform/ops';
import { addOperator, listOperators, OperatorError, resetOperator, setOperatorDisabled, type NewOperator } from './service';

async function refusing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OperatorError) throw new OpsError(e.message);
    throw e;
  }
}

function printCredentials(op: NewOperator, out: (l: string) => void) {
  out(`operator ${op.mail} (#${op.id})`);
  out(`  password:       ${op.password}`);
  out(`  TOTP (scan or type into an authenticator app): ${op.totpUri}`);
  out(`  TOTP secret:    ${op.totpSecret}`);
  out(`  recovery codes (each works once instead of a TOTP code):`);
  for (const c of op.recoveryCodes) out(`    ${c}`);
  out('shown once: hand them to the operator over a safe channel; they are stored only hashed or sealed');
}

export const CONSOLE_OPS: OpsCommandSet = {
  usage: `  operator:add <email>                        a console operator: prints a password, the TOTP secret and recovery codes once
  operator:reset <email>                      new password, TOTP secret and recovery codes (a lost phone); ends their sessions;
                                              a disabled operator stays disabled (operator:enable)
  operator:disable <email> | operator:enable <email>
                                              a disabled operator cannot sign in; their sessions end
  operator:list                               operators, when they last signed in, recovery codes left`,
  commands: {
    'operator:add': {
      args: 1,
      async run(db, [mail], out, config, audit) {
        const op = await refusing(() => addOperator(db.db, config, mail));
        audit?.object('operator', op.id).change(null, { mail: op.mail });
        printCredentials(op, out);
      },
    },
    'operator:reset': {
      args: 1,
      async run(db, [mail], out, config, audit) {
        const op = await refusing(() => resetOperator(db.db, config, mail));
        audit?.object('operator', op.id).change(null, { credentials: 'new', disabled: op.disabled });
        printCredentials(op, out);
        if (op.disabled) out(`${op.mail} is still disabled: these credentials work only after operator:enable ${op.mail}`);
      },
    },
    'operator:disable': {
      args: 1,
      async run(db, [mail], out, _config, audit) {
        const id = await refusing(() => setOperatorDisabled(db.db, mail, true));
        audit?.object('operator', id).change({ disabled: false }, { disabled: true });
        out(`${mail}: disabled, sessions ended`);
      },
    },
    'operator:enable': {
      args: 1,
      async run(db, [mail], out, _config, audit) {
        const id = await refusing(() => setOperatorDisabled(db.db, mail, false));
        audit?.object('operator', id).change({ disabled: true }, { disabled: false });
        out(`${mail}: enabled`);
      },
    },
    'operator:list': {
      args: 0,
      async run(db, _args, out) {
        const list = await listOperators(db.db);
        if (list.length === 0) return out('no operators (operator:add <email>)');
        printTable(
          [['id', 'mail', 'disabled', 'created', 'last sign-in', 'recovery codes left'], ...list.map((o) => [o.id, o.mail, o.disabled ? 'yes' : '', o.created_at, o.last_login ?? '', String(o.recovery_left)])],
          out,
        );
      },
    },
  },
};

