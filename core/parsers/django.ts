/**
 * Parser for Django's own test runner (`./tests/runtests.py --verbosity 2`, SPEC §3
 * step 4). Django runs its suite through unittest's TextTestRunner, so the lines are
 * unittest's (`test_x (app.tests.T) ... ok`, `FAIL: test_x (app.tests.T)`; on
 * Python 3.11+ `test_x (app.tests.T.test_x)`) and parseUnittestLines reads them with
 * its invariants. What Django adds:
 * - A test with a docstring is printed as its id, then `<docstring line> ... <status>`;
 *   SWE-bench-family datasets list such a test by that docstring line, so the line is
 *   recorded as a name of the test too, with the same reports.
 * - The runner's own chatter (`Testing against Django installed in …`, `Creating test
 *   database …`, `Applying app.0001_initial... OK`, `System check identified no issues`)
 *   never holds ` ... ` and is ignored; when it lands after a test's ` ... ` the status
 *   comes on a later line (`ok`) and is credited to that test, as for any output.
 */
import type { LogParser } from "./types";
import { parseUnittestLines } from "./unittest";

export const parseDjangoLog: LogParser = (log) => parseUnittestLines(log, { descriptionsAreIds: true });
