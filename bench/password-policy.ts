/**
 * bench/password-policy: what one strength estimate (lib/auth/password-policy.ts)
 * costs the site's thread, for ordinary passwords and for hostile ones (long,
 * repetitive, full of l33t characters), which an unsigned visitor can send to
 * the sign-up form. Prints the first-use cost (the dictionaries load) and the
 * median and worst time per shape. Asserts nothing.
 *
 * Usage: npm run bench:password-policy [-- --rounds 5]
 */
import { parseArgs } from "node:util";
import { passwordProblem } from "@/lib/auth/password-policy";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Number(values.rounds);

const scattered = (n: number, seed: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(33 + (((i + 1) * seed * 7919) % 94))).join("");
const SHAPES: Record<string, string[]> = {
  ordinary: ["correct horse battery staple", "Summer2024!", "P@ssw0rd123", "e2e-password-42"],
  "long repeats": ["aB3$".repeat(50), "1qaz2wsx".repeat(25), "a".repeat(200)],
  "l33t characters": ["@$!0134578|(".repeat(16), "4@8(3[6&#1!|0$5+%7><2".repeat(9)],
  scattered: Array.from({ length: 10 }, (_, s) => scattered(200, s + 1)),
};

const ms = (t: number) => `${t.toFixed(1)} ms`;
let t = performance.now();
passwordProblem("first use loads the dictionaries", "bench");
console.log(`first use: ${ms(performance.now() - t)}`);
for (const [shape, passwords] of Object.entries(SHAPES)) {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const p of passwords) {
      t = performance.now();
      passwordProblem(p, "bench");
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`${shape.padEnd(16)} n=${times.length}  median ${ms(times[Math.floor(times.length / 2)]!)}  worst ${ms(times.at(-1)!)}`);
}
