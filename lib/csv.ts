/**
 * CSV of listing rows (RFC 4180: CRLF between records, quotes doubled). Lists and objects
 * (headers, notification emails, webhooks) are written as JSON inside their cell, so nothing is lost.
 * A text cell that a spreadsheet would run as a formula gets a leading apostrophe (OWASP's advice
 * for files made from third-party data).
 *
 * Spreadsheets skip leading white space before they look for a formula, so " =1+1", a non-breaking
 * space, a tab or a line break before the sign counts too; so do the full-width signs some
 * spreadsheets read as the ASCII ones. A cell that starts with a tab or a carriage return is
 * defused whatever follows (OWASP lists both).
 */
const FORMULA_START = /^[\s\u00a0\u2000-\u200b\u2028\u2029\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]/u;

export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text);
}

export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "string") text = isFormulaLike(value) ? `'${value}` : value;
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else text = JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** Reads back what csvLine wrote (for tests and for checking an export against the API). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
