/** Where a submission, a bug's failure page, a bug's test log and its trajectory live on the site and in the API. */

/** A bug's position as a URL segment names it: a plain positive integer, else NaN (which names no bug: 404). */
export const bugOrderParam = (segment: string): number => (/^[1-9][0-9]{0,5}$/.test(segment) ? Number(segment) : Number.NaN);

/** A submission's page, the way down to every bug's result. */
export const submissionPageUrl = (submissionId: string) => `/submissions/${encodeURIComponent(submissionId)}`;

/** A bug's failure page for one submission. */
export const failurePageUrl = (submissionId: string, continuousId: string, order: number) =>
  `${submissionPageUrl(submissionId)}/chains/${encodeURIComponent(continuousId)}/bugs/${order}`;

/** The bug's full log as a page with line anchors (`#L120`). */
export const logPageUrl = (submissionId: string, continuousId: string, order: number) => `${failurePageUrl(submissionId, continuousId, order)}/log`;

/** The bug's full log as plain text (the API), shown inline. */
export const rawLogUrl = (submissionId: string, continuousId: string, order: number) =>
  `/api/v1/submissions/${encodeURIComponent(submissionId)}/logs/${encodeURIComponent(continuousId)}/${order}`;

/** The bug's trajectory log as uploaded (the API), shown inline. */
export const rawTrajectoryUrl = (submissionId: string, continuousId: string, order: number) =>
  `/api/v1/submissions/${encodeURIComponent(submissionId)}/trajectories/${encodeURIComponent(continuousId)}/${order}`;

/** The same, as a file to save. */
export const logDownloadUrl = (submissionId: string, continuousId: string, order: number) => `${rawLogUrl(submissionId, continuousId, order)}?download=1`;
