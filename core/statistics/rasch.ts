/**
 * A Rasch (one-parameter logistic IRT) model fitted by joint MAP (SPEC §4
 * "Chains that still discriminate").
 *
 * Row r solves item i with probability σ(θ_r − b_i): θ_r the row's ability,
 * b_i the item's difficulty. Outcomes y_ri are in [0, 1] (a row of repeated
 * runs gives the mean over its runs; the Bernoulli log-likelihood takes it as
 * a fractional count). Every θ and b has an N(0, PRIOR_SD²) prior, so the log
 * posterior
 *   Σ_ri [y log σ(θ_r − b_i) + (1 − y) log(1 − σ(θ_r − b_i))] − Σ θ²/2s² − Σ b²/2s²
 * is strictly concave with one maximum: the scale is pinned by the prior, and
 * an item solved by every row (or none) gets a finite difficulty.
 *
 * The fit is Newton's method on all abilities and difficulties at once, from
 * zero: the Hessian's two diagonal blocks make it cheap to solve through the
 * Schur complement of the larger block (a dense system the size of the smaller
 * one, by Cholesky). Each step is halved until the log posterior does not
 * fall, so the fit climbs from any start. It has converged when the largest
 * absolute gradient over all parameters is below `tolerance`. (Alternating
 * Newton steps on one block at a time was tried first: on 600 rows × 304 bugs
 * it zig-zagged for 500 sweeps without converging.)
 */
export const PRIOR_SD = 3;

export type RaschOptions = { tolerance: number; maxIterations: number; priorSd: number };
export const RASCH_DEFAULTS: RaschOptions = { tolerance: 1e-6, maxIterations: 100, priorSd: PRIOR_SD };

export type RaschFit = {
  ability: Float64Array;
  difficulty: Float64Array;
  /** Newton steps made */
  iterations: number;
  converged: boolean;
  /** the largest absolute gradient of the log posterior at the answer */
  max_gradient: number;
  log_posterior: number;
};

/** log σ(x), stable for large |x|. */
const logSigmoid = (x: number) => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));
const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

/** One cell's log-likelihood: y log σ(η) + (1 − y) log σ(−η). */
const cellLogLik = (y: number, eta: number) => y * logSigmoid(eta) + (1 - y) * logSigmoid(-eta);

/** The log posterior of abilities and difficulties for outcomes y (rows × items, row-major). */
export function raschLogPosterior(y: ArrayLike<number>, rows: number, items: number, ability: ArrayLike<number>, difficulty: ArrayLike<number>, priorSd = PRIOR_SD): number {
  const v = priorSd * priorSd;
  let lp = 0;
  for (let r = 0; r < rows; r++) {
    const t = ability[r] as number;
    lp -= (t * t) / (2 * v);
    for (let i = 0; i < items; i++) lp += cellLogLik(y[r * items + i] as number, t - (difficulty[i] as number));
  }
  for (let i = 0; i < items; i++) lp -= ((difficulty[i] as number) ** 2) / (2 * v);
  return lp;
}

/** The gradient of the log posterior: ∂/∂θ_r and ∂/∂b_i. */
export function raschGradient(y: ArrayLike<number>, rows: number, items: number, ability: ArrayLike<number>, difficulty: ArrayLike<number>, priorSd = PRIOR_SD): { ability: Float64Array; difficulty: Float64Array } {
  const v = priorSd * priorSd;
  const ga = Float64Array.from({ length: rows }, (_, r) => -(ability[r] as number) / v);
  const gb = Float64Array.from({ length: items }, (_, i) => -(difficulty[i] as number) / v);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < items; i++) {
      const resid = (y[r * items + i] as number) - sigmoid((ability[r] as number) - (difficulty[i] as number));
      ga[r] = ga[r]! + resid;
      gb[i] = gb[i]! - resid;
    }
  }
  return { ability: ga, difficulty: gb };
}

/** Solves S x = rhs for a symmetric positive definite S (n × n, row-major; overwritten by its Cholesky factor). */
function choleskySolve(S: Float64Array, n: number, rhs: Float64Array): Float64Array {
  for (let j = 0; j < n; j++) {
    let d = S[j * n + j]!;
    for (let k = 0; k < j; k++) d -= S[j * n + k]! ** 2;
    if (!(d > 0)) throw new RangeError("the Rasch Hessian is not negative definite (outcomes outside [0, 1]?)");
    const l = Math.sqrt(d);
    S[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let x = S[i * n + j]!;
      for (let k = 0; k < j; k++) x -= S[i * n + k]! * S[j * n + k]!;
      S[i * n + j] = x / l;
    }
  }
  const x = Float64Array.from(rhs);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) x[i] = x[i]! - S[i * n + k]! * x[k]!;
    x[i] = x[i]! / S[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) x[i] = x[i]! - S[k * n + i]! * x[k]!;
    x[i] = x[i]! / S[i * n + i]!;
  }
  return x;
}

