/**
 * A webhook's triggers as letters in a listing's row data (lib/listing/table-rows), written out in
 * words by the table's client body. A module of its own: the browser needs it without the rest.
 */
export const TRIGGER_LETTERS = { i: "insert", u: "update", d: "delete" } as const;
