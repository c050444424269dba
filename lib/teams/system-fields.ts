/**
 * What the client side needs to know of a system's description (pure, no
 * database): the form's fields, and the day its model's knowledge ends.
 */

/** The system form's field names, in order (an error echoes them back). */
export const SYSTEM_FIELDS = ["name", "model", "scaffold", "contextConfig", "releaseDate", "trainingCutoff", "links", "openWeights", "openScaffold"];

/** The day a system's own knowledge ends: its training cutoff, else its release day; null when neither is known. */
export const knowledgeCutoff = (s: { releaseDate: string | null; trainingCutoff: string | null }): string | null => s.trainingCutoff ?? s.releaseDate;
