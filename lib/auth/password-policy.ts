/**
 * What a new password may not be, beyond its length (lib/accounts/users.ts
 * passwordSchema): the username, or anything a guesser tries early. Guessability
 * is estimated by zxcvbn (@zxcvbn-ts, its common-password, name and word
 * lists plus repeats, sequences, keyboard runs, dates and l33t spellings), not
 * by an exact list: "Summer2024!" is on no list, yet found in well under 10^8
 * guesses. Pure; the dictionaries ship with the package.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";

/** zxcvbn's score 3: about 10^8 guesses or more ("safely unguessable" against an online attack, some protection offline). */
const MIN_SCORE = 3;

/**
 * The estimate's cost grows fast with length and l33t characters (a hostile
 * 200-character password took seconds); capped, the worst measured is under
 * 0.2 s (npm run bench:password-policy). A password longer than this is judged
 * by its first characters, which must be strong on their own.
 */
const CHECKED_LENGTH = 32;
const L33T_MAX_SUBSTITUTIONS = 10;

let estimator: ZxcvbnFactory | undefined;

// built on first use: loading the dictionaries takes a few hundred milliseconds
const strength = (): ZxcvbnFactory =>
  (estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
    maxLength: CHECKED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  }));

/** Why `password` may not be used by `username`, or null. */
export function passwordProblem(password: string, username: string): string | null {
  const p = password.trim().toLowerCase();
  const u = username.trim().toLowerCase();
  if (u && p.includes(u)) return "must not contain the username";
  const result = strength().check(password, u ? [u] : []);
  if (result.score >= MIN_SCORE) return null;
  const why = result.feedback.warning?.replace(/\.$/, "");
  return `is too easy to guess${why ? ` (${why.charAt(0).toLowerCase()}${why.slice(1)})` : ""}: try three or four unrelated words`;
}
