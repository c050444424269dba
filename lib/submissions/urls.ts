/** Where a submission, a bug's failure page and a bug's test log live on the site and in the API. */

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

/** The same, as a file to save. */
export const logDownloadUrl = (submissionId: string, continuousId: string, order: number) => `${rawLogUrl(submissionId, continuousId, order)}?download=1`;
