/** The schedules a tracker offers, in minutes (the forms' choices and their validation). */
export const SYNC_INTERVALS = [5, 15, 30, 60, 180, 720, 1440] as const;
export const DEFAULT_SYNC_INTERVAL = 15;

export function intervalLabel(minutes: number): string {
  if (minutes < 60) return `every ${minutes} minutes`;
  if (minutes === 60) return "every hour";
  if (minutes < 1440) return `every ${minutes / 60} hours`;
  return "every day";
}
