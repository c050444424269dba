/**
 * The line a site prints once its pages are warmed (lib/site/warm-up.ts) and it is ready. Tests
 * and benches wait for it, not for a first answer: their first views are then no process's
 * first. A module of its own, importing nothing, for the harnesses that must not load the database.
 */
export const SITE_READY = "ChainSWE site ready on";
