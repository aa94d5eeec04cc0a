/** "2026-11-25 05:40 UTC": when a pause or a lock ends, in a message (the same words everywhere). */
export const untilText = (until: Date) => `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
