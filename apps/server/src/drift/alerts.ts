// Drift alerts (issue 33, slice 4): a robot's owner is told through the notification channels
// (kind robot.drift) when the gap between the robot's live result and its shadow backtest's
// passes the owner's threshold (percent of capital, default 2), once per crossing — it is told
// again only after the gap came back under and crossed again —, and, when the owner wants it, at
// each trade the robot missed. The alert state is on the shadow's row, locked while it is decided,
// and each alert has its own key (notify_user writes a key once): two workers deciding at once, or
// a job run twice, tell once.
import type { RobotDrift } from '@lq/contracts';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';

export interface AlertDecision {
  told: ('gap' | 'missed')[];
}

export async function evaluateDriftAlert(database: DatabaseHandle, d: RobotDrift): Promise<AlertDecision> {
  const missed = d.unpaired.filter((u) => u.on === 'shadow').length;
  return database.db.transaction(async (tx) => {
    const [s] = rowsOf<{ user_id: string; symbol: string; strategy: string; pct: string; on_missed: boolean; alert_over: boolean; alerted_missed: number; crossings: number }>(
      await tx.execute(sql`select r.user_id::text as user_id, r.symbol, r.strategy, r.drift_alert_pct::text as pct, r.drift_alert_missed as on_missed,
          s.alert_over, s.alerted_missed, s.crossings
        from robot_shadows s join robots r on r.id = s.robot_id where s.robot_id = ${d.robotId} for update of s`),
    );
    if (!s) return { told: [] };
    const over = Math.abs(d.gap.pct) >= Number(s.pct);
    const newMissed = s.on_missed && missed > s.alerted_missed;
    const told: AlertDecision['told'] = [];
    let crossings = s.crossings;
    const params = JSON.stringify({ robotId: d.robotId, symbol: s.symbol, strategy: s.strategy, gap: d.gap.pct.toFixed(2), missed });
    const link = `/pages/orderDetail/orderDetail?id=${d.robotId}`;
    if (over && !s.alert_over) {
      crossings++;
      told.push('gap');
      await tx.execute(sql`select notify_user(${s.user_id}::bigint, 'robot.drift', ${`drift:${d.robotId}:gap:${crossings}`}, ${params}::jsonb, ${link})`);
    }
    // A missed trade alone (the gap's alert, if any, already says how many).
    if (newMissed && told.length === 0) {
      told.push('missed');
      await tx.execute(sql`select notify_user(${s.user_id}::bigint, 'robot.drift', ${`drift:${d.robotId}:missed:${missed}`}, ${params}::jsonb, ${link})`);
    }
    await tx.execute(sql`update robot_shadows set alert_over = ${over}, crossings = ${crossings}, alerted_missed = greatest(alerted_missed, ${missed}) where robot_id = ${d.robotId}`);
    return { told };
  });
}
