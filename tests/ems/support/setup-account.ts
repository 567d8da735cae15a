import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { flushEmsState } from "@/lib/ems";
import { forgetOpenedAnswers } from "@/lib/ems/opened-answers";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { forgetKeptResults } from "@/lib/setup/stored-results";
import { installQueryCounter, type QueryCounter } from "../../db/query-counter";
import { createTeam } from "../../teams/fixtures";
import { startAllowedSandbox } from "./sandbox";

/** A sandbox account of several pages (at 200 a page): 450 groups and 250 events are three pages and two. */
export interface PagedAccount {
  key: string;
  secret: string;
  groups: number;
  events: number;
  seed: number;
}

/**
 * For a test file on an account's whole setup: the sandbox serving `account` over real HTTP and the
 * statement counter, started before the file and stopped after it; each test starts as a process
 * that has opened and kept nothing (`freshProcess`, also for use within a test).
 */
export function pagedAccountForFile(account: PagedAccount) {
  let sandbox: StartedSandbox;
  let counter: QueryCounter;
  beforeAll(async () => {
    sandbox = await startAllowedSandbox({ accounts: [account] });
    counter = await installQueryCounter();
  });
  afterAll(async () => {
    await flushEmsState();
    await counter?.uninstall();
    await sandbox?.close();
  });
  /** Another process: no answer opened, no setup result kept. */
  const freshProcess = () => {
    forgetOpenedAnswers();
    forgetKeptResults();
  };
  beforeEach(freshProcess);
  return {
    sandbox: () => sandbox,
    counter: () => counter,
    freshProcess,
    /** A new team whose owner saved a credential for the account. */
    async readerOfTheAccount(): Promise<Actor> {
      const actor = await createTeam();
      await saveCredential(actor, { baseUrl: sandbox.baseUrl, consumerKey: account.key, consumerSecret: account.secret });
      return actor;
    },
  };
}
