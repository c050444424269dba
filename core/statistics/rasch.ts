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
 * The fit alternates two blocks: every θ with b held, then every b with θ held.
 * Within a block the parameters are independent, so one Newton step per
 * parameter is the block's Newton step; each is halved until its own log
 * posterior does not fall, so every sweep climbs. The fit has converged when
 * the largest absolute gradient over all parameters is below `tolerance`.
 */
export const PRIOR_SD = 3;

export type RaschOptions = { tolerance: number; maxIterations: number; priorSd: number };
export const RASCH_DEFAULTS: RaschOptions = { tolerance: 1e-6, maxIterations: 500, priorSd: PRIOR_SD };

export type RaschFit = {
  ability: Float64Array;
  difficulty: Float64Array;
  /** sweeps made (each updates every θ, then every b) */
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

/**
 * One block's Newton steps: each parameter x_k (sign +1 for an ability, −1 for
 * a difficulty, so η = sign·(x_k − other)) against the other block held.
 * cell(k, j) is the index of y for parameter k and the other block's j.
 */
function newtonBlock(x: Float64Array, others: Float64Array, sign: 1 | -1, y: ArrayLike<number>, cell: (k: number, j: number) => number, v: number): void {
  const m = others.length;
  const objective = (k: number, value: number) => {
    let f = -(value * value) / (2 * v);
    for (let j = 0; j < m; j++) f += cellLogLik(y[cell(k, j)] as number, sign * (value - others[j]!));
    return f;
  };
  for (let k = 0; k < x.length; k++) {
    const xk = x[k]!;
    let g = -xk / v;
    let h = 1 / v;
    for (let j = 0; j < m; j++) {
      const p = sigmoid(sign * (xk - others[j]!));
      g += sign * ((y[cell(k, j)] as number) - p);
      h += p * (1 - p);
    }
    let step = g / h;
    if (step === 0) continue;
    const before = objective(k, xk);
    // halving keeps the step an ascent: a Newton step on a concave function may overshoot
    for (let tries = 0; tries < 40 && objective(k, xk + step) < before; tries++) step /= 2;
    x[k] = xk + step;
  }
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
  const ability = new Float64Array(rows);
  const difficulty = new Float64Array(items);
  const maxGradient = () => {
    const g = raschGradient(y, rows, items, ability, difficulty, o.priorSd);
    let worst = 0;
    for (const x of g.ability) worst = Math.max(worst, Math.abs(x));
    for (const x of g.difficulty) worst = Math.max(worst, Math.abs(x));
    return worst;
  };
  let iterations = 0;
  let gradient = maxGradient();
  while (gradient >= o.tolerance && iterations < o.maxIterations) {
    newtonBlock(ability, difficulty, 1, y, (r, i) => r * items + i, v);
    newtonBlock(difficulty, ability, -1, y, (i, r) => r * items + i, v);
    iterations++;
    gradient = maxGradient();
  }
  return {
    ability,
    difficulty,
    iterations,
    converged: gradient < o.tolerance,
    max_gradient: gradient,
    log_posterior: raschLogPosterior(y, rows, items, ability, difficulty, o.priorSd),
  };
}
