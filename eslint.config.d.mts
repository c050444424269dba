// The layer lists eslint.config.mjs exports, typed for tests/unit/layers.test.ts.
export declare const LAYERS: Record<string, string[]>;
export declare const ABOVE_LAYERS: string[];
export declare const OUTSIDE_LAYERS: string[];
declare const config: unknown;
export default config;
