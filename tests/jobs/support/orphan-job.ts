/** The queue the killed-instance test works, shared by the test and the process it kills. */
export const ORPHAN_JOB_NAME = "orphan-test";
/** An hour: pg-boss's maintenance would fail the killed instance's job only then. */
export const ORPHAN_JOB_EXPIRY_SECONDS = 60 * 60;
