import { DataDirBusyError } from '@lq/db';
import { loadCcxt } from '@lq/venues';
import { buildApp } from './app';
import { ConfigError, loadConfig, runsApi, runsRunner } from './platform/config';
import { startRunner } from './runner';

// Boot: config parsed once, database opened and migrated, then the roles this process plays.
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`lightning-quant: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  // Forex robots (exchange mt5) get their candles from the users' terminals through the bridge.
  // The runner's venues need ccxt (seconds to import): loaded in the background from the start.
  if (runsRunner(config.ROLE)) void loadCcxt().catch((err: unknown) => app.log.warn({ err }, 'ccxt failed to load; venues load it again on use'));
  const runner = runsRunner(config.ROLE)
    ? startRunner(app.database, config, app.log, { candleSource: (source, symbol) => (source === 'mt5' ? app.bridge.candleSource(symbol) : undefined) })
    : null;
  if (runsApi(config.ROLE)) {
    await app.listen({ port: config.PORT, host: config.HOST });
  }
  app.log.info(
    {
      role: config.ROLE,
      database: app.database.kind,
      dataDir: config.DATABASE_URL ? undefined : config.dataDir,
      socket: app.database.socket,
    },
    'lightning-quant started',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await runner?.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof DataDirBusyError) {
    console.error(
      `lightning-quant: ${err.message}. To run several processes, use PostgreSQL (DATABASE_URL).`,
    );
  } else {
    console.error('lightning-quant: failed to start:', err);
  }
  process.exit(1);
});
