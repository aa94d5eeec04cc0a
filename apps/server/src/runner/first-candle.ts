// Where a robot starts: the runner records its first candle once, when it first drives it
// (`robot_events` kind `runner`, detail `fromMs`); other areas read it with this fragment.
import { sql, type SQL } from '@lq/db';

/** SQL: the first candle's open time (ms, as text) of the robot aliased `robot` in the query; null before the runner drove it. */
export function firstCandleSql(robot: string): SQL {
  return sql`(select (e.detail->>'fromMs') from robot_events e where e.robot_id = ${sql.raw(robot)}.id and e.kind = 'runner' and e.detail ? 'fromMs' order by e.id limit 1)`;
}
