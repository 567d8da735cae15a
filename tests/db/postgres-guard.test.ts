// The db-postgres project creates and drops databases: it must refuse servers on other machines.
import { describe, expect, it } from "vitest";
import { assertLoopback } from "../setup/global-postgres";

describe("TEST_DATABASE_URL guard", () => {
  it.each([
    "postgresql://postgres@127.0.0.1:5432/test",
    "postgresql://postgres@localhost/test",
    "postgresql://postgres@[::1]:5432/test",
    "postgresql://postgres@localhost/test?host=/var/run/postgresql",
  ])("accepts the local server %s", (url) => {
    expect(() => assertLoopback(url)).not.toThrow();
  });

  it.each(["postgresql://postgres@db.example.com:5432/prod", "postgresql://postgres@10.0.0.5/test"])("refuses %s", (url) => {
    expect(() => assertLoopback(url)).toThrow(/not this machine/);
  });
});
