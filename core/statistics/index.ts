/** Pure statistical tests the scores build on (SPEC §4). Plain numbers in and out. */
export { binomialHalfCdf, signTest, type SignTest } from "./sign-test";
export { holmAdjust } from "./holm";
export { pointBiserial } from "./correlation";
export { fitRasch, raschGradient, raschLogPosterior, PRIOR_SD, RASCH_DEFAULTS, type RaschFit, type RaschOptions } from "./rasch";
