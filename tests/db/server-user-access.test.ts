// `npm run dev` as root from a private folder (issue 28 §3): the embedded PostgreSQL runs as its own
// user, which must pass through every folder above the project. The check finds the folders that
// stop it, from their modes, before anything starts (scripts/db/server-user-access.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { blockedFoldersMessage, foldersBlockingUser, ServerUserAccessError } from "@/scripts/db/server-user-access";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ems-server-user-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Someone who owns none of these folders and is in none of their groups. */
const stranger = { name: "postgres", uid: 4_242_424, gid: 4_242_424 };

function folder(relative: string, mode: number): string {
  const dir = path.join(root, relative);
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, mode);
  return dir;
}

describe("foldersBlockingUser", () => {
  it("names a private folder (mode 700) above the project, and only it", () => {
    fs.chmodSync(root, 0o755);
    const home = folder("home", 0o700);
    const project = folder("home/project/node_modules/bin", 0o755);
    expect(foldersBlockingUser([project], stranger)).toEqual([home]);
  });

  it("lets the user through folders others may search (o+x), even when they may not list them (711)", () => {
    fs.chmodSync(root, 0o755);
    const project = folder("open/project", 0o755);
    folder("open", 0o711);
    expect(foldersBlockingUser([project], stranger)).toEqual([]);
  });

  it("goes by the owner's and the group's bits for the owner and the group", () => {
    fs.chmodSync(root, 0o755);
    const own = folder("own", 0o700);
    const { uid, gid } = fs.statSync(own);
    expect(foldersBlockingUser([own], { name: "owner", uid, gid: 4_242_424 })).toEqual([]);
    const grouped = folder("grouped", 0o750);
    expect(foldersBlockingUser([grouped], { name: "member", uid: 4_242_424, gid })).toEqual([]);
    expect(foldersBlockingUser([grouped], stranger)).toEqual([grouped]);
    expect(foldersBlockingUser([grouped], { ...stranger, groups: [gid] })).toEqual([]);
  });

  it("checks a directory still to be made as far as its path exists, each blocking folder once", () => {
    fs.chmodSync(root, 0o755);
    const locked = folder("locked", 0o700);
    expect(foldersBlockingUser([path.join(locked, "a/not/yet"), path.join(locked, "b")], stranger)).toEqual([locked]);
  });

  it("never blocks root", () => {
    const locked = folder("locked-for-all", 0o000);
    expect(foldersBlockingUser([locked], { name: "root", uid: 0, gid: 0 })).toEqual([]);
  });
});

describe("the message", () => {
  it("says what is wrong and what to do, with the folders in the chmod line", () => {
    const error = new ServerUserAccessError(["/root"], stranger);
    expect(error.message).toBe(blockedFoldersMessage(["/root"], stranger));
    expect(error.message).toContain('runs as the user "postgres"');
    expect(error.message).toContain("chmod o+x /root");
    expect(error.message).toContain("move the project to a folder every user can enter");
    expect(error.message).toContain("DATABASE_URL");
    expect(error.message).not.toMatch(/\bport\b/i);
  });
});
