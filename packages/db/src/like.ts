/**
 * A LIKE / ILIKE pattern that matches `text` anywhere, with its own `%`, `_` and `\` taken
 * literally (PostgreSQL's default escape character is `\`): a search box's words, never wildcards.
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
