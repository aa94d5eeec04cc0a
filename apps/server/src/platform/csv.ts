// CSV for downloads (wallet exports, rebate history): RFC 4180 lines that spreadsheets open safely.

/** RFC 4180 field; a leading =, +, - or @ is quoted with a ' so a spreadsheet never runs it as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+@\t\r]/.test(value) || (/^-/.test(value) && !/^-\d/.test(value)) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line of `fields`, CRLF-terminated. */
export const csvLine = (fields: readonly string[]): string => fields.map(csvField).join(',') + '\r\n';

/** Put before the header: spreadsheets then read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';
