import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/helpers';
import { MAINTENANCE_QUEUE, vacuumTables } from './maintenance';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const allVisiblePages = async (app: TestApp) =>
  Number((await app.database.exec<{ n: number }>(`select relallvisible as n from pg_class where relname = 'maintenance_probe'`))[0].n);

describe('database maintenance', () => {
  it('vacuums every table: pages become all-visible, so counts read the index alone', async () => {
    t = await startTestApp();
    await t.database.exec('create table maintenance_probe (id int primary key, v text)');
    await t.database.exec(`insert into maintenance_probe select g, repeat('x', 50) from generate_series(1, 5000) g`);
    expect(await allVisiblePages(t)).toBe(0);
    const tables = await vacuumTables(t.database);
    expect(tables).toBeGreaterThan(20);
    expect(await allVisiblePages(t)).toBeGreaterThan(0);
  });

  it('is scheduled hourly on PGlite, where no autovacuum runs, and runs as a job; not on PostgreSQL', async () => {
    t = await startTestApp({ jobs: true });
    const boss = t.app.boss!;
    const schedules = (await boss.getSchedules()).filter((s) => s.name === MAINTENANCE_QUEUE);
    if (t.database.kind === 'postgres') {
      expect(schedules).toEqual([]);
      return;
    }
    expect(schedules).toMatchObject([{ cron: '41 * * * *' }]);
    await t.database.exec('create table maintenance_probe (id int primary key)');
    await t.database.exec('insert into maintenance_probe select generate_series(1, 5000)');
    const id = (await boss.send(MAINTENANCE_QUEUE, {}))!;
    for (let i = 0; i < 300; i++) {
      const job = await boss.getJobById(MAINTENANCE_QUEUE, id);
      if (job?.state === 'completed' || job?.state === 'failed') {
        expect(job.state).toBe('completed');
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await allVisiblePages(t)).toBeGreaterThan(0);
  });
});