/**
 * The Newton step (dθ, db) solving −H (dθ, db) = g, where −H = [[A, −W], [−Wᵀ, B]]:
 * A, B diagonal (Σ p(1 − p) over a row's items, an item's rows, plus 1/s²), W the
 * rows × items weights p(1 − p). The larger block is eliminated; the smaller one's
 * Schur complement is solved by Cholesky.
 */
function newtonStep(w: Float64Array, rows: number, items: number, ga: Float64Array, gb: Float64Array, v: number): { da: Float64Array; db: Float64Array } {
  const A = new Float64Array(rows).fill(1 / v);
  const B = new Float64Array(items).fill(1 / v);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < items; i++) {
      const x = w[r * items + i]!;
      A[r] = A[r]! + x;
      B[i] = B[i]! + x;
    }
  }
  const onItems = items <= rows;
  // the kept block (k) and the eliminated one (e); weight(e, k) reads W either way
  const [nk, ne, Dk, De, gk, ge] = onItems ? [items, rows, B, A, gb, ga] : [rows, items, A, B, ga, gb];
  const weight = onItems ? (e: number, k: number) => w[e * items + k]! : (e: number, k: number) => w[k * items + e]!;
  const S = new Float64Array(nk * nk);
  for (let k = 0; k < nk; k++) S[k * nk + k] = Dk[k]!;
  const rhs = Float64Array.from(gk);
  const row = new Float64Array(nk);
  for (let e = 0; e < ne; e++) {
    const inv = 1 / De[e]!;
    for (let k = 0; k < nk; k++) row[k] = weight(e, k);
    const ge_e = ge[e]! * inv;
    for (let k = 0; k < nk; k++) {
      const a = row[k]! * inv;
      if (a === 0) continue;
      rhs[k] = rhs[k]! + row[k]! * ge_e;
      // the lower triangle only: the Cholesky factorisation reads no more
      for (let j = 0; j <= k; j++) S[k * nk + j] = S[k * nk + j]! - a * row[j]!;
    }
  }
  const dk = choleskySolve(S, nk, rhs);
  const de = new Float64Array(ne);
  for (let e = 0; e < ne; e++) {
    let x = ge[e]!;
    for (let k = 0; k < nk; k++) x += weight(e, k) * dk[k]!;
    de[e] = x / De[e]!;
  }
  return onItems ? { da: de, db: dk } : { da: dk, db: de };
}

/** The MAP abilities and difficulties of outcomes y (rows × items, row-major, each in [0, 1]). */
export function fitRasch(y: ArrayLike<number>, rows: number, items: number, opts: Partial<RaschOptions> = {}): RaschFit {
  const o = { ...RASCH_DEFAULTS, ...opts };
  if (y.length !== rows * items) throw new RangeError(`outcomes hold ${y.length} cells, not ${rows} rows × ${items} items`);
  for (let c = 0; c < y.length; c++) {
    const v = y[c] as number;
    if (!(v >= 0 && v <= 1)) throw new RangeError(`outcome of row ${Math.floor(c / items) + 1}, item ${(c % items) + 1} is ${v}, not in [0, 1]`);
  }
  const v = o.priorSd * o.priorSd;
  let ability = new Float64Array(rows);
  let difficulty = new Float64Array(items);
  const w = new Float64Array(rows * items);
  const weights = () => {
    for (let r = 0; r < rows; r++) {
      for (let i = 0; i < items; i++) {
        const p = sigmoid(ability[r]! - difficulty[i]!);
        w[r * items + i] = p * (1 - p);
      }
    }
  };
  const largest = (g: { ability: Float64Array; difficulty: Float64Array }) => {
    let worst = 0;
    for (const x of g.ability) worst = Math.max(worst, Math.abs(x));
    for (const x of g.difficulty) worst = Math.max(worst, Math.abs(x));
    return worst;
  };
  let lp = raschLogPosterior(y, rows, items, ability, difficulty, o.priorSd);
  let g = raschGradient(y, rows, items, ability, difficulty, o.priorSd);
  let iterations = 0;
  while (largest(g) >= o.tolerance && iterations < o.maxIterations) {
    weights();
    const step = newtonStep(w, rows, items, g.ability, g.difficulty, v);
    // halved while the log posterior falls (beyond rounding): a full step may overshoot far from the answer
    for (let t = 1, tries = 0; tries < 60; t /= 2, tries++) {
      const a = ability.map((x, r) => x + t * step.da[r]!);
      const b = difficulty.map((x, i) => x + t * step.db[i]!);
      const next = raschLogPosterior(y, rows, items, a, b, o.priorSd);
      if (next >= lp - 1e-12 * Math.abs(lp)) {
        ability = a;
        difficulty = b;
        lp = next;
        break;
      }
    }
    iterations++;
    g = raschGradient(y, rows, items, ability, difficulty, o.priorSd);
  }
  return { ability, difficulty, iterations, converged: largest(g) < o.tolerance, max_gradient: largest(g), log_posterior: lp };
}
