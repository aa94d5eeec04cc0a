import { runOps } from './index';

// `npm run ops -- <command>`: operator commands on the server's database.
runOps(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
