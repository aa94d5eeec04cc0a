// Row leases on robots: a runner drives a robot only while `lease_owner` is itself and `lease_until`
// is in the future; it renews its leases by heartbeat (a conditional UPDATE), and a dead runner's
// robots are taken over once their lease has expired. Times are the database's (`now()`), so the
// runners' clocks do not matter.
import type { DatabaseHandle } from '@lq/db';

export interface LeasedRobot {
  id: number;
  status: string;
}

/** Robots a runner drives: running, paused (fills still booked) and stopping (closing out). */
const ACTIVE = `status in ('running', 'paused', 'stopping')`;

/** Takes up to `limit` robots whose lease is free or expired. */
export async function acquireLeases(database: DatabaseHandle, owner: string, leaseMs: number, limit: number): Promise<LeasedRobot[]> {
  if (limit <= 0) return [];
  return database.exec<LeasedRobot>(
    `update robots set lease_owner = $1, lease_until = now() + ($2::int * interval '1 millisecond'), heartbeat_at = now()
      where ${ACTIVE} and (lease_owner is null or lease_until is null or lease_until < now())
        and id in (select id from robots
                    where ${ACTIVE} and (lease_owner is null or lease_until is null or lease_until < now())
                    order by id limit $3 for update skip locked)
      returning id::int as id, status`,
    [owner, leaseMs, limit],
  );
}

/** Heartbeat: extends this runner's leases; returns the robots still held, with their status. */
export async function renewLeases(database: DatabaseHandle, owner: string, ids: number[], leaseMs: number): Promise<LeasedRobot[]> {
  if (ids.length === 0) return [];
  return database.exec<LeasedRobot>(
    `update robots set lease_until = now() + ($2::int * interval '1 millisecond'), heartbeat_at = now()
      where id = any($3::bigint[]) and lease_owner = $1 and lease_until > now()
      returning id::int as id, status`,
    [owner, leaseMs, `{${ids.join(',')}}`],
  );
}

/** Gives robots back (graceful shutdown, or a stopped robot). */
export async function releaseLeases(database: DatabaseHandle, owner: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await database.exec(`update robots set lease_owner = null, lease_until = null where id = any($2::bigint[]) and lease_owner = $1`, [owner, `{${ids.join(',')}}`]);
}
