// Operator commands of the benefits area (wired into `npm run ops` by ops/).
import { BENEFIT_ITEMS, formatMoney, parseMoney, type BenefitItem } from '@lq/contracts';
import { flags, OpsError, userIdByMail, type OpsCommandSet } from '../platform/ops';
import { isUnlocked } from './entitlements';
import { pricesOf, setPrice } from './service';

const shown = (micro: bigint) => formatMoney(micro).replace(/\.?0+$/, '');

export const BENEFIT_OPS: OpsCommandSet = {
  usage: `  price:set <unlock|seat|slot> <amount> --note <text>
                                              set the price of the basic unlock, or of one seat or slot per month (Lightning)
  price:list                                  the benefits catalogue's prices
  benefit:unlock <email> --reason <text>      grant the basic rights (1 seat and 1 backtest slot per market) without payment`,
  commands: {
    'price:set': {
      args: -1,
      async run(db, args, out, _config, audit) {
        const { positional, values } = flags(args, ['note']);
        const [item, amountText] = positional;
        if (positional.length !== 2 || !item || !amountText) throw new OpsError('price:set <unlock|seat|slot> <amount> --note <text>', 2);
        if (!(BENEFIT_ITEMS as readonly string[]).includes(item)) throw new OpsError(`the item is unlock, seat or slot (got "${item}")`, 2);
        const price = parseMoney(amountText);
        if (price === undefined || price <= 0n) throw new OpsError(`the price is a positive number with at most 6 decimals (got "${amountText}")`, 2);
        const note = values.note?.trim();
        if (!note) throw new OpsError('--note is required: it is kept with the price as who changed it and why', 2);
        const before = await setPrice(db.db, item as BenefitItem, price, note);
        audit?.object('price', item).change({ price: shown(before) }, { price: shown(price) });
        out(`${item}: ${shown(before)} → ${shown(price)} Lightning${item === 'unlock' ? '' : ' per month'}; purchases from now on pay it`);
      },
    },
    'price:list': {
      args: 0,
      async run(db, _args, out) {
        const prices = await pricesOf(db.db);
        for (const item of BENEFIT_ITEMS) out(`${item.padEnd(7)} ${shown(prices[item])} Lightning${item === 'unlock' ? '' : ' per month'}`);
      },
    },
    'benefit:unlock': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, ['reason']);
        const [email] = positional;
        if (positional.length !== 1 || !email) throw new OpsError('benefit:unlock <email> --reason <text>', 2);
        const reason = values.reason?.trim();
        if (!reason) throw new OpsError('--reason is required: it is kept with the grant', 2);
        const userId = await userIdByMail(db, email);
        const who = email.trim().toLowerCase();
        if (await isUnlocked(db.db, userId)) {
          out(`${who}: the basic rights are unlocked already; nothing changed`);
          return;
        }
        await db.exec(`insert into entitlement_grants (user_id, kind, quantity, origin, note) values ($1, 'unlock', 1, 'operator', $2)`, [userId, reason]);
        out(`${who}: basic rights granted (1 account seat and 1 backtest slot on each market)`);
      },
    },
  },
};
