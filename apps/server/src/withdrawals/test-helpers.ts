// Shared by the withdrawals' database tests: a registered user with the payment password 123456
// and `balance` micro-Lightning in the balance wallet (test/helpers.ts, shared with benefits).
export { PAY_PASSWORD, payingUser } from '../../test/helpers';
